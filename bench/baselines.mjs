// Same-run baselines and probes shared by the benches (docs/performance.md): the queue alone, the simulator's
// SMSC alone, and the services' peak RSS while a run lasts.
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
const { Queue, Worker } = require('bullmq');
const smpp = require('smpp');

/** Peak VmRSS (MB) of each service's process while `run` lasts. */
export async function withPeakRss(services, run) {
  const peaks = {};
  const sample = () => {
    for (const [name, service] of Object.entries(services)) {
      try {
        const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${service.child.pid}/status`, 'utf8'))?.[1] ?? 0);
        peaks[name] = Math.max(peaks[name] ?? 0, Math.round(kb / 1024));
      } catch {
        // The process is gone; its last sample stands.
      }
    }
  };
  const timer = setInterval(sample, 200);
  try {
    const result = await run();
    sample();
    return { result, peaks };
  } finally {
    clearInterval(timer);
  }
}

/** The queue alone: `total` jobs through a no-op processor at `concurrency`, on the same Redis. */
export async function rawBullmqRate({ redisUrl, total, concurrency }) {
  const connection = { url: redisUrl };
  const name = `bench-raw-${randomUUID()}`;
  const queue = new Queue(name, { connection });
  const jobs = Array.from({ length: total }, (_, n) => ({
    name: 'noop',
    data: { message_id: `msg_${n}` },
    opts: { removeOnComplete: 1000, removeOnFail: 1000 },
  }));
  for (let n = 0; n < jobs.length; n += 1000) await queue.addBulk(jobs.slice(n, n + 1000));
  let done = 0;
  const start = Date.now();
  const finished = new Promise((resolve) => {
    const worker = new Worker(name, async () => undefined, { connection: { url: redisUrl, maxRetriesPerRequest: null }, concurrency });
    worker.on('completed', () => {
      done += 1;
      if (done === total) resolve(worker);
    });
  });
  const worker = await finished;
  const rate = total / ((Date.now() - start) / 1000);
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  return rate;
}

/** The simulator's SMSC alone: one bind, `window` submit_sm in flight, as the dispatcher's SMPP session sends. */
export async function bareSmppRate({ smppPort, total, recipient, sender, window = 100 }) {
  const session = smpp.connect({ url: `smpp://127.0.0.1:${smppPort}`, auto_enquire_link_period: 0 });
  session.on('error', () => undefined);
  await new Promise((resolve, reject) =>
    session.bind_transceiver({ system_id: 'switchboard', password: 'sandbox' }, (pdu) =>
      pdu.command_status === 0 ? resolve() : reject(new Error(`bind ${pdu.command_status}`)),
    ),
  );
  let receipts = 0;
  let allReceipted = () => undefined;
  session.on('deliver_sm', (pdu) => {
    session.send(pdu.response());
    receipts += 1;
    if (receipts >= total) allReceipted();
  });
  const start = Date.now();
  let sent = 0;
  let answered = 0;
  await new Promise((resolve) => {
    const next = () => {
      if (sent >= total) return;
      const n = sent++;
      session.submit_sm({ source_addr: sender.slice(1), destination_addr: recipient(n).slice(1), short_message: 'bench', registered_delivery: 1 }, () => {
        answered += 1;
        if (answered === total) resolve();
        else next();
      });
    };
    for (let w = 0; w < window; w += 1) next();
  });
  const rate = total / ((Date.now() - start) / 1000);
  // Stay bound until every receipt came back (outside the timing): an SMSC hands the receipts of a closed bind to
  // another bind of the same system_id, the dispatcher's, whose retries of them would be charged to the next run.
  if (receipts < total) await new Promise((resolve) => ((allReceipted = resolve), setTimeout(resolve, 30_000)));
  session.close();
  return rate;
}
