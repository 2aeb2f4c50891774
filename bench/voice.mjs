// Voice (docs/performance/voice.md#voice), two parts, each beside a baseline from the same run.
// 1. Concurrency: calls carried by one orchestrator process whose trunk points at SIPp (sip-tester) answering
//    every call and echoing its RTP (-rtp_echo). Each call hears a prompt, waits for a digit that never comes,
//    hears a goodbye and is hung up. Reports the share of RTP frames our paced sender sent more than 20 ms late,
//    p50/p95/max frame lateness, and the orchestrator's CPU time and peak RSS. Baseline: one call alone.
// 2. Speech turn: a second orchestrator pointed at carrier-sim, calls to the phones ending in 04, which say "I want
//    to speak to sales" after the prompt, with a speech gather; the turn is from the end of the callee's speech to
//    the agent's first reply packet, read from each call's recording in media time, and the orchestrator's
//    "speech turn" log lines give its parts. Baseline: one such call alone.
// 3. End of turn (docs/voice-agents.md#end-of-turn): the same turn, calls to the 04 and 08 phones 2 s apart, with a
//    keywords gather (ends at a pause whose words take a branch) beside a grammar gather (waits out the 400 ms of
//    silence) as the baseline; reports turn p50/p95 and the share of turns whose reply began inside the callee's
//    sentence. Skipped with turn_calls=0.
// Usage: npm run build && node bench/voice.mjs [calls=50] [speech_calls=10] [turn_calls=10]
import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { devstack } from './lib.mjs';
import { histogramPercentile, processUsage, startSippEcho } from './voice-sipp.lib.mjs';
import { cutOffInsideSentence, speechTurnMs } from './voice-turn.lib.mjs';

const calls = Number(process.argv[2] ?? 50);
const speechCalls = Number(process.argv[3] ?? 10);
const turnCalls = Number(process.argv[4] ?? 10);
const FROM = '+447911123499';
const loadAverage = () =>
  execSync('uptime')
    .toString()
    .trim()
    .replace(/.*load average: /, '');

