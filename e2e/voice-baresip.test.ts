import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createAccountKey, createTestDatabase, eventually, startStack, type Stack, type TestDatabase } from '@switchboard/devstack';
import { encodeMulaw } from '@switchboard/telephony';
import { startBaresip, type BaresipProcess } from '../packages/telephony/test/support/baresip.process';
import { makeSpeech } from '../packages/telephony/test/support/speech.fixture';
import { readWav } from '../packages/telephony/test/support/wav.reader';
import { createPocketsphinxRecognizer } from '../services/voice-orchestrator/src/speech/pocketsphinx-stt';
import { TEST_REDIS_URL } from './webhooks-harness';
import { FROM } from './support/voice-calls';

// A live key's call through the configured SIP trunk, which here is baresip: a real third-party SIP user agent
// that auto-answers, records what it hears, and sends DTMF when told to over ctrl_tcp.
const TO = '+447911123456';
const PROMPT = 'Press five for billing.';

describe('a voice agent calling baresip through the live SIP trunk', () => {
  let dir: string;
  let database: TestDatabase;
  let baresip: BaresipProcess;
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sb-voice-baresip-'));
    baresip = await startBaresip({
      sourceWav: makeSpeech(dir, 'callee', 'Hello?', 90).paddedWavPath,
      user: TO,
    });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: TEST_REDIS_URL,
      prefix: `sbvb${randomBytes(4).toString('hex')}`,
      workers: ['voice-orchestrator'],
      voiceEnv: { VOICE_SIP_TRUNK: `sip:127.0.0.1:${baresip.sipPort}` },
    });
    ({ key } = await createAccountKey(database.url, { account: 'voice-baresip', mode: 'live', scopes: ['*'], numbers: [{ e164: FROM, channels: ['voice'] }] }));
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await baresip?.stop();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("speaks a prompt that baresip's recording carries, and routes on the digit baresip sends", async () => {
    const api = async (method: string, path: string, body?: unknown) =>
      (
        await fetch(`${stack.baseUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: body && JSON.stringify(body),
        })
      ).json() as Promise<Record<string, unknown>>;
    const agent = await api('POST', '/v1/voice/agents', {
      name: 'billing line',
      flow: {
        start: 'menu',
        nodes: {
          menu: {
            type: 'gather',
            input: 'dtmf',
            prompt: PROMPT,
            timeout_seconds: 20,
            branches: [{ match: '5', next: 'billing' }],
            no_input: 'bye',
            no_match: 'bye',
          },
          billing: { type: 'say', text: 'You chose billing.', next: 'bye' },
          bye: { type: 'hangup' },
        },
      },
    });
    const created = await api('POST', '/v1/voice/calls', { to: TO, from: FROM, agent_id: agent.id });
    // Once the prompt has been spoken (its transcript turn is written as it starts playing), press 5.
    await eventually(
      () => api('GET', `/v1/voice/calls/${String(created.call_id)}`),
      (c) => (c.transcript as unknown[]).length >= 1 || !['ringing', 'in-progress'].includes(c.status as string),
      { what: 'the prompt', timeoutMs: 30_000 },
    );
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await api('GET', `/v1/voice/calls/${String(created.call_id)}`)).toMatchObject({ status: 'in-progress', end_reason: null });
    await expect(baresip.command('sndcode', '5')).resolves.toMatchObject({ ok: true });
    const call = await eventually(
      () => api('GET', `/v1/voice/calls/${String(created.call_id)}`),
      (c) => c.status !== 'ringing' && c.status !== 'in-progress',
      { what: 'the call to end', timeoutMs: 60_000 },
    );
    expect(call).toMatchObject({ status: 'completed', end_reason: 'agent_hangup' });
    expect((call.transcript as Array<{ text: string }>).map((t) => t.text)).toEqual([PROMPT, 'DTMF: 5', 'You chose billing.']);

    const recording = await eventually(
      async () => readdirSync(baresip.recordingsDir).find((name) => name.endsWith('-dec.wav')),
      (name) => name !== undefined,
      { what: "baresip's recording", timeoutMs: 10_000 },
    );
    const heard = await createPocketsphinxRecognizer().recognize(encodeMulaw(readWav(join(baresip.recordingsDir, recording!)).samples), [
      PROMPT,
      'You chose billing.',
    ]);
    // Both prompts, recognised from what baresip recorded (the first word may fall before its recording starts).
    expect(heard.split(' ')).toEqual(expect.arrayContaining(['five', 'billing', 'chose']));
  });
});
