// Carrier-sim bare send rate (docs/performance/carrier-sim.md#carrier-sim): sends per second on each channel, straight
// at the simulator, each printed beside a baseline measured in the same run on the same machine:
//   - chat, rcs: autocannon with CONNECTIONS keep-alive connections; the baseline is a bare node:http
//     server answering a fixed JSON body of the same size (bench/carrier-sim.peers.mjs bare-http);
//   - sms: BENCH_SMPP_BINDS binds with BENCH_SMPP_WINDOW submit_sm in flight each; the baseline is an SMSC on the
//     same smpp library that only answers submit_sm (bare-smpp).
// The simulator's receipts go to a counting receiver (chat and rcs webhooks) or back to the binds (sms
// deliver_sm); the bench waits for them to stop arriving and reports how many came, in how many requests,
// the simulator's CPU per send beside the baseline server's CPU per request in the same run (a figure the
// machine's load disturbs less than a rate), and the simulator's peak RSS (VmHWM).
// Usage: npm run build && node bench/carrier-sim.mjs [sends=10000] [channels=chat,rcs,sms]
//   RECEIVER_DELAY_MS=<n> has the receiver answer each webhook n ms late: a receiver slower than the sends, to see
//   the simulator's memory while reports pile up (docs/sandbox.md#receipts-under-load).
//   SIM_MAIN=<path to another build's services/carrier-sim/dist/main.js> measures that build instead.
//   The simulator runs with the V8 flags devstack and the images give it (SERVICE_NODE_FLAGS), so its peak RSS is
//   the one a deployment has; SIM_NODE_FLAGS="<flags>" replaces them (an empty string: none).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { devstack, runAutocannon, simSendRequest } from './lib.mjs';

const require = createRequire(import.meta.url);
const smpp = require('smpp');

const total = Number(process.argv[2] ?? 10_000);
const channels = (process.argv[3] ?? 'chat,rcs,sms').split(',');
const connections = Number(process.env.CONNECTIONS ?? 50);
const binds = Number(process.env.BENCH_SMPP_BINDS ?? 4);
const window = Number(process.env.BENCH_SMPP_WINDOW ?? 50);
const simMain = process.env.SIM_MAIN ?? new URL('../services/carrier-sim/dist/main.js', import.meta.url).pathname;
const simNodeFlags =
  process.env.SIM_NODE_FLAGS !== undefined ? process.env.SIM_NODE_FLAGS.split(' ').filter(Boolean) : [...devstack.SERVICE_NODE_FLAGS['carrier-sim']];

// Recipients whose last two digits are 10..89: the simulator's plain "delivered, then read" numbers.
const recipient = (i) => `+4479111${200 + Math.floor((i % 800) / 80)}${10 + (i % 80)}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function spawnReady(args, env = {}) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let text = '';
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}`)));
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const line = text.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ child, info: JSON.parse(line) });
    });
  });
}
const peer = (role) => spawnReady([new URL('./carrier-sim.peers.mjs', import.meta.url).pathname, role]);

function procStat(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
const peakRssMb = (pid) => Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

const receiver = await peer('receiver');
const receiverUrl = `http://127.0.0.1:${receiver.info.port}`;
const sim = await spawnReady([...simNodeFlags, simMain], {
  HOST: '127.0.0.1',
  PORT: '0',
  SIM_SMPP_PORT: String(await devstack.freePort()),
  SIM_SIP_PORT: '0',
  LOG_LEVEL: 'warn',
  SIM_GATEWAY_URL: receiverUrl,
});
const simUrl = `http://127.0.0.1:${sim.info.http_port}`;
// A build from before PUT /sim/behaviour (SIM_MAIN) answers 404 and keeps its defaults.
const behaviour = await fetch(`${simUrl}/sim/behaviour`, {
  method: 'PUT',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ receipt_delay_ms: 50, enforce_chat_window: false }),
});
if (!behaviour.ok) console.error(`PUT /sim/behaviour answered ${behaviour.status}: the simulator keeps its default behaviour`);
const bareHttp = await peer('bare-http');
const bareSmpp = await peer('bare-smpp');

const counts = async () => (await fetch(`${receiverUrl}/__count`)).json();

/** Waits until `read` stops changing for 500 ms; returns its last value and when it last changed. */
async function settled(read) {
  let last = await read();
  let changedAt = Date.now();
  while (Date.now() - changedAt < 500) {
    await sleep(100);
    const now = await read();
    if (JSON.stringify(now) !== JSON.stringify(last)) {
      last = now;
      changedAt = Date.now();
    }
  }
  return { value: last, at: changedAt };
}