devstack.ensureVoiceTools();
const postgres = await devstack.ensurePostgres();
const database = await devstack.createTestDatabase(postgres.url);
const redis = await devstack.startRedis();
let stack;
let sipp;
try {
  stack = await devstack.startStack({
    databaseUrl: database.url,
    redisUrl: redis.url,
    workers: [],
    gatewayEnv: { VOICE_CONCURRENT_CALLS_PER_ACCOUNT: String(calls + 10), RATE_LIMIT_PER_SECOND: '100000' },
    voiceEnv: { LOG_LEVEL: 'info', VOICE_CAPACITY: String(calls + 10) },
  });
  const { key } = await devstack.createAccountKey(database.url, { account: 'bench-voice', numbers: [{ e164: FROM, channels: ['voice'] }] });
  const api = async (method, path, body) => {
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    return res.json();
  };
  const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : null);
  const waitForEnd = (ids, what, extra = () => true) =>
    devstack.eventually(
      () => Promise.all(ids.map((id) => api('GET', `/v1/voice/calls/${id}`))),
      (list) => list.every((c) => !['ringing', 'in-progress'].includes(c.status) && extra(c)),
      { what, timeoutMs: 240_000, intervalMs: 1000 },
    );

  // Part 1: SIPp -rtp_echo as every callee; a fresh orchestrator so its CPU and RSS are this part's alone.
  sipp = await startSippEcho();
  // BENCH_PROFILE_DIR=<dir>: a CPU profile of this orchestrator (bench/cpu-profile.cjs), written when it stops.
  const profiling = process.env.BENCH_PROFILE_DIR ? { NODE_OPTIONS: `--require ${new URL('./cpu-profile.cjs', import.meta.url).pathname}` } : {};
  const sandboxUpstreams = { ...JSON.parse(stack.envFor('voice-orchestrator').SANDBOX_UPSTREAMS), sip: `sip:127.0.0.1:${sipp.port}` };
  const echoOrchestrator = await stack.startService('voice-orchestrator', { SANDBOX_UPSTREAMS: JSON.stringify(sandboxUpstreams), ...profiling });
  const agent = await api('POST', '/v1/voice/agents', {
    name: 'bench',
    flow: {
      start: 'ask',
      nodes: {
        ask: {
          type: 'gather',
          input: 'dtmf',
          prompt: 'Thank you for calling the benchmark line. Press one to continue.',
          timeout_seconds: 6,
          branches: [{ match: '1', next: 'bye' }],
          no_input: 'bye',
          no_match: 'bye',
        },
        bye: { type: 'say', text: 'We did not hear from you. Goodbye.', next: 'end' },
        end: { type: 'hangup' },
      },
    },
  });
  const echoRun = async (name, n, offset) => {
    const before = processUsage(echoOrchestrator.child.pid);
    const started = Date.now();
    const ids = await Promise.all(
      Array.from(
        { length: n },
        async (_, i) =>
          (await api('POST', '/v1/voice/calls', { to: `+4479111${String(offset + i).padStart(3, '0')}00`, from: FROM, agent_id: agent.id })).call_id,
      ),
    );
    const done = await waitForEnd(ids, 'every SIPp call to end');
    const wallSeconds = (Date.now() - started) / 1000;
    const after = processUsage(echoOrchestrator.child.pid);
    const histogram = {};
    let sent = 0;
    let late = 0;
    for (const line of echoOrchestrator.logs().split('\n')) {
      if (!line.includes('"call ended"')) continue;
      const entry = JSON.parse(line);
      if (!ids.includes(entry.call_id)) continue;
      sent += entry.frames_sent;
      late += entry.frames_late;
      for (const [ms, count] of Object.entries(entry.frame_lateness_ms ?? {})) histogram[ms] = (histogram[ms] ?? 0) + count;
    }
    const lateness = Object.keys(histogram).map(Number);
    return {
      name,
      calls: n,
      completed: done.filter((c) => c.status === 'completed').length,
      frames_sent: sent,
      late_frame_share_pct: Number(((sent ? late / sent : 0) * 100).toFixed(3)),
      lateness_p50_ms: histogramPercentile(histogram, 50),
      lateness_p95_ms: histogramPercentile(histogram, 95),
      lateness_max_ms: lateness.length ? Math.max(...lateness) : null,
      cpu_pct_of_one_core: Math.round(((after.cpuSeconds - before.cpuSeconds) / wallSeconds) * 100),
      peak_rss_mib: after.peakRssMiB,
    };
  };
  console.log(`load average before part 1: ${loadAverage()}`);
  const baseline = await echoRun('baseline: 1 call', 1, 0);
  const loaded = await echoRun(`${calls} concurrent calls, one orchestrator`, calls, 100);
  console.table([baseline, loaded]);
  console.log(`load average after part 1: ${loadAverage()}`);
  await echoOrchestrator.stop();
  await sipp.stop();
  sipp = undefined;

  // Part 2: the speech turn against carrier-sim's 04 phones (skipped with speech_calls=0).
  if (speechCalls > 0) {
    const speechOrchestrator = await stack.startService('voice-orchestrator');
    const speechAgent = await api('POST', '/v1/voice/agents', {
      name: 'bench speech',
      flow: {
        start: 'ask',
        nodes: {
          ask: {
            type: 'gather',
            input: 'speech',
            prompt: 'Which department would you like?',
            timeout_seconds: 10,
            branches: [
              { match: 'sales', next: 'sales' },
              { match: 'support', next: 'bye' },
            ],
            no_input: 'bye',
            no_match: 'bye',
          },
          sales: { type: 'say', text: 'Connecting you to sales.', next: 'bye' },
          bye: { type: 'hangup' },
        },
      },
    });
    const speechRun = async (name, n, offset) => {
      const ids = await Promise.all(
        Array.from(
          { length: n },
          async (_, i) =>
            (
              await api('POST', '/v1/voice/calls', {
                to: `+4479111${String(offset + i).padStart(3, '0')}04`,
                from: FROM,
                agent_id: speechAgent.id,
                record: true,
              })
            ).call_id,
        ),
      );
      const done = await devstack.eventually(
        () => Promise.all(ids.map((id) => api('GET', `/v1/voice/calls/${id}`))),
        (list) => list.every((c) => !['ringing', 'in-progress'].includes(c.status) && c.recording),
        { what: 'every speech call to end with its recording', timeoutMs: 240_000, intervalMs: 1000 },
      );
      const turns = [];
      for (const id of ids) {
        const res = await fetch(`${stack.baseUrl}/v1/voice/calls/${id}/recording`, { headers: { authorization: `Bearer ${key}` } });
        const wav = res.ok ? Buffer.from(await res.arrayBuffer()) : null;
        if (wav && process.env.BENCH_RECORDINGS_DIR) writeFileSync(`${process.env.BENCH_RECORDINGS_DIR}/${id}.wav`, wav);
        const turn = wav ? speechTurnMs(wav) : null;
        if (turn !== null) turns.push(turn);
      }
      turns.sort((a, b) => a - b);
      const parts = speechOrchestrator
        .logs()
        .split('\n')
        .filter((l) => l.includes('"speech turn"'))
        .map((l) => JSON.parse(l))
        .filter((e) => ids.includes(e.call_id));
      const median = (key) =>
        pct(
          parts
            .map((e) => e[key])
            .filter((v) => typeof v === 'number')
            .sort((a, b) => a - b),
          50,
        );
      return {
        name,
        calls: n,
        ended: Object.entries(done.reduce((n, c) => ({ ...n, [`${c.status}/${c.end_reason}`]: (n[`${c.status}/${c.end_reason}`] ?? 0) + 1 }), {}))
          .map(([k, v]) => `${v} ${k}`)
          .join(', '),
        routed_to_sales: done.filter((c) => c.transcript.some((t) => t.text === 'Connecting you to sales.')).length,
        turns_measured: turns.length,
        speech_turn_p50_ms: pct(turns, 50),
        speech_turn_p95_ms: pct(turns, 95),
        end_of_speech_wait_ms: median('end_of_speech_wait_ms'),
        stt_after_end_ms_p50: median('stt_after_end_ms'),
        tts_ms_p50: median('tts_ms'),
        end_to_queued_ms_p50: median('end_to_queued_ms'),
      };
    };
    const speechBaseline = await speechRun('baseline: 1 speech call', 1, 300);
    const speechLoaded = await speechRun(`${speechCalls} concurrent speech calls`, speechCalls, 400);
    console.table([speechBaseline, speechLoaded]);
    console.log(`load average after part 2: ${loadAverage()}`);
  }

  // Part 3: end of turn, keywords (a completed phrase ends the turn) against grammar (the silence does).
  if (turnCalls > 0) {
    const turnOrchestrator = await stack.startService('voice-orchestrator');
    // Calls placed this far apart rarely recognise at the same moment: the figure is the rule's, not two cores'
    // contention (part 2 measures turns under concurrency).
    const TURN_CALL_SPACING_MS = 2_000;
    const menu = (recognition) => ({
      name: `bench end of turn ${recognition}`,
      flow: {
        start: 'ask',
        nodes: {
          ask: {
            type: 'gather',
            input: 'speech',
            recognition,
            prompt: 'Which department would you like?',
            timeout_seconds: 10,
            branches: [
              { match: 'sales', next: 'reply' },
              { match: 'billing', next: 'reply' },
              { match: 'support', next: 'reply' },
            ],
            no_input: 'bye',
            no_match: 'reply',
          },
          reply: { type: 'say', text: 'Thank you.', next: 'bye' },
          bye: { type: 'hangup' },
        },
      },
    });
    const turnRun = async (recognition, offset) => {
      const agent = await api('POST', '/v1/voice/agents', menu(recognition));
      const ids = [];
      for (let i = 0; i < turnCalls; i += 1) {
        // 04 in flite's slt (whose "sales" the spotter finds) and 08 (espeak-ng en-us, "billing") in turn.
        const phone = i % 2 ? { to: '08', metadata: {} } : { to: '04', metadata: { sim_caller_voice: 'flite:slt' } };
        ids.push(
          (
            await api('POST', '/v1/voice/calls', {
              to: `+4479111${String(offset + i).padStart(3, '0')}${phone.to}`,
              from: FROM,
              agent_id: agent.id,
              record: true,
              metadata: phone.metadata,
            })
          ).call_id,
        );
        await new Promise((resolve) => setTimeout(resolve, TURN_CALL_SPACING_MS));
      }
      await devstack.eventually(
        () => Promise.all(ids.map((id) => api('GET', `/v1/voice/calls/${id}`))),
        (list) => list.every((c) => !['ringing', 'in-progress'].includes(c.status) && c.recording),
        { what: 'every end-of-turn call to end with its recording', timeoutMs: 240_000, intervalMs: 1000 },
      );
      const turns = [];
      let cut = 0;
      for (const id of ids) {
        const res = await fetch(`${stack.baseUrl}/v1/voice/calls/${id}/recording`, { headers: { authorization: `Bearer ${key}` } });
        if (!res.ok) continue;
        const wav = Buffer.from(await res.arrayBuffer());
        const turn = speechTurnMs(wav);
        if (turn === null) continue;
        turns.push(turn);
        if (cutOffInsideSentence(wav)) cut += 1;
      }
      turns.sort((a, b) => a - b);
      const endings = turnOrchestrator
        .logs()
        .split('\n')
        .filter((l) => l.includes('"speech turn"'))
        .map((l) => JSON.parse(l))
        .filter((e) => ids.includes(e.call_id));
      return {
        name: recognition === 'grammar' ? 'baseline: grammar, silence ends the turn' : 'keywords, a completed phrase ends the turn',
        calls: turnCalls,
        turns_measured: turns.length,
        turn_p50_ms: pct(turns, 50),
        turn_p95_ms: pct(turns, 95),
        cut_inside_sentence_pct: turns.length ? Math.round((cut / turns.length) * 100) : null,
        ended_by_phrase: endings.filter((e) => e.ended_by === 'phrase').length,
      };
    };
    const grammarTurns = await turnRun('grammar', 500);
    const keywordTurns = await turnRun('keywords', 600);
    console.table([grammarTurns, keywordTurns]);
    console.log(`load average after part 3: ${loadAverage()}`);
    await turnOrchestrator.stop();
  }
} finally {
  await sipp?.stop();
  await stack?.stop();
  await redis.stop();
  await database.drop();
  await postgres.stop();
}
