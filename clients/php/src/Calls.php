<?php
declare(strict_types=1);

namespace Switchboard;

/** Outbound calls, optionally run by an agent (see docs/voice.md#calls). */
final class Calls
{
    public function __construct(private readonly Transport $transport)
    {
    }

    /**
     * POST /v1/voice/calls. $call is the body as docs/voice.md#placing-a-call names it: to, from, agent_id, record,
     * metadata, callback_url... The Idempotency-Key is generated once here, so a retry never rings the phone twice.
     *
     * @param array<string, mixed> $call
     * @return array<string, mixed>
     */
    public function create(array $call, ?string $idempotencyKey = null): array
    {
        return $this->transport->request('POST', '/v1/voice/calls', [], $call, ['Idempotency-Key' => $idempotencyKey ?? Uuid::v4()])['body'];
    }

    /** @return array<string, mixed> the call with its transcript and, once stored, its recording's link */
    public function get(string $id): array
    {
        return $this->transport->request('GET', '/v1/voice/calls/' . rawurlencode($id))['body'];
    }

    /** @return list<array{speaker: string, text: string, at: string}> the transcript, oldest line first */
    public function transcript(string $id): array
    {
        return $this->get($id)['transcript'];
    }

    /**
     * Every call matching the filters (status, to, agent_id), newest first, across all pages.
     *
     * @param array<string, scalar|null> $query
     * @return \Generator<int, array<string, mixed>>
     */
    public function list(array $query = []): \Generator
    {
        return Paginator::all($this->transport, '/v1/voice/calls', $query);
    }

    /** @return array<string, mixed> a ringing call becomes canceled, an answered one completed (docs/voice.md#hangup) */
    public function hangup(string $id): array
    {
        return $this->transport->request('POST', '/v1/voice/calls/' . rawurlencode($id) . '/hangup')['body'];
    }

    /** The recording's WAV bytes: stereo, 8 kHz 16-bit PCM, callee left, agent right (docs/voice.md#recording). */
    public function recording(string $id): string
    {
        return $this->transport->request('GET', '/v1/voice/calls/' . rawurlencode($id) . '/recording', [], null, [], true)['body'];
    }
}
