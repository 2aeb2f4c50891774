import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeMulaw } from '@switchboard/telephony';
import { createAccountKey, createTestDatabase, eventually, startStack, type Stack, type TestDatabase } from '@switchboard/devstack';
import { readWav } from '../packages/telephony/test/support/wav.reader';
import { callee, FROM, type CallView } from './support/voice-calls';
import { TEST_REDIS_URL } from './webhooks-harness';

// Speech gathers against the carrier simulator's phones that speak espeak-ng rather than flite, over real SIP and
// RTP (docs/voice-recognition.md): 08 says "I would like to talk to billing please" (en-us), 09 says "what time do
// you close today" (en-gb), which no branch should take. A call's `metadata.sim_caller_voice` picks the voice of
// any speaking phone.
describe('speech recognition of callers in other voices', () => {
  let database: TestDatabase;
  let stack: Stack;
  let key: string;

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const callEnds = (id: string, recorded = false) =>
    eventually(
      async () => (await api('GET', `/v1/voice/calls/${id}`)).body as unknown as CallView,
      (c) => !['ringing', 'in-progress'].includes(c.status) && (!recorded || c.recording !== null),
      { what: 'the speech call to end', timeoutMs: 60_000, intervalMs: 250 },
    );
  const menu = {
    name: 'departments',
    flow: {
      start: 'ask',
      nodes: {
        ask: {
          type: 'gather',
          input: 'speech',
          recognition: 'keywords',
          prompt: 'Which department would you like?',
          timeout_seconds: 8,
          branches: [
            { match: 'sales', phrases: ['purchase', 'order'], next: 'sales' },
            { match: 'support', phrases: ['technical problem', 'not working'], next: 'support' },
            { match: 'billing', phrases: ['invoice', 'payment'], next: 'billing' },
          ],
          no_input: 'silent',
          no_match: 'unknown',
        },
        sales: { type: 'say', text: 'Connecting you to sales.', next: 'bye' },
        support: { type: 'say', text: 'Connecting you to support.', next: 'bye' },
        billing: { type: 'say', text: 'Connecting you to billing.', next: 'bye' },
        unknown: { type: 'say', text: 'Sorry, I did not understand.', next: 'bye' },
        silent: { type: 'say', text: 'I did not hear you.', next: 'bye' },
        bye: { type: 'hangup' },
      },
    },
  };
  const placeCall = async (phone: string, extra: Record<string, unknown> = {}) => {
    const agent = await api('POST', '/v1/voice/agents', menu);
    expect(agent.status).toBe(201);
    const created = await api('POST', '/v1/voice/calls', { to: callee(phone), from: FROM, agent_id: agent.body.id, ...extra });
    const call = await callEnds(created.body.call_id as string, extra.record === true);
    expect(call.status).toBe('completed');
    return call;
  };
  const agentReplies = async (phone: string) => (await placeCall(phone)).transcript.map((t) => `${t.speaker}: ${t.text}`);

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: TEST_REDIS_URL,
      prefix: `sbvr${randomBytes(4).toString('hex')}`,
      workers: ['voice-orchestrator'],
    });
    ({ key } = await createAccountKey(database.url, { account: 'voice-recognition-e2e', scopes: ['*'], numbers: [{ e164: FROM, channels: ['voice'] }] }));
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await database?.drop();
  });

  it('routes a callee speaking espeak-ng by a speech gather', async () => {
    const turns = await agentReplies('08');
    expect(turns[0]).toBe('agent: Which department would you like?');
    expect(turns[1]).toMatch(/^callee: .*\bbilling\b/);
    expect(turns[2]).toBe('agent: Connecting you to billing.');
  });

  it("speaks in the voice the call's metadata asks for", async () => {
    // How many 20 ms frames of the phrase are speech (the orchestrator's level), as a voice renders it for a phone.
    const speechFrames = (samples: ArrayLike<number>, step = 1, offset = 0) => {
      let frames = 0;
      for (let f = 0; (f + 1) * 160 * step <= samples.length; f += 1) {
        let sum = 0;
        for (let i = 0; i < 160; i += 1) sum += Math.abs(samples[(f * 160 + i) * step + offset]);
        if (sum / 160 > 300) frames += 1;
      }
      return frames;
    };
    const dir = mkdtempSync(join(tmpdir(), 'sb-sim-voice-'));
    try {
      const rendered = (engine: string, voice: string) => {
        const wav = join(dir, `${voice}.wav`);
        if (engine === 'flite') execFileSync('flite', ['-voice', voice, '-t', 'I want to speak to sales', '-o', wav]);
        else execFileSync('espeak-ng', ['-v', voice, '-w', wav, 'I want to speak to sales']);
        execFileSync('sox', [wav, '-r', '8000', '-c', '1', '-e', 'mu-law', '-t', 'raw', join(dir, `${voice}.ul`)]);
        return speechFrames(decodeMulaw(readFileSync(join(dir, `${voice}.ul`))));
      };
      const asked = rendered('espeak', 'en-gb-scotland+m3');
      const own = rendered('flite', 'rms');
      expect(Math.abs(asked - own)).toBeGreaterThan(10); // the two voices can be told apart by this measure

      const call = await placeCall('04', { record: true, metadata: { sim_caller_voice: 'espeak:en-gb-scotland+m3' } });
      expect(call.transcript[1].speaker).toBe('callee');
      const recording = await fetch(`${stack.baseUrl}/v1/voice/calls/${call.call_id}/recording`, { headers: { authorization: `Bearer ${key}` } });
      writeFileSync(join(dir, 'call.wav'), Buffer.from(await recording.arrayBuffer()));
      const heard = speechFrames(readWav(join(dir, 'call.wav')).samples, 2, 0); // the callee's (left) channel
      expect(Math.abs(heard - asked)).toBeLessThanOrEqual(5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ends a phrase outside the grammar in no_match', async () => {
    const turns = await agentReplies('09');
    expect(turns[0]).toBe('agent: Which department would you like?');
    // Speech was heard (not no_input), and none of the branches took it.
    expect(turns[1]).toBe('callee: (not understood)');
    expect(turns[2]).toBe('agent: Sorry, I did not understand.');
  });
});
