import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAccountKey, createTestDatabase, eventually, startStack, type Stack, type TestDatabase } from '@switchboard/devstack';
import { callee, FROM, IVR_FLOW, type CallView, voiceApi, customerLookupFlow } from './support/voice-calls';
import { ReceiverProcess, TEST_REDIS_URL, verify } from './webhooks-harness';

// Outbound calls through the real stack: the gateway, the voice orchestrator placing real SIP/RTP calls to the
// carrier simulator's phones, and webhook-delivery posting the call events (docs/voice.md).
describe('voice calls through the full stack', () => {
  let database: TestDatabase;
  let stack: Stack;
  let key: string;
  let callbackSecret: string;
  const receiver = new ReceiverProcess();

  const { api, callEnds } = voiceApi(() => ({ baseUrl: stack.baseUrl, key }));

  beforeAll(async () => {
    database = await createTestDatabase();
    await receiver.start();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: TEST_REDIS_URL,
      prefix: `sbvc${randomBytes(4).toString('hex')}`,
      workers: ['voice-orchestrator', 'webhook-delivery'],
      env: {
        TARGET_ALLOW_HTTP: 'true',
        TARGET_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_RETRY_SCHEDULE_MS: '0,200,500,1000',
      },
      gatewayEnv: { VOICE_CONCURRENT_CALLS_PER_ACCOUNT: '2' },
      // A killed orchestrator's calls are found lost within seconds instead of 45 s.
      voiceEnv: { VOICE_LOST_AFTER_MS: '3000' },
    });
    ({ key, callbackSecret } = await createAccountKey(database.url, { account: 'voice-e2e', scopes: ['*'], numbers: [{ e164: FROM, channels: ['voice'] }] }));
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await receiver.kill();
    await database?.drop();
  });

  it('rejects a flow that does not hold together, naming each problem by JSON Pointer', async () => {
    const res = await api('POST', '/v1/voice/agents', {
      name: 'broken',
      flow: {
        start: 'a',
        nodes: { a: { type: 'say', text: 'hi', next: 'nowhere' }, b: { type: 'dance' }, c: { type: 'hangup' } },
      },
    });
    expect(res.status).toBe(400);
    expect(res.type).toContain('application/problem+json');
    const fields = (res.body.errors as Array<{ field: string }>).map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['/flow/nodes/a/next', '/flow/nodes/b/type']));

    const unreachable = await api('POST', '/v1/voice/agents', {
      name: 'island',
      flow: { start: 'a', nodes: { a: { type: 'hangup' }, c: { type: 'hangup' } } },
    });
    expect(unreachable.status).toBe(400);
    expect(unreachable.body.errors).toEqual([expect.objectContaining({ field: '/flow/nodes/c' })]);
  });

  it('answers bad call requests with problems naming the field', async () => {
    const badTo = await api('POST', '/v1/voice/calls', { to: '12345', from: FROM });
    expect(badTo.status).toBe(400);
    expect(badTo.body.errors).toEqual([expect.objectContaining({ field: '/to' })]);
    const notOurs = await api('POST', '/v1/voice/calls', { to: callee('00'), from: '+447911123488' });
    expect(notOurs.status).toBe(422);
    expect(notOurs.body.code).toBe('from_number_not_provisioned');
    const noAgent = await api('POST', '/v1/voice/calls', { to: callee('00'), from: FROM, agent_id: 'agt_01HZZZZZZZZZZZZZZZZZZZZZZZ' });
    expect(noAgent.status).toBe(422);
    expect(noAgent.body.code).toBe('agent_not_found');
    expect((await api('GET', '/v1/voice/calls/call_nope')).status).toBe(404);
  });

  it('runs an IVR flow on a call the callee answers: DTMF steers the branch, with transcript, recording and signed events', async () => {
    const agent = await api('POST', '/v1/voice/agents', { name: 'ivr', flow: IVR_FLOW, voice: 'slt' });
    expect(agent.status).toBe(201);
    const created = await api(
      'POST',
      '/v1/voice/calls',
      { to: callee('00'), from: FROM, agent_id: agent.body.id, record: true, metadata: { name: 'Ada' }, callback_url: receiver.url('/ivr') },
      { 'idempotency-key': '6f1c9a52-8d1e-4a57-9a0e-2b7d3f4c5e61' },
    );
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      call_id: expect.stringMatching(/^call_/),
      status: 'ringing',
      to: callee('00'),
      from: FROM,
      agent_id: agent.body.id,
      created_at: expect.any(String),
    });
    const replay = await api(
      'POST',
      '/v1/voice/calls',
      { to: callee('00'), from: FROM, agent_id: agent.body.id, record: true, metadata: { name: 'Ada' }, callback_url: receiver.url('/ivr') },
      { 'idempotency-key': '6f1c9a52-8d1e-4a57-9a0e-2b7d3f4c5e61' },
    );
    expect(replay.body.call_id).toBe(created.body.call_id);

    const call = await callEnds(created.body.call_id as string, 'the IVR call to end');
    expect(call).toMatchObject({ status: 'completed', end_reason: 'agent_hangup' });
    expect(call.transcript.map((t) => `${t.speaker}: ${t.text}`)).toEqual([
      'agent: Hello Ada, this is Switchboard.',
      'agent: Press 1 for sales or 2 for support.',
      'callee: DTMF: 1',
      'agent: Connecting you to sales.',
    ]);

    const withRecording = await eventually(
      async () => (await api('GET', `/v1/voice/calls/${call.call_id}`)).body as unknown as CallView,
      (c) => c.recording !== null,
      { what: 'the recording', timeoutMs: 30_000 },
    );
    const wav = await api('GET', withRecording.recording!.url);
    expect(wav.status).toBe(200);
    expect(wav.type).toBe('audio/wav');
    const file = wav.body as Buffer;
    expect(file.toString('ascii', 0, 4)).toBe('RIFF');
    expect(file.readUInt16LE(22)).toBe(2); // stereo
    expect(file.readUInt32LE(24)).toBe(8000);
    expect(file.readUInt16LE(34)).toBe(16);
    const seconds = file.readUInt32LE(40) / (8000 * 2 * 2);
    expect(Math.abs(seconds - withRecording.recording!.duration_seconds)).toBeLessThan(0.05);
    // The agent's prompts are on the right channel: several seconds of speech.
    let loudAgentSamples = 0;
    for (let offset = 44; offset + 4 <= file.length; offset += 4) if (Math.abs(file.readInt16LE(offset + 2)) > 1000) loudAgentSamples += 1;
    expect(loudAgentSamples / 8000).toBeGreaterThan(1);

    const events = await eventually(
      async () => receiver.received('/ivr').map((d) => verify(callbackSecret, d)),
      (list) => ['call.ringing', 'call.answered', 'call.completed', 'call.recording_ready'].every((t) => list.some((e) => e.type === t)),
      { what: 'the call events at the callback_url', timeoutMs: 60_000 },
    );
    const completed = events.find((e) => e.type === 'call.completed')!;
    expect(completed.data).toMatchObject({ call_id: call.call_id, status: 'completed', transcript: call.transcript });
  });

  it('ends a call to a busy number as busy', async () => {
    const created = await api('POST', '/v1/voice/calls', { to: callee('01'), from: FROM, record: true });
    expect(created.status).toBe(201);
    const call = await callEnds(created.body.call_id as string, 'the busy call to end');
    expect(call).toMatchObject({ status: 'busy', end_reason: 'busy', answered_at: null, recording: null });
    // No metadata given: `{}`, as on a message (toEqual: toMatchObject would take null for {}).
    expect(call.metadata).toEqual({});
    // Its recording will never exist, and the answer says so rather than "(yet)".
    const recording = await api('GET', `/v1/voice/calls/${created.body.call_id as string}/recording`);
    expect({ status: recording.status, detail: recording.body.detail }).toEqual({
      status: 404,
      detail: 'The call ended busy without being answered: it has no recording.',
    });
  });

  it('limits concurrent calls per account, and a hangup while ringing cancels the call', async () => {
    const first = await api('POST', '/v1/voice/calls', { to: callee('02'), from: FROM, ring_timeout_seconds: 60 });
    const second = await api('POST', '/v1/voice/calls', { to: callee('02'), from: FROM, ring_timeout_seconds: 60 });
    expect([first.status, second.status]).toEqual([201, 201]);
    const third = await api('POST', '/v1/voice/calls', { to: callee('02'), from: FROM });
    expect(third.status).toBe(429);
    expect(third.body.code).toBe('concurrent_call_limit');

    for (const created of [first, second]) {
      const hangup = await api('POST', `/v1/voice/calls/${String(created.body.call_id)}/hangup`);
      expect([200, 202]).toContain(hangup.status);
      const call = await callEnds(created.body.call_id as string, 'the ringing call to be canceled');
      expect(call).toMatchObject({ status: 'canceled', end_reason: 'hangup_api' });
    }
    const again = await api('POST', `/v1/voice/calls/${String(first.body.call_id)}/hangup`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('call_already_ended');
  });

  it("ends a call whose callee stays silent after the prompt with silence_timeout (the agent's silence_timeout_seconds)", async () => {
    const tooShort = await api('POST', '/v1/voice/agents', {
      name: 'x',
      flow: { start: 'end', silence_timeout_seconds: 1, nodes: { end: { type: 'hangup' } } },
    });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.errors).toEqual([expect.objectContaining({ field: '/flow/silence_timeout_seconds' })]);

    const agent = await api('POST', '/v1/voice/agents', {
      name: 'silence',
      flow: {
        start: 'wait',
        silence_timeout_seconds: 3,
        nodes: {
          // The gather would wait far longer; only the silence timeout can end this call early.
          wait: { type: 'gather', input: 'both', prompt: 'Are you there?', timeout_seconds: 60, branches: [], no_input: 'bye', no_match: 'bye' },
          bye: { type: 'say', text: 'Goodbye.', next: 'end' },
          end: { type: 'hangup' },
        },
      },
    });
    expect(agent.status).toBe(201);
    const created = await api('POST', '/v1/voice/calls', { to: callee('05'), from: FROM, agent_id: agent.body.id });
    const call = await callEnds(created.body.call_id as string, 'the silent call to time out');
    expect(call).toMatchObject({ status: 'completed', end_reason: 'silence_timeout' });
    expect(call.transcript.map((t) => `${t.speaker}: ${t.text}`)).toEqual(['agent: Are you there?']);
  });

  it('transfers with a SIP REFER: the phone accepts (202, NOTIFY 200) and the call completes with the transfer in the transcript', async () => {
    const agent = await api('POST', '/v1/voice/agents', {
      name: 'transfer',
      flow: {
        start: 'menu',
        nodes: {
          menu: {
            type: 'gather',
            input: 'dtmf',
            prompt: 'Press 1 for sales.',
            timeout_seconds: 8,
            branches: [{ match: '1', next: 'connect' }],
            no_input: 'bye',
            no_match: 'bye',
          },
          connect: { type: 'say', text: 'Connecting you to sales.', next: 'xfer' },
          xfer: { type: 'transfer', to: '+15550100', on_error: 'sorry' },
          sorry: { type: 'say', text: 'Sales cannot take your call.', next: 'bye' },
          bye: { type: 'hangup' },
        },
      },
    });
    expect(agent.status).toBe(201);
    const created = await api('POST', '/v1/voice/calls', { to: callee('00'), from: FROM, agent_id: agent.body.id });
    const call = await callEnds(created.body.call_id as string, 'the transferred call to end');
    expect(call).toMatchObject({ status: 'completed', end_reason: 'completed' });
    const turns = call.transcript.map((t) => `${t.speaker}: ${t.text}`);
    expect(turns).toEqual([
      'agent: Press 1 for sales.',
      'callee: DTMF: 1',
      'agent: Connecting you to sales.',
      expect.stringMatching(/^agent: Transferred to sip:\+15550100@127\.0\.0\.1:\d+$/),
    ]);

    const badTarget = await api('POST', '/v1/voice/agents', { name: 'x', flow: { start: 'x', nodes: { x: { type: 'transfer', to: 'sales>\r\nVia: evil' } } } });
    expect(badTarget.status).toBe(400);
    expect(badTarget.body.errors).toEqual([expect.objectContaining({ field: '/flow/nodes/x/to' })]);
  });

  it('a hangup through the API completes a call in progress', async () => {
    const agent = await api('POST', '/v1/voice/agents', {
      name: 'hold',
      flow: {
        start: 'wait',
        nodes: {
          wait: { type: 'gather', input: 'dtmf', prompt: 'Please hold.', timeout_seconds: 60, branches: [], no_input: 'end', no_match: 'end' },
          end: { type: 'hangup' },
        },
      },
    });
    const created = await api('POST', '/v1/voice/calls', { to: callee('05'), from: FROM, agent_id: agent.body.id });
    await eventually(
      async () => (await api('GET', `/v1/voice/calls/${String(created.body.call_id)}`)).body as unknown as CallView,
      (c) => c.status === 'in-progress',
      { what: 'the call to be answered', timeoutMs: 30_000 },
    );
    const hangup = await api('POST', `/v1/voice/calls/${String(created.body.call_id)}/hangup`);
    expect(hangup.status).toBe(200);
    expect(hangup.body).toMatchObject({ status: 'completed', end_reason: 'hangup_api' });

    const list = await api('GET', `/v1/voice/calls?status=completed&to=${encodeURIComponent(callee('05'))}`);
    // The silence-timeout test's call to 05 is completed too.
    expect((list.body.data as CallView[]).map((c) => c.call_id)).toContain(created.body.call_id);
    expect(new Set((list.body.data as CallView[]).map((c) => c.status))).toEqual(new Set(['completed']));
    expect((await api('GET', '/v1/voice/calls?status=dancing')).body.errors).toEqual([expect.objectContaining({ field: 'query:status' })]);
  });

  it('routes the 04 callee ("I want to speak to sales") by a speech gather', async () => {
    const agent = await api('POST', '/v1/voice/agents', {
      name: 'speech',
      flow: {
        start: 'ask',
        nodes: {
          ask: {
            type: 'gather',
            input: 'speech',
            prompt: 'Which department would you like?',
            timeout_seconds: 8,
            branches: [
              { match: 'sales', next: 'sales' },
              { match: 'support', next: 'support' },
            ],
            no_input: 'bye',
            no_match: 'bye',
          },
          sales: { type: 'say', text: 'Connecting you to sales.', next: 'bye' },
          support: { type: 'say', text: 'Connecting you to support.', next: 'bye' },
          bye: { type: 'hangup' },
        },
      },
    });
    const created = await api('POST', '/v1/voice/calls', { to: callee('04'), from: FROM, agent_id: agent.body.id });
    const call = await callEnds(created.body.call_id as string, 'the speech call to end');
    expect(call.status).toBe('completed');
    const turns = call.transcript.map((t) => `${t.speaker}: ${t.text}`);
    expect(turns[0]).toBe('agent: Which department would you like?');
    expect(turns[1]).toMatch(/^callee: .*\bsales\b/);
    expect(turns[2]).toBe('agent: Connecting you to sales.');
    expect(['agent_hangup', 'callee_hangup']).toContain(call.end_reason);
  });

  it('runs an llm node against the stand-in: streamed reply, recognised answer, and a tool call that ends the goal', async () => {
    const llmFlow = (model: string) => ({
      name: `llm ${model}`,
      llm: { model },
      flow: {
        start: 'talk',
        nodes: {
          talk: {
            type: 'llm',
            system_prompt: 'You are the front desk of Example Corporation.',
            goal: 'Find out whether the caller wants sales or support.',
            max_turns: 3,
            expected_phrases: ['sales', 'support'],
            next: 'done',
            on_error: 'sorry',
          },
          done: { type: 'say', text: 'Transferring to {{llm_result.department}}.', next: 'bye' },
          sorry: { type: 'say', text: 'Sorry, something went wrong.', next: 'bye' },
          bye: { type: 'hangup' },
        },
      },
    });
    const agent = await api('POST', '/v1/voice/agents', llmFlow('sim-llm'));
    expect(agent.status).toBe(201);
    const created = await api('POST', '/v1/voice/calls', { to: callee('04'), from: FROM, agent_id: agent.body.id });
    const call = await callEnds(created.body.call_id as string, 'the llm call to end');
    const turns = call.transcript.map((t) => `${t.speaker}: ${t.text}`);
    expect(turns.slice(0, 3)).toEqual(['agent: Hello!', 'agent: Thank you for calling.', 'agent: Which department would you like, sales or support?']);
    expect(turns[3]).toMatch(/^callee: .*\bsales\b/);
    expect(turns.slice(4)).toEqual(['agent: Certainly.', 'agent: Connecting you to sales.', 'agent: Transferring to sales.']);

    const failing = await api('POST', '/v1/voice/agents', llmFlow('sim-fault-500'));
    const failed = await api('POST', '/v1/voice/calls', { to: callee('05'), from: FROM, agent_id: failing.body.id });
    const onError = await callEnds(failed.body.call_id as string, 'the failing llm call to end');
    expect(onError).toMatchObject({ status: 'completed', end_reason: 'agent_hangup' });
    expect(onError.transcript.map((t) => t.text)).toEqual(['Sorry, something went wrong.']);
  });

  it('runs http nodes: a local customer system answers, and a metadata address is refused by the target guard', async () => {
    const customerSystem = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ name: 'Grace', path: req.url }));
    });
    await new Promise<void>((resolve) => customerSystem.listen(0, '127.0.0.1', resolve));
    try {
      const port = (customerSystem.address() as AddressInfo).port;
      const agent = await api('POST', '/v1/voice/agents', { name: 'dynamic ivr', flow: customerLookupFlow(`http://127.0.0.1:${port}`) });
      const created = await api('POST', '/v1/voice/calls', { to: callee('05'), from: FROM, agent_id: agent.body.id });
      const call = await callEnds(created.body.call_id as string, 'the dynamic IVR call to end');
      expect(call.transcript.map((t) => t.text)).toEqual(['Hello Grace.', 'Lookup refused.']);
    } finally {
      customerSystem.close();
    }
  });

  it('hangs up on a voicemail with machine_detection: hangup', async () => {
    const created = await api('POST', '/v1/voice/calls', { to: callee('07'), from: FROM, machine_detection: 'hangup' });
    const call = await callEnds(created.body.call_id as string, 'the voicemail call to end');
    expect(call).toMatchObject({ status: 'completed', end_reason: 'machine_detected', answered_by: 'machine' });
  });

  it('redials a busy number after the retry delay, and ends busy after the last attempt', async () => {
    const created = await api('POST', '/v1/voice/calls', { to: callee('01'), from: FROM, retry: { attempts: 2, delay_seconds: 30, on: ['busy'] } });
    expect(created.status).toBe(201);
    const call = await eventually(
      async () => (await api('GET', `/v1/voice/calls/${String(created.body.call_id)}`)).body as unknown as CallView & { attempt: number },
      (c) => c.status !== 'ringing',
      { what: 'the second attempt to end', timeoutMs: 90_000, intervalMs: 500 },
    );
    expect(call).toMatchObject({ status: 'busy', end_reason: 'busy', attempt: 2 });
  }, 120_000);

  it('ends a call as failed / orchestrator_lost when its orchestrator is killed mid-call', async () => {
    const agent = await api('POST', '/v1/voice/agents', {
      name: 'long hold',
      flow: {
        start: 'wait',
        nodes: { wait: { type: 'gather', input: 'dtmf', timeout_seconds: 60, branches: [], no_input: 'end', no_match: 'end' }, end: { type: 'hangup' } },
      },
    });
    const created = await api('POST', '/v1/voice/calls', { to: callee('05'), from: FROM, agent_id: agent.body.id });
    await eventually(
      async () => (await api('GET', `/v1/voice/calls/${String(created.body.call_id)}`)).body as unknown as CallView,
      (c) => c.status === 'in-progress',
      { what: 'the call to be answered', timeoutMs: 30_000 },
    );
    await stack.services['voice-orchestrator']!.kill('SIGKILL');
    await stack.startService('voice-orchestrator');
    const call = await callEnds(created.body.call_id as string, 'the lost call to be detected');
    expect(call).toMatchObject({ status: 'failed', end_reason: 'orchestrator_lost' });
  });
});
