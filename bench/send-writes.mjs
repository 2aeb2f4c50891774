// Send-side store writes (docs/performance/dispatch.md#send-batches): messages through persist → send guard → acceptance,
// 64 at a time like the dispatcher's send jobs, against PostgreSQL with the dispatcher's pool size. Batched
// (maxBatch 64, the dispatcher's SEND_BATCH_MAX) beside the baseline of the same writes one job at a time (maxBatch 1),
// alternated in the same run on the same database. No upstream, no Redis: the store's share of a send alone.
// Usage: npm run build && node bench/send-writes.mjs [messages=5000] [rounds=2]
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import { devstack } from './lib.mjs';

const require = createRequire(import.meta.url);
const { createDb, createMessageWritesRepository, createAccountsRepository } = require('../packages/store/dist/index.js');
const { createPooledIdGenerator } = require('../packages/domain/dist/index.js');
const { createBatchedSendStore } = require('../services/dispatcher/dist/dispatch/batched-send-store.js');

const total = Number(process.argv[2] ?? 5_000);
const rounds = Number(process.argv[3] ?? 2);
const concurrency = 64;
const newId = createPooledIdGenerator();

const postgres = await devstack.ensurePostgres();
const database = await devstack.createTestDatabase(postgres.url);
const db = createDb({ url: database.url, poolSize: 20 });
const writes = createMessageWritesRepository(db);
const { id: accountId } = await createAccountsRepository(db, devstack.testSecretCipher(database.url)).ensure(`bench-${randomUUID()}`);

async function run(maxBatch) {
  const store = createBatchedSendStore(writes, { maxBatch, waitMs: 2 });
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < total) {
      next += 1;
      const now = new Date();
      const m = {
        id: newId('msg'),
        account_id: accountId,
        mode: 'test',
        channel: 'sms',
        plan: ['sms'],
        senders: { sms: { e164: '+14155550100' } },
        recipient: '+447911123456',
        content: { text: 'hello' },
        cost_units: 1,
        created_at: now.toISOString(),
      };
      await store.persistAccepted(m);
      const guard = await store.startAttempt({ messageId: m.id, channel: 'sms', sender: '+14155550100', attemptRef: 7, at: now });
      if (guard.outcome !== 'started') throw new Error(`guard answered ${guard.outcome}`);
      await store.attemptAccepted({ messageId: m.id, attemptId: guard.attempt.id, upstreamMessageId: `smsc-${m.id}`, at: new Date() });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return Math.round(total / ((performance.now() - started) / 1000));
}

for (let round = 1; round <= rounds; round += 1) {
  const alone = await run(1);
  const batched = await run(64);
  console.log(
    JSON.stringify({
      bench: 'send-writes',
      round,
      messages: total,
      concurrency,
      one_job_at_a_time_per_second: alone,
      batched_per_second: batched,
      ratio: +(batched / alone).toFixed(2),
    }),
  );
}
await db.close();
await database.drop();
await postgres.stop();
