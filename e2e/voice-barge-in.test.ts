import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createAccountKey, createTestDatabase, eventually, startStack, type Stack, type TestDatabase } from '@switchboard/devstack';
import { startBaresip, type BaresipProcess } from '../packages/telephony/test/support/baresip.process';
import { readWav } from '../packages/telephony/test/support/wav.reader';
import { TEST_REDIS_URL } from './webhooks-harness';
import { FROM } from './support/voice-calls';

// Barge-in measured in media time (docs/voice-agents.md#barge-in-check): baresip, a real SIP peer, answers and plays a WAV
// that is silent for 3 s and then says "I want to speak to sales" while the agent is still reading a long prompt.
// The call's stereo recording (callee left, agent right, 20 ms slots from the answer) must show the agent's
// channel going quiet within 10 frames (200 ms) of the callee's speech onset. Frame counts, not wall-clock time.
const TO = '+447911123456';
// One run-on sentence: flite leaves no pause in it as long as the silence that marks the end of the agent's audio.
const LONG_PROMPT =
  'Thank you for calling the Switchboard demonstration line where we will now read you a very long list of all the departments and all the opening hours and all the ways in which you can reach every one of our friendly teams today';

const FRAME = 160;
const LEVEL = 300; // mean absolute amplitude of a speech frame, as the orchestrator's speech detector uses
/** A run of this many quiet agent frames is the end of its audio (longer than any gap between flite's words). */
const QUIET_RUN = 25;

function loudFrames(samples: Int16Array, channels: number, channel: number): boolean[] {
  const frames: boolean[] = [];
  const count = Math.floor(samples.length / channels / FRAME);
  for (let f = 0; f < count; f += 1) {
    let sum = 0;
    for (let i = 0; i < FRAME; i += 1) sum += Math.abs(samples[(f * FRAME + i) * channels + channel]);
    frames.push(sum / FRAME > LEVEL);
  }
  return frames;
}

describe('barge-in, checked in the recording', () => {
  let dir: string;
  let database: TestDatabase;
  let baresip: BaresipProcess;
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sb-voice-barge-'));
    const raw = join(dir, 'callee-flite.wav');
    execFileSync('flite', ['-t', 'I want to speak to sales', '-o', raw]);
    const source = join(dir, 'callee-8k.wav');
    execFileSync('sox', [raw, '-r', '8000', '-c', '1', '-b', '16', '-e', 'signed-integer', source, 'pad', '3', '60']);
    baresip = await startBaresip({ sourceWav: source, user: TO });
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: TEST_REDIS_URL,
      prefix: `sbvi${randomBytes(4).toString('hex')}`,
      workers: ['voice-orchestrator'],
      voiceEnv: { VOICE_SIP_TRUNK: `sip:127.0.0.1:${baresip.sipPort}` },
    });
    ({ key } = await createAccountKey(database.url, { account: 'voice-barge', mode: 'live', scopes: ['*'], numbers: [{ e164: FROM, channels: ['voice'] }] }));
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await baresip?.stop();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("stops the agent's prompt within 10 frames of the callee's speech onset", async () => {
    const api = async (method: string, path: string, body?: unknown) =>
      fetch(`${stack.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body && JSON.stringify(body),
      });
    const agent = (await (
      await api('POST', '/v1/voice/agents', {
        name: 'long prompt',
        flow: {
          start: 'ask',
          nodes: {
            ask: {
              type: 'gather',
              input: 'speech',
              prompt: LONG_PROMPT,
              timeout_seconds: 10,
              branches: [{ match: 'sales', next: 'sales' }],
              no_input: 'bye',
              no_match: 'bye',
            },
            sales: { type: 'say', text: 'Connecting you to sales.', next: 'bye' },
            bye: { type: 'hangup' },
          },
        },
      })
    ).json()) as { id: string };
    const created = (await (await api('POST', '/v1/voice/calls', { to: TO, from: FROM, agent_id: agent.id, record: true })).json()) as { call_id: string };
    const call = await eventually(
      async () =>
        (await (await api('GET', `/v1/voice/calls/${created.call_id}`)).json()) as {
          status: string;
          transcript: Array<{ speaker: string; text: string }>;
          recording: unknown;
        },
      (c) => !['ringing', 'in-progress'].includes(c.status) && c.recording !== null,
      { what: 'the call to end with its recording', timeoutMs: 60_000 },
    );
    expect(call.transcript.map((t) => t.speaker)).toEqual(['agent', 'callee', 'agent']);
    expect(call.transcript[2].text).toBe('Connecting you to sales.');

    const wavPath = join(dir, 'recording.wav');
    writeFileSync(wavPath, Buffer.from(await (await api('GET', `/v1/voice/calls/${created.call_id}/recording`)).arrayBuffer()));
    const wav = readWav(wavPath);
    expect(wav.channels).toBe(2);
    const callee = loudFrames(wav.samples, 2, 0);
    const agentTrack = loudFrames(wav.samples, 2, 1);

    // Onset: the first frame of the callee's first run of 5 loud frames (what the detector needs to call it speech).
    const onset = callee.findIndex((_, i) => callee.slice(i, i + 5).length === 5 && callee.slice(i, i + 5).every(Boolean));
    expect(onset).toBeGreaterThan(0);
    // The agent was speaking when the callee started: loud agent frames just before the onset.
    expect(agentTrack.slice(Math.max(0, onset - 25), onset).some(Boolean)).toBe(true);
    // The end of the prompt: the first frame after the onset that starts a long quiet run on the agent's channel.
    let stop = onset;
    while (stop < agentTrack.length && agentTrack.slice(stop, stop + QUIET_RUN).some(Boolean)) stop += 1;
    expect(stop - onset).toBeLessThanOrEqual(10);
    // The unclipped prompt would have gone on much longer: it is far longer than the 3 s of lead-in.
    expect(agentTrack.slice(0, onset).filter(Boolean).length).toBeGreaterThan(25);
  });
});
