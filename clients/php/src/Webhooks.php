<?php
declare(strict_types=1);

namespace Switchboard;

/** Webhook endpoints, events and the account's callback secret (see docs/webhooks.md); verify() checks a delivery. */
final class Webhooks
{
    public function __construct(private readonly Transport $transport)
    {
    }

    /**
     * @param list<string> $events
     * @return array<string, mixed> with `secret`, shown only here
     */
    public function create(string $url, array $events, ?string $description = null): array
    {
        $body = ['url' => $url, 'events' => $events] + ($description === null ? [] : ['description' => $description]);
        return $this->transport->request('POST', '/v1/webhooks', [], $body)['body'];
    }

    /** @return array<string, mixed> */
    public function get(string $id): array
    {
        return $this->transport->request('GET', '/v1/webhooks/' . rawurlencode($id))['body'];
    }

    /** @return list<array<string, mixed>> */
    public function list(): array
    {
        return $this->transport->request('GET', '/v1/webhooks')['body']['data'];
    }

    public function delete(string $id): void
    {
        $this->transport->request('DELETE', '/v1/webhooks/' . rawurlencode($id));
    }

    /** @return array<string, mixed> */
    public function rotateSecret(string $id): array
    {
        return $this->transport->request('POST', '/v1/webhooks/' . rawurlencode($id) . '/rotate-secret')['body'];
    }

    /** @return list<array<string, mixed>> */
    public function deliveries(string $id): array
    {
        return $this->transport->request('GET', '/v1/webhooks/' . rawurlencode($id) . '/deliveries')['body']['data'];
    }

    /**
     * GET /v1/events with `type` and `resource_id` filters, across all pages.
     *
     * @param array<string, scalar|null> $query
     * @return \Generator<int, array<string, mixed>>
     */
    public function events(array $query = []): \Generator
    {
        return Paginator::all($this->transport, '/v1/events', $query);
    }

    /** @return array<string, mixed> */
    public function event(string $id): array
    {
        return $this->transport->request('GET', '/v1/events/' . rawurlencode($id))['body'];
    }

    public function redeliver(string $id): void
    {
        $this->transport->request('POST', '/v1/events/' . rawurlencode($id) . '/redeliver');
    }

    public function accountSecret(): string
    {
        return $this->transport->request('GET', '/v1/account/webhook-secret')['body']['secret'];
    }

    /**
     * @param array<string, string|list<string>> $headers
     * @return array<string, mixed>
     */
    public static function verify(string $payload, array $headers, string $secret): array
    {
        return Webhook::verify($payload, $headers, $secret);
    }
}
