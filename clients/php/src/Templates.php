<?php
declare(strict_types=1);

namespace Switchboard;

/** /v1/templates (see docs/chat.md). */
final class Templates
{
    public function __construct(private readonly Transport $transport)
    {
    }

    /**
     * @param array<string, mixed> $template
     * @return array<string, mixed>
     */
    public function create(array $template): array
    {
        return $this->transport->request('POST', '/v1/templates', [], $template)['body'];
    }

    /** @return array<string, mixed> */
    public function get(string $id): array
    {
        return $this->transport->request('GET', '/v1/templates/' . rawurlencode($id))['body'];
    }

    /**
     * @param array<string, scalar|null> $query
     * @return \Generator<int, array<string, mixed>>
     */
    public function list(array $query = []): \Generator
    {
        return Paginator::all($this->transport, '/v1/templates', $query);
    }

    public function delete(string $id): void
    {
        $this->transport->request('DELETE', '/v1/templates/' . rawurlencode($id));
    }
}
