// Voice, bridged transfers (docs/voice-agents.md#bridged-transfer): N calls each bridged to a second leg by one orchestrator
// process, so the process carries 2N legs and relays every 20 ms frame between each pair. Reported: the share of the
// callee legs' RTP frames sent more than 20 ms late (relayed audio goes through the same paced sender), and how many
// bridges carried audio both ways to the end (the second party, a phone ending in 04, only speaks and then hangs up
// after hearing the callee's voicemail greeting relayed to it). The baseline is one bridged call alone, same run.
// Usage: npm run build && node bench/voice-bridge.mjs [bridged_calls=10]
import { devstack } from './lib.mjs';

const calls = Number(process.argv[2] ?? 10);
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
    voiceEnv: { LOG_LEVEL: 'info', VOICE_CAPACITY: String(2 * calls + 10) },
  });
  const { key } = await devstack.createAccountKey(database.url, { account: 'bench-voice-bridge', numbers: [{ e164: FROM, channels: ['voice'] }] });
  const api = async (method, path, body) => {
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    return res.json();
  };
  const agentFor = async (to) =>
    (
      await api('POST', '/v1/voice/agents', {
        name: `bridge ${to}`,
        flow: { start: 'b', nodes: { b: { type: 'transfer', mode: 'bridge', to, timeout_seconds: 20 } } },
      })
    ).id;

  const run = async (name, n, offset) => {
    const ids = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const agentId = await agentFor(`+4479111${String(offset + i).padStart(3, '0')}04`);
        return (await api('POST', '/v1/voice/calls', { to: `+4479111${String(offset + i).padStart(3, '0')}07`, from: FROM, agent_id: agentId })).call_id;
      }),
    );
    const done = await devstack.eventually(
      () => Promise.all(ids.map((id) => api('GET', `/v1/voice/calls/${id}`))),
      (list) => list.every((c) => !['ringing', 'in-progress'].includes(c.status)),
      { what: 'every bridged call to end', timeoutMs: 180_000, intervalMs: 1000 },
    );
    const lines = stack.services['voice-orchestrator']
      .logs()
      .split('\n')
      .filter((l) => l.includes('"call ended"'));
    let sent = 0;
    let late = 0;
    for (const line of lines) {
      const entry = JSON.parse(line);
      if (!ids.includes(entry.call_id)) continue;
      sent += entry.frames_sent;
      late += entry.frames_late;
    }
    return {
      name,
      calls: n,
      legs: 2 * n,
      // `completed` is the end reason when the second party hung up: it heard the relayed greeting and answered it.
      bridged_both_ways: done.filter((c) => c.end_reason === 'completed' && c.transcript.some((t) => t.text.startsWith('Bridged to'))).length,
      end_reasons: Object.entries(done.reduce((acc, c) => ({ ...acc, [c.end_reason]: (acc[c.end_reason] ?? 0) + 1 }), {}))
        .map(([r, k]) => `${r}:${k}`)
        .join(' '),
      frames_sent: sent,
      late_frame_share_pct: Number((sent ? (late / sent) * 100 : 0).toFixed(3)),
    };
  };
  console.table([await run('baseline: 1 bridged call', 1, 0), await run(`${calls} bridged calls, one orchestrator`, calls, 100)]);
} finally {
  await stack?.stop();
  await redis.stop();
  await database.drop();
  await postgres.stop();
}
