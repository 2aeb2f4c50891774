import { randomBytes } from 'node:crypto';
import { createAccountKey, createTestDatabase, eventually, startStack, type ServiceProcess, type Stack, type TestDatabase } from '@switchboard/devstack';
import { encodeMulaw } from '@switchboard/telephony';
import { createPocketsphinxRecognizer } from '../services/voice-orchestrator/src/speech/pocketsphinx-stt';
import { callee, FROM, type CallView } from './support/voice-calls';
import { TEST_REDIS_URL } from './webhooks-harness';

// The orchestrator with its remote speech providers (docs/voice-agents.md#remote-speech-providers) pointed at the carrier
// simulator's OpenAI-compatible /v1/audio/speech and /v1/audio/transcriptions: every prompt is synthesised and every
// callee utterance transcribed over HTTP, on a real SIP/RTP call to the simulator's phones.
const PROMPT = 'Which department would you like?';
// "sales" ends the call at once rather than waiting for a reply's synthesis: the 04 callee hangs up 6 s after
// speaking, which a loaded machine can miss.
const SPEECH_AGENT = {
  name: 'remote speech',
  flow: {
    start: 'ask',
    nodes: {
      ask: {
        type: 'gather',
        input: 'speech',
        prompt: PROMPT,
        timeout_seconds: 8,
        branches: [
          { match: 'sales', next: 'end' },
          { match: 'support', next: 'support' },
        ],
        no_input: 'sorry',
        no_match: 'sorry',
      },
      support: { type: 'say', text: 'Connecting you to support.', next: 'end' },
      sorry: { type: 'say', text: 'Sorry, I did not catch that.', next: 'end' },
      end: { type: 'hangup' },
    },
  },
};

/**
 * The agent's channel (right) of a stereo call recording, with each silence cut to 0.5 s: pocketsphinx's continuous
 * decoder loses words after the seconds of silence in which the callee speaks.
 */
function agentSpeech(wav: Buffer): Int16Array {
  const kept: number[] = [];
  let silentFrames = 0;
  for (let frame = 44; frame + 160 * 4 <= wav.length; frame += 160 * 4) {
    const samples = Array.from({ length: 160 }, (_, i) => wav.readInt16LE(frame + i * 4 + 2));
    const level = samples.reduce((sum, s) => sum + Math.abs(s), 0) / 160;
    silentFrames = level > 50 ? 0 : silentFrames + 1;
    if (silentFrames <= 25) kept.push(...samples);
  }
  return Int16Array.from(kept);
}

describe('voice calls with remote TTS and STT providers', () => {
  let database: TestDatabase;
  let stack: Stack;
  let key: string;
  let orchestrator: ServiceProcess;
  // The stand-ins fail on purpose for the model `sim-fault-500`, as the LLM stand-in does.
  const remoteSpeech = ({ ttsModel = 'tts-1', sttModel = 'whisper-1' } = {}) => {
    const server = new URL(stack.simUrl);
    return {
      VOICE_TTS: `${server.protocol}//:sk-sim-tts@${server.host}?model=${ttsModel}&voice=alloy`,
      VOICE_STT: `${stack.simUrl}?model=${sttModel}`,
    };
  };
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.headers.get('content-type')?.includes('json') ? ((await res.json()) as Record<string, unknown>) : Buffer.from(await res.arrayBuffer());
  };
  const callEnds = (id: string, what: string) =>
    eventually(
      async () => (await api('GET', `/v1/voice/calls/${id}`)) as unknown as CallView,
      (c) => !['ringing', 'in-progress'].includes(c.status),
      { what, timeoutMs: 60_000, intervalMs: 250 },
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({ databaseUrl: database.url, redisUrl: TEST_REDIS_URL, prefix: `sbvr${randomBytes(4).toString('hex')}`, workers: [] });
    orchestrator = await stack.startService('voice-orchestrator', remoteSpeech());
    ({ key } = await createAccountKey(database.url, { account: 'voice-remote', scopes: ['*'], numbers: [{ e164: FROM, channels: ['voice'] }] }));
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await database?.drop();
  });

  it('speaks the prompt through the remote TTS and routes the 04 callee ("I want to speak to sales") through the remote STT', async () => {
    const agent = await api('POST', '/v1/voice/agents', SPEECH_AGENT);
    const created = await api('POST', '/v1/voice/calls', { to: callee('04'), from: FROM, agent_id: agent.id, record: true });
    const call = await callEnds(created.call_id as string, 'the remote speech call to end');
    const turns = call.transcript.map((t) => `${t.speaker}: ${t.text}`);
    expect(turns).toEqual([`agent: ${PROMPT}`, expect.stringMatching(/^callee: .*\bsales\b/)]);
    expect(call.status).toBe('completed');
    // On a loaded machine the callee's own hang-up (6 s after it spoke) can come before ours, as in voice-calls.test.ts.
    expect(['agent_hangup', 'callee_hangup']).toContain(call.end_reason);

    const withRecording = await eventually(
      async () => (await api('GET', `/v1/voice/calls/${call.call_id}`)) as unknown as CallView,
      (c) => c.recording !== null,
      { what: 'the recording', timeoutMs: 30_000 },
    );
    const wav = (await api('GET', withRecording.recording!.url)) as Buffer;
    // The agent's channel of the call recording, recognised by the local pocketsphinx as the other tests do.
    const heard = await createPocketsphinxRecognizer().recognize(encodeMulaw(agentSpeech(wav)), [PROMPT]);
    expect(heard.split(' ')).toEqual(expect.arrayContaining(['department', 'like']));
  });

  it('ends the flow with a hangup when a provider fails: STT after the prompt, TTS before anything is said', async () => {
    const callWith = async (env: { ttsModel?: string; sttModel?: string }) => {
      await orchestrator.stop();
      orchestrator = await stack.startService('voice-orchestrator', remoteSpeech(env));
      const agent = await api('POST', '/v1/voice/agents', SPEECH_AGENT);
      const created = await api('POST', '/v1/voice/calls', { to: callee('04'), from: FROM, agent_id: agent.id });
      return callEnds(created.call_id as string, `the call with ${JSON.stringify(env)} to end`);
    };
    const sttFails = await callWith({ sttModel: 'sim-fault-500' });
    expect(sttFails).toMatchObject({ status: 'completed', end_reason: 'agent_hangup' });
    expect(sttFails.transcript.map((t) => t.text)).toEqual([PROMPT]);
    const ttsFails = await callWith({ ttsModel: 'sim-fault-500' });
    expect(ttsFails).toMatchObject({ status: 'completed', end_reason: 'agent_hangup' });
    expect(ttsFails.transcript).toEqual([]);
  });
});