async function httpRate(url, channel) {
  const start = Date.now();
  const result = await runAutocannon({ url, connections, amount: total, requests: [simSendRequest(channel, recipient)] });
  const seconds = (Date.now() - start) / 1000;
  if (result.non2xx > 0 || result.errors > 0) console.error(`${channel} at ${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { start, rate: total / seconds };
}

/** `binds` sessions, `window` submit_sm in flight on each; receipts (deliver_sm) are answered and counted. */
async function smppRate(port) {
  const receipts = { count: 0 };
  const sessions = await Promise.all(
    Array.from({ length: binds }, async () => {
      const session = smpp.connect({ url: `smpp://127.0.0.1:${port}`, auto_enquire_link_period: 0 });
      session.on('error', () => undefined);
      await new Promise((resolve, reject) =>
        session.bind_transceiver({ system_id: 'switchboard', password: 'sandbox' }, (pdu) =>
          pdu.command_status === 0 ? resolve() : reject(new Error(`bind ${pdu.command_status}`)),
        ),
      );
      session.on('deliver_sm', (pdu) => {
        receipts.count += 1;
        session.send(pdu.response());
      });
      return session;
    }),
  );
  const start = Date.now();
  let sent = 0;
  let answered = 0;
  let refused = 0;
  await new Promise((resolve) => {
    const next = (session) => {
      if (sent >= total) return;
      const n = sent++;
      session.submit_sm({ source_addr: '14155550100', destination_addr: recipient(n).slice(1), short_message: 'bench', registered_delivery: 1 }, (pdu) => {
        if (pdu.command_status !== 0) refused += 1;
        answered += 1;
        if (answered === total) resolve();
        else next(session);
      });
    };
    for (const session of sessions) for (let w = 0; w < window; w += 1) next(session);
  });
  const rate = total / ((Date.now() - start) / 1000);
  if (refused) console.error(`smpp at ${port}: ${refused} submit_sm refused`);
  return { start, rate, receipts, close: () => sessions.forEach((s) => s.close()) };
}

const rows = [];
try {
  for (const channel of channels) {
    if (channel === 'sms') {
      const baselineCpuBefore = procStat(bareSmpp.child.pid);
      const baseline = await smppRate(bareSmpp.info.port);
      const baselineCpu = procStat(bareSmpp.child.pid) - baselineCpuBefore;
      baseline.close();
      const cpuBefore = procStat(sim.child.pid);
      const run = await smppRate(sim.info.smpp_port);
      const drained = await settled(async () => run.receipts.count);
      run.close();
      rows.push({
        channel,
        sends: total,
        baseline_per_second: Math.round(baseline.rate),
        sim_per_second: Math.round(run.rate),
        ratio: Number((run.rate / baseline.rate).toFixed(3)),
        receipts: drained.value,
        receipt_requests: drained.value,
        receipts_per_second: Math.round(drained.value / ((drained.at - run.start) / 1000)),
        sim_cpu_ms_per_send: Number(((procStat(sim.child.pid) - cpuBefore) / total).toFixed(3)),
        baseline_cpu_ms_per_send: Number((baselineCpu / total).toFixed(3)),
        setup: `${binds} binds × window ${window}`,
      });
    } else {
      const baselineCpuBefore = procStat(bareHttp.child.pid);
      const baseline = await httpRate(`http://127.0.0.1:${bareHttp.info.port}`, channel);
      const baselineCpu = procStat(bareHttp.child.pid) - baselineCpuBefore;
      const before = await counts();
      const cpuBefore = procStat(sim.child.pid);
      const run = await httpRate(simUrl, channel);
      const drained = await settled(counts);
      const receipts = drained.value.receipts - before.receipts;
      rows.push({
        channel,
        sends: total,
        baseline_per_second: Math.round(baseline.rate),
        sim_per_second: Math.round(run.rate),
        ratio: Number((run.rate / baseline.rate).toFixed(3)),
        receipts,
        receipt_requests: drained.value.requests - before.requests,
        receipts_per_second: Math.round(receipts / ((drained.at - run.start) / 1000)),
        sim_cpu_ms_per_send: Number(((procStat(sim.child.pid) - cpuBefore) / total).toFixed(3)),
        baseline_cpu_ms_per_send: Number((baselineCpu / total).toFixed(3)),
        setup: `${connections} connections`,
      });
    }
    console.log(JSON.stringify({ bench: 'carrier-sim', ...rows.at(-1) }));
  }
  const peak = peakRssMb(sim.child.pid);
  console.table(
    rows.map((r) => ({
      channel: r.channel,
      setup: r.setup,
      'baseline /s': r.baseline_per_second,
      'sim sends /s': r.sim_per_second,
      ratio: r.ratio,
      receipts: r.receipts,
      'receipt requests': r.receipt_requests,
      'receipts /s': r.receipts_per_second,
      'sim CPU ms/send': r.sim_cpu_ms_per_send,
      'baseline CPU ms/send': r.baseline_cpu_ms_per_send,
    })),
  );
  console.log(
    JSON.stringify({
      bench: 'carrier-sim',
      sim_peak_rss_mb: peak,
      sim_node_flags: simNodeFlags.join(' '),
      load_average: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    }),
  );
} finally {
  for (const p of [sim, receiver, bareHttp, bareSmpp]) p.child.kill('SIGTERM');
}
