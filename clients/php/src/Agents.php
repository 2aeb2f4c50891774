<?php
declare(strict_types=1);

namespace Switchboard;

/**
 * Voice agents (see docs/voice.md#agents). A flow that does not hold together throws an ApiException 400 whose
 * errors name each problem by JSON Pointer, e.g. /flow/nodes/a/next.
 */
final class Agents
{
    public function __construct(private readonly Transport $transport)
    {
    }

    /**
     * @param array<string, mixed> $agent name, flow, and optionally voice and llm
     * @return array<string, mixed>
     */
    public function create(array $agent): array
    {
        return $this->transport->request('POST', '/v1/voice/agents', [], $agent)['body'];
    }

    /** @return array<string, mixed> */
    public function get(string $id): array
    {
        return $this->transport->request('GET', '/v1/voice/agents/' . rawurlencode($id))['body'];
    }

    /**
     * The whole agent; calls already placed keep the flow they started with.
     *
     * @param array<string, mixed> $agent
     * @return array<string, mixed>
     */
    public function replace(string $id, array $agent): array
    {
        return $this->transport->request('PUT', '/v1/voice/agents/' . rawurlencode($id), [], $agent)['body'];
    }

    /**
     * @param array<string, scalar|null> $query
     * @return \Generator<int, array<string, mixed>>
     */
    public function list(array $query = []): \Generator
    {
        return Paginator::all($this->transport, '/v1/voice/agents', $query);
    }

    public function delete(string $id): void
    {
        $this->transport->request('DELETE', '/v1/voice/agents/' . rawurlencode($id));
    }
}
