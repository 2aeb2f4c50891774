// Voice: calls carried by one orchestrator process, with the share of RTP frames sent more than 20 ms late, and the
// agent's turn latency after a DTMF answer (the digit's arrival to the reply being queued for RTP). The baseline is
// one call alone, in the same run. Calls go to carrier-sim's phones (numbers ending in 00 press 1 after a prompt).
// Then the speech turn (docs/performance.md#voice): calls to the phones ending in 04, which say "I want to speak to
// sales" after the prompt, with a speech gather; the turn is from the end of the callee's speech to the agent's
// first reply packet, read from each call's recording in media time. Baseline: one such call alone, same run.
// Usage: npm run build && node bench/voice.mjs [calls=50] [speech_calls=10]
import { createRequire } from 'node:module';
import { devstack } from './lib.mjs';
import { speechTurnMs } from './voice-turn.lib.mjs';

const require = createRequire(import.meta.url);
const calls = Number(process.argv[2] ?? 50);
const speechCalls = Number(process.argv[3] ?? 10);
const FROM = '+447911123499';

const postgres = await devstack.ensurePostgres();
const database = await devstack.createTestDatabase(postgres.url);
const redis = await devstack.startRedis();
let stack;
try {
  stack = await devstack.startStack({
    databaseUrl: database.url,
    redisUrl: redis.url,
    workers: ['voice-orchestrator'],
    gatewayEnv: { VOICE_CONCURRENT_CALLS_PER_ACCOUNT: String(calls + 10), RATE_LIMIT_PER_SECOND: '100000' },
    voiceEnv: { LOG_LEVEL: 'info', VOICE_CAPACITY: String(calls + 10) },
  });
  const { key } = await devstack.createAccountKey(database.url, { account: 'bench-voice', numbers: [{ e164: FROM, channels: ['voice'] }] });
  const api = async (method, path, body) => {
    const res = await fetch(`${stack.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
    return res.json();
  };
  const agent = await api('POST', '/v1/voice/agents', {
    name: 'bench',
    flow: {
      start: 'ask',
      nodes: {
        ask: { type: 'gather', input: 'dtmf', prompt: 'Thank you for calling the benchmark line. Press one to continue.', timeout_seconds: 10, branches: [{ match: '1', next: 'reply' }], no_input: 'bye', no_match: 'bye' },
        reply: { type: 'say', text: 'You pressed one. Goodbye.', next: 'bye' },
        bye: { type: 'hangup' },
      },
    },
  });

  const runCalls = async (n, offset) => {
    const ids = await Promise.all(
      Array.from({ length: n }, async (_, i) => (await api('POST', '/v1/voice/calls', { to: `+4479111${String(offset + i).padStart(3, '0')}00`, from: FROM, agent_id: agent.id })).call_id),
    );
    const done = await devstack.eventually(
      () => Promise.all(ids.map((id) => api('GET', `/v1/voice/calls/${id}`))),
      (list) => list.every((c) => !['ringing', 'in-progress'].includes(c.status)),
      { what: 'every call to end', timeoutMs: 180_000, intervalMs: 1000 },
    );
    const turnMs = done
      .map((c) => {
        const i = c.transcript.findIndex((t) => t.speaker === 'callee');
        return i >= 0 && c.transcript[i + 1] ? Date.parse(c.transcript[i + 1].at) - Date.parse(c.transcript[i].at) : null;
      })
      .filter((v) => v !== null)
      .sort((a, b) => a - b);
    return { ids, statuses: done.map((c) => c.status), turnMs };
  };
  const mediaOf = (ids) => {
    const lines = stack.services['voice-orchestrator'].logs().split('\n').filter((l) => l.includes('"call ended"'));
    let sent = 0;
    let late = 0;
    for (const line of lines) {
      const entry = JSON.parse(line);
      if (!ids.includes(entry.call_id)) continue;
      sent += entry.frames_sent;
      late += entry.frames_late;
    }
    return { sent, late, share: sent ? late / sent : 0 };
  };
  const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : null);
  const report = (name, run) => {
    const media = mediaOf(run.ids);
    return {
      name,
      calls: run.ids.length,
      completed: run.statuses.filter((s) => s === 'completed').length,
      frames_sent: media.sent,
      late_frame_share_pct: Number((media.share * 100).toFixed(3)),
      dtmf_turn_p50_ms: pct(run.turnMs, 50),
      dtmf_turn_p95_ms: pct(run.turnMs, 95),
    };
  };
  const baseline = report('baseline: 1 call', await runCalls(1, 0));
  const loaded = report(`${calls} concurrent calls, one orchestrator`, await runCalls(calls, 100));
  console.table([baseline, loaded]);

  const speechAgent = await api('POST', '/v1/voice/agents', {
    name: 'bench speech',
    flow: {
      start: 'ask',
      nodes: {
        ask: { type: 'gather', input: 'speech', prompt: 'Which department would you like?', timeout_seconds: 10, branches: [{ match: 'sales', next: 'sales' }, { match: 'support', next: 'bye' }], no_input: 'bye', no_match: 'bye' },
        sales: { type: 'say', text: 'Connecting you to sales.', next: 'bye' },
        bye: { type: 'hangup' },
      },
    },
  });
  const speechRun = async (name, n, offset) => {
    const ids = await Promise.all(
      Array.from({ length: n }, async (_, i) => (await api('POST', '/v1/voice/calls', { to: `+4479111${String(offset + i).padStart(3, '0')}04`, from: FROM, agent_id: speechAgent.id, record: true })).call_id),
    );
    const done = await devstack.eventually(
      () => Promise.all(ids.map((id) => api('GET', `/v1/voice/calls/${id}`))),
      (list) => list.every((c) => !['ringing', 'in-progress'].includes(c.status) && c.recording),
      { what: 'every speech call to end with its recording', timeoutMs: 240_000, intervalMs: 1000 },
    );
    const turns = [];
    for (const id of ids) {
      const res = await fetch(`${stack.baseUrl}/v1/voice/calls/${id}/recording`, { headers: { authorization: `Bearer ${key}` } });
      const turn = res.ok ? speechTurnMs(Buffer.from(await res.arrayBuffer())) : null;
      if (turn !== null) turns.push(turn);
    }
    turns.sort((a, b) => a - b);
    return {
      name,
      calls: n,
      routed_to_sales: done.filter((c) => c.transcript.some((t) => t.text === 'Connecting you to sales.')).length,
      turns_measured: turns.length,
      speech_turn_p50_ms: pct(turns, 50),
      speech_turn_p95_ms: pct(turns, 95),
    };
  };
  const speechBaseline = await speechRun('baseline: 1 speech call', 1, 300);
  const speechLoaded = await speechRun(`${speechCalls} concurrent speech calls`, speechCalls, 400);
  console.table([speechBaseline, speechLoaded]);
} finally {
  await stack?.stop();
  await redis.stop();
  await database.drop();
  await postgres.stop();
}
