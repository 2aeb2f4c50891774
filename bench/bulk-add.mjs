// Enqueueing a batch's send jobs: BullMQ's addBulk (one EVALSHA per job) against addJobsInOneCall (one script
// call running BullMQ's add-job scripts per job, docs/messages.md#batch-sends), interleaved on one Redis with
// AOF `appendfsync always`. Prints, per call of `size` jobs, the medians of Redis CPU, this process's CPU (the
// producer's share) and the wall time. Usage: npm run build && node bench/bulk-add.mjs [rounds=12] [size=1000]
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { devstack } from './lib.mjs';

const require = createRequire(import.meta.url);
const { Queue } = require('bullmq');
const { Redis } = require('ioredis');
const queues = require('../packages/queues/dist/index.js');

const rounds = Number(process.argv[2] ?? 12);
const size = Number(process.argv[3] ?? 1000);
const warmup = 2;

const redis = await devstack.startRedis();
const client = new Redis(redis.url);
const redisCpuMs = async () => {
  const info = await client.info('cpu');
  const field = (name) => Number(new RegExp(`${name}:([0-9.]+)`).exec(info)[1]);
  return (field('used_cpu_user') + field('used_cpu_sys')) * 1000;
};
const job = (id, n) => ({
  message_id: id,
  account_id: 'acc_bench',
  mode: 'test',
  channel: 'sms',
  plan: ['sms'],
  senders: { sms: '+15550001111' },
  recipient: `+4479111${String(n).padStart(5, '0')}`,
  content: { text: `Hello customer ${n}, your code is ${100000 + n}` },
  cost_units: 1,
  created_at: new Date().toISOString(),
  metadata: { campaign: 'bench' },
});
const connection = { url: redis.url };
const viaAddBulk = new Queue('bulk-add-bench-a', { connection, prefix: 'bench' });
const viaOneCall = new Queue('bulk-add-bench-b', { connection, prefix: 'bench' });
const ways = {
  addBulk: (jobs) => viaAddBulk.addBulk(jobs),
  oneCall: (jobs) => queues.addJobsInOneCall(viaOneCall, jobs),
};
const samples = { addBulk: [], oneCall: [] };
let next = 0;
try {
  for (let round = 0; round < rounds + warmup; round += 1) {
    for (const [way, add] of Object.entries(ways)) {
      const jobs = Array.from({ length: size }, (_, i) => queues.sendMessageBulkJob(job(`msg_${next++}`, i)));
      const redisBefore = await redisCpuMs();
      const selfBefore = process.cpuUsage();
      const started = performance.now();
      await add(jobs);
      const wallMs = performance.now() - started;
      const self = process.cpuUsage(selfBefore);
      const redisMs = (await redisCpuMs()) - redisBefore;
      if (round >= warmup) samples[way].push({ redisMs, producerMs: (self.user + self.system) / 1000, wallMs });
    }
  }
  const median = (values) => Number(values.sort((a, b) => a - b)[values.length >> 1].toFixed(1));
  const rows = Object.entries(samples).map(([way, s]) => ({
    way,
    redis_cpu_ms: median(s.map((x) => x.redisMs)),
    producer_cpu_ms: median(s.map((x) => x.producerMs)),
    wall_ms: median(s.map((x) => x.wallMs)),
  }));
  console.table(rows);
  console.log(JSON.stringify({ bench: 'bulk-add', rounds, size, loadavg: readFileSync('/proc/loadavg', 'utf8').trim(), rows }));
} finally {
  await viaAddBulk.close();
  await viaOneCall.close();
  client.disconnect();
  await redis.stop();
}
