import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createAccountKey, createTestDatabase, eventually, startStack, type Stack, type TestDatabase } from '@switchboard/devstack';
import { readWav } from '../packages/telephony/test/support/wav.reader';
import { callee, FROM, type CallView } from './support/voice-calls';
import { TEST_REDIS_URL } from './webhooks-harness';

// Full-duplex listening over real SIP and RTP (docs/voice-agents.md#full-duplex-listening), against the simulator's
// phones that talk over the agent: 10 says "I want to speak to sales" 1 s into the agent's greeting; 11 says
// "uh-huh" 1 s into it and "I want to speak to sales" 3 s later. The greeting is a `say`, followed by a speech
// gather, or an `llm` node: what the callee said over the agent must route the call.
const LONG_GREETING =
  'Thank you for calling the Switchboard demonstration line where we will now read you a very long list of all the departments and all the opening hours and all the ways in which you can reach every one of our friendly teams today';

const FRAME = 160;
const LEVEL = 300; // mean absolute amplitude of a speech frame, as the orchestrator's speech detector uses

function loudFrames(samples: Int16Array, channel: number): boolean[] {
  const frames: boolean[] = [];
  for (let f = 0; f < Math.floor(samples.length / 2 / FRAME); f += 1) {
    let sum = 0;
    for (let i = 0; i < FRAME; i += 1) sum += Math.abs(samples[(f * FRAME + i) * 2 + channel]);
    frames.push(sum / FRAME > LEVEL);
  }
  return frames;
}

/** The first frame of each run of 5 loud frames that follows at least `gap` quiet ones: where speech starts. */
function onsets(frames: boolean[], gap: number): number[] {
  const found: number[] = [];
  let quiet = gap;
  for (let i = 0; i + 5 <= frames.length; i += 1) {
    if (!frames[i]) {
      quiet += 1;
      continue;
    }
    if (quiet >= gap && frames.slice(i, i + 5).every(Boolean)) found.push(i);
    quiet = 0;
  }
  return found;
}

