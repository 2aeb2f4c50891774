<?php
declare(strict_types=1);

namespace Switchboard;

/** /v1/inbound: customer replies, newest first (see docs/chat.md). */
final class Inbound
{
    public function __construct(private readonly Transport $transport)
    {
    }

    /** @return array<string, mixed> */
    public function get(string $id): array
    {
        return $this->transport->request('GET', '/v1/inbound/' . rawurlencode($id))['body'];
    }

    /**
     * @param array<string, scalar|null> $query
     * @return \Generator<int, array<string, mixed>>
     */
    public function list(array $query = []): \Generator
    {
        return Paginator::all($this->transport, '/v1/inbound', $query);
    }
}
