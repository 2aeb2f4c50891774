<?php
declare(strict_types=1);

namespace Switchboard;

/** POST/GET /v1/messages, /v1/messages/chat and a message's events (see docs/api.md and docs/chat.md). */
final class Messages
{
    public function __construct(private readonly Transport $transport)
    {
    }

    /**
     * POST /v1/messages. $message is the body as docs/api.md names it: channel, recipient, content or template,
     * and the optional fields (traffic_class among them: 'transactional' by default, or 'bulk'). The Idempotency-Key is generated once here, so the transport's retries replay.
     *
     * @param array<string, mixed> $message
     * @return array<string, mixed>
     */
    public function send(array $message, ?string $idempotencyKey = null): array
    {
        return $this->transport->request('POST', '/v1/messages', [], $message, ['Idempotency-Key' => $idempotencyKey ?? Uuid::v4()])['body'];
    }

    /**
     * POST /v1/messages/chat with a typed chat message: ['to' => ..., 'type' => 'text', 'text' => ['body' => ...]].
     *
     * @param array<string, mixed> $message
     * @return array<string, mixed>
     */
    public function sendChat(array $message, ?string $idempotencyKey = null): array
    {
        return $this->transport->request('POST', '/v1/messages/chat', [], $message, ['Idempotency-Key' => $idempotencyKey ?? Uuid::v4()])['body'];
    }

    /** @return array<string, mixed> */
    public function get(string $id): array
    {
        return $this->transport->request('GET', '/v1/messages/' . rawurlencode($id))['body'];
    }

    /** @return list<array<string, mixed>> */
    public function events(string $id): array
    {
        return $this->transport->request('GET', '/v1/messages/' . rawurlencode($id) . '/events')['body']['data'];
    }

    /**
     * One page: filters status, channel, recipient, traffic_class; limit; cursor.
     *
     * @param array<string, scalar|null> $query
     * @return array{data: list<array<string, mixed>>, next_cursor: ?string}
     */
    public function listPage(array $query = []): array
    {
        return $this->transport->request('GET', '/v1/messages', $query)['body'];
    }

    /**
     * Every message matching the filters, newest first, across all pages.
     *
     * @param array<string, scalar|null> $query
     * @return \Generator<int, array<string, mixed>>
     */
    public function list(array $query = []): \Generator
    {
        return Paginator::all($this->transport, '/v1/messages', $query);
    }
}