describe('full-duplex listening: a callee who talks over the agent', () => {
  let dir: string;
  let database: TestDatabase;
  let stack: Stack;
  let key: string;

  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const flow = {
    start: 'greet',
    nodes: {
      greet: { type: 'say', text: LONG_GREETING, next: 'ask' },
      ask: {
        type: 'gather',
        input: 'speech',
        prompt: 'Which department would you like?',
        timeout_seconds: 8,
        branches: [
          { match: 'sales', next: 'sales' },
          { match: 'support', next: 'support' },
        ],
        no_input: 'silent',
        no_match: 'silent',
      },
      sales: { type: 'say', text: 'Connecting you to sales.', next: 'bye' },
      support: { type: 'say', text: 'Connecting you to support.', next: 'bye' },
      silent: { type: 'say', text: 'I did not hear you.', next: 'bye' },
      bye: { type: 'hangup' },
    },
  };
  const call = async (phone: string) => {
    const agent = (await (await api('POST', '/v1/voice/agents', { name: `talks over ${phone}`, flow })).json()) as { id: string };
    const created = (await (await api('POST', '/v1/voice/calls', { to: callee(phone), from: FROM, agent_id: agent.id, record: true })).json()) as {
      call_id: string;
    };
    return eventually(
      async () => (await (await api('GET', `/v1/voice/calls/${created.call_id}`)).json()) as CallView & { transcript: Array<{ interrupted?: boolean }> },
      (c) => !['ringing', 'in-progress'].includes(c.status) && c.recording !== null,
      { what: 'the call to end with its recording', timeoutMs: 60_000, intervalMs: 250 },
    );
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sb-voice-duplex-'));
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: TEST_REDIS_URL,
      prefix: `sbvd${randomBytes(4).toString('hex')}`,
      workers: ['voice-orchestrator'],
    });
    ({ key } = await createAccountKey(database.url, { account: 'voice-duplex-e2e', scopes: ['*'], numbers: [{ e164: FROM, channels: ['voice'] }] }));
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('routes a callee by what it said during the greeting, and marks the greeting interrupted', async () => {
    const ended = await call('10');
    expect(ended.status).toBe('completed');
    const turns = ended.transcript.map((t) => ({ speaker: t.speaker, text: t.text, interrupted: t.interrupted ?? false }));
    expect(turns[0]).toEqual({ speaker: 'agent', text: LONG_GREETING, interrupted: true });
    // The answer was given before the gather asked: its prompt is not played over it.
    expect(turns[1].speaker).toBe('callee');
    expect(turns[1].text).toMatch(/\bsales\b/);
    expect(turns[2]).toEqual({ speaker: 'agent', text: 'Connecting you to sales.', interrupted: false });
  });

  it('stops an llm reply the callee talks over, marks the sentence it cut, and answers what was said', async () => {
    const agent = (await (
      await api('POST', '/v1/voice/agents', {
        name: 'llm talked over',
        llm: { model: 'sim-llm' },
        flow: {
          start: 'talk',
          nodes: {
            talk: {
              type: 'llm',
              system_prompt: 'You are the front desk.',
              goal: 'Find out whether the caller wants sales or support.',
              max_turns: 3,
              expected_phrases: ['sales', 'support'],
              next: 'done',
            },
            done: { type: 'say', text: 'Transferring to {{llm_result.department}}.', next: 'bye' },
            bye: { type: 'hangup' },
          },
        },
      })
    ).json()) as { id: string };
    const created = (await (await api('POST', '/v1/voice/calls', { to: callee('10'), from: FROM, agent_id: agent.id })).json()) as { call_id: string };
    const ended = await eventually(
      async () => (await (await api('GET', `/v1/voice/calls/${created.call_id}`)).json()) as CallView & { transcript: Array<{ interrupted?: boolean }> },
      (c) => !['ringing', 'in-progress'].includes(c.status),
      { what: 'the llm call to end', timeoutMs: 60_000, intervalMs: 250 },
    );
    const answer = ended.transcript.findIndex((t) => t.speaker === 'callee');
    expect(answer).toBeGreaterThan(0);
    // The stand-in's greeting is three sentences; "Hello!" is over before the callee starts, the sentence the
    // callee talked over is marked, and the reply to the callee's words comes after them.
    const greeting = ended.transcript.slice(0, answer);
    expect(greeting[0]).toMatchObject({ speaker: 'agent', text: 'Hello!' });
    expect(greeting[0].interrupted).toBeUndefined();
    expect(greeting[greeting.length - 1].interrupted).toBe(true);
    expect(ended.transcript[answer].text).toMatch(/\bsales\b/);
    expect(ended.transcript.slice(answer + 1).map((t) => `${t.text}${t.interrupted ? ' (interrupted)' : ''}`)).toEqual([
      'Certainly.',
      'Connecting you to sales.',
      'Transferring to sales.',
    ]);
  });

  it('lets a backchannel pass under a long say, then stops the say for the answer', async () => {
    const ended = await call('11');
    expect(ended.status).toBe('completed');
    expect(ended.transcript.map((t) => `${t.speaker}: ${t.text}${t.interrupted ? ' (interrupted)' : ''}`)).toEqual([
      `agent: ${LONG_GREETING} (interrupted)`,
      expect.stringMatching(/^callee: .*\bsales\b/),
      'agent: Connecting you to sales.',
    ]);

    // In the recording (callee left, agent right, 20 ms slots from the answer): the agent talks on for a second
    // after the "uh-huh" began, and goes quiet soon after the answer began.
    const wavPath = join(dir, 'recording-11.wav');
    writeFileSync(wavPath, Buffer.from(await (await api('GET', `/v1/voice/calls/${ended.call_id}/recording`)).arrayBuffer()));
    const wav = readWav(wavPath);
    const calleeSpeech = onsets(loudFrames(wav.samples, 0), 25);
    const agentTrack = loudFrames(wav.samples, 1);
    expect(calleeSpeech.length).toBeGreaterThanOrEqual(2);
    const [uhHuh, answer] = calleeSpeech;
    expect(agentTrack.slice(uhHuh + 25, uhHuh + 50).some(Boolean)).toBe(true);
    expect(agentTrack.slice(answer, answer + 20).some(Boolean)).toBe(true);
    // The greeting stops once the answer has 400 ms of speech (20 frames), plus the detector's slack; a run of 25
    // quiet frames on the agent's channel starts within 40 frames of the answer's onset.
    let stop = answer;
    while (stop < agentTrack.length && agentTrack.slice(stop, stop + 25).some(Boolean)) stop += 1;
    expect(stop - answer).toBeLessThanOrEqual(40);
  });
});
