import { randomBytes } from 'node:crypto';
import { createAccountKey, createTestDatabase, eventually, startStack, type Stack, type TestDatabase } from '@switchboard/devstack';
import { encodeMulaw } from '@switchboard/telephony';
import { createPocketsphinxRecognizer } from '../services/voice-orchestrator/src/speech/pocketsphinx-stt';
import { callee, FROM, type CallView, voiceApi } from './support/voice-calls';
import { TEST_REDIS_URL } from './webhooks-harness';

// A `transfer` node with `mode: "bridge"` (docs/voice-agents.md#bridged-transfer) between two of the simulator's real SIP
// phones: the orchestrator dials the second party through the same trunk and relays RTP audio and RFC 4733 digits.
// The phones only react to what they hear, so each reaction proves that the other phone's audio crossed the bridge:
// the 04 phone says "I want to speak to sales" only after hearing a prompt end, the 00 phone presses 1 only then,
// and the 07 phone (voicemail) speaks a greeting and a beep as soon as it answers.
const SALES = 'I want to speak to sales';

describe('bridged transfer between two real SIP phones', () => {
  let database: TestDatabase;
  let stack: Stack;
  let key: string;

  const { api, callEnds } = voiceApi(() => ({ baseUrl: stack.baseUrl, key }));
  const bridgeAgent = async (to: string) => {
    const agent = await api('POST', '/v1/voice/agents', {
      name: `bridge to ${to}`,
      flow: { start: 'connect', nodes: { connect: { type: 'transfer', mode: 'bridge', to, timeout_seconds: 10 } } },
    });
    expect(agent.status).toBe(201);
    return agent.body.id as string;
  };
  /** One channel (0 = callee, 1 = second party) of the call's stereo recording, as μ-law for the recogniser. */
  const recordedChannel = async (call: CallView, channel: 0 | 1): Promise<Buffer> => {
    const withRecording = await eventually(
      async () => (await api('GET', `/v1/voice/calls/${call.call_id}`)).body as unknown as CallView,
      (c) => c.recording !== null,
      { what: 'the recording', timeoutMs: 30_000 },
    );
    const wav = (await api('GET', withRecording.recording!.url)).body as Buffer;
    expect(wav.readUInt16LE(22)).toBe(2);
    const frames = (wav.length - 44) / 4;
    const samples = new Int16Array(frames);
    for (let i = 0; i < frames; i += 1) samples[i] = wav.readInt16LE(44 + i * 4 + channel * 2);
    return encodeMulaw(loudSpan(samples));
  };
  /** From the first to the last loud 20 ms frame, with 300 ms either side: the recogniser's grammar fits one phrase, not a minute of silence. */
  const loudSpan = (samples: Int16Array): Int16Array => {
    const loud: number[] = [];
    for (let at = 0; at + 160 <= samples.length; at += 160) {
      let sum = 0;
      for (let i = at; i < at + 160; i += 1) sum += Math.abs(samples[i]);
      if (sum / 160 > 300) loud.push(at);
    }
    expect(loud.length).toBeGreaterThan(25); // at least half a second of speech
    return samples.subarray(Math.max(0, loud[0] - 2_400), Math.min(samples.length, loud[loud.length - 1] + 2_400));
  };
  const recognise = (mulaw: Buffer) => createPocketsphinxRecognizer().recognize(mulaw, [SALES]);

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: TEST_REDIS_URL,
      prefix: `sbvt${randomBytes(4).toString('hex')}`,
      workers: ['voice-orchestrator'],
    });
    ({ key } = await createAccountKey(database.url, { account: 'voice-bridge', scopes: ['*'], numbers: [{ e164: FROM, channels: ['voice'] }] }));
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await database?.drop();
  });

  it("relays the callee's audio to the second party, whose answer is recorded on the right; its hangup completes the call", async () => {
    // Callee: the voicemail phone (greeting and beep at once). Second party: the phone that answers a prompt with speech.
    const created = await api('POST', '/v1/voice/calls', { to: callee('07'), from: FROM, agent_id: await bridgeAgent(callee('04')), record: true });
    expect(created.status).toBe(201);
    const call = await callEnds(created.body.call_id as string, 'the bridged call to end');
    expect(call).toMatchObject({ status: 'completed', end_reason: 'completed' });
    expect(call.transcript.map((t) => `${t.speaker}: ${t.text}`)).toEqual([`agent: Bridged to ${callee('04')}`]);
    expect((await recognise(await recordedChannel(call, 1))).split(' ')).toEqual(expect.arrayContaining(['want', 'sales']));
  });

  it("relays the second party's audio to the callee, who answers it; the callee's hangup ends both legs", async () => {
    const created = await api('POST', '/v1/voice/calls', { to: callee('04'), from: FROM, agent_id: await bridgeAgent(callee('07')), record: true });
    const call = await callEnds(created.body.call_id as string, 'the bridged call to end');
    expect(call).toMatchObject({ status: 'completed', end_reason: 'callee_hangup' });
    expect(call.transcript.map((t) => `${t.speaker}: ${t.text}`)).toEqual([`agent: Bridged to ${callee('07')}`]);
    expect((await recognise(await recordedChannel(call, 0))).split(' ')).toEqual(expect.arrayContaining(['want', 'sales']));
  });

  it("relays the second party's RFC 4733 digit, written to the transcript on the agent's side", async () => {
    const created = await api('POST', '/v1/voice/calls', { to: callee('07'), from: FROM, agent_id: await bridgeAgent(callee('00')) });
    const id = created.body.call_id as string;
    await eventually(
      async () => (await api('GET', `/v1/voice/calls/${id}`)).body as unknown as CallView,
      (c) => c.transcript.some((t) => t.text === 'DTMF: 1') || !['ringing', 'in-progress'].includes(c.status),
      { what: 'the second party to press 1', timeoutMs: 30_000, intervalMs: 250 },
    );
    expect((await api('POST', `/v1/voice/calls/${id}/hangup`)).body).toMatchObject({ status: 'completed', end_reason: 'hangup_api' });
    const call = (await api('GET', `/v1/voice/calls/${id}`)).body as unknown as CallView;
    expect(call.transcript.map((t) => `${t.speaker}: ${t.text}`).slice(0, 2)).toEqual([`agent: Bridged to ${callee('00')}`, 'agent: DTMF: 1']);
  });

  it('a busy second party takes on_error with transfer_error set, and the call ends as the flow says', async () => {
    const agent = await api('POST', '/v1/voice/agents', {
      name: 'bridge to busy',
      flow: {
        start: 'connect',
        nodes: {
          connect: { type: 'transfer', mode: 'bridge', to: callee('01'), on_error: 'sorry' },
          sorry: { type: 'say', text: 'Sales is {{transfer_error}}.', next: 'bye' },
          bye: { type: 'hangup' },
        },
      },
    });
    const created = await api('POST', '/v1/voice/calls', { to: callee('05'), from: FROM, agent_id: agent.body.id });
    const call = await callEnds(created.body.call_id as string, 'the call to end');
    expect(call).toMatchObject({ status: 'completed', end_reason: 'agent_hangup' });
    expect(call.transcript.map((t) => `${t.speaker}: ${t.text}`)).toEqual([`agent: Bridge to ${callee('01')} failed (busy)`, 'agent: Sales is busy.']);

    const badMode = await api('POST', '/v1/voice/agents', {
      name: 'x',
      flow: { start: 'x', nodes: { x: { type: 'transfer', to: '+15550100', mode: 'conference' } } },
    });
    expect(badMode.status).toBe(400);
    expect(badMode.body.errors).toEqual([expect.objectContaining({ field: '/flow/nodes/x/mode' })]);
  });

  it('a graceful shutdown of the orchestrator ends a bridged call failed / orchestrator_lost before the process exits', async () => {
    const created = await api('POST', '/v1/voice/calls', { to: callee('05'), from: FROM, agent_id: await bridgeAgent(callee('05')) });
    const id = created.body.call_id as string;
    await eventually(
      async () => (await api('GET', `/v1/voice/calls/${id}`)).body as unknown as CallView,
      (c) => c.transcript.length > 0 || !['ringing', 'in-progress'].includes(c.status),
      { what: 'the bridge', timeoutMs: 30_000, intervalMs: 250 },
    );
    await stack.services['voice-orchestrator']!.kill('SIGTERM');
    // Written by the process on its way out, not by another orchestrator's sweep (none runs now).
    expect((await api('GET', `/v1/voice/calls/${id}`)).body).toMatchObject({
      status: 'failed',
      end_reason: 'orchestrator_lost',
      transcript: [expect.objectContaining({ text: `Bridged to ${callee('05')}` })],
    });
    await stack.startService('voice-orchestrator');
  });
});
