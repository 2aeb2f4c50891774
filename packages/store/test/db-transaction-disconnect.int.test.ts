import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@switchboard/devstack';
import { createDb, type Db } from '@switchboard/store';

/**
 * A server restart kills the connection of a transaction in progress. The transaction must fail like any
 * other store error, not crash the process with an unhandled 'error' event, and the pool must not hand the
 * dead connection to the next caller (found by the PostgreSQL-restart case of the chaos suite).
 */
let database: TestDatabase;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ url: database.url, poolSize: 1 });
});

afterAll(async () => {
  await db?.close();
  await database?.drop();
});

async function terminate(pid: number): Promise<void> {
  const admin = new Client({ connectionString: database.url });
  await admin.connect();
  try {
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  } finally {
    await admin.end();
  }
}

it('fails a transaction whose connection dies between statements, and serves the next query on a new one', async () => {
  const uncaught: Error[] = [];
  const onUncaught = (error: Error) => uncaught.push(error);
  process.prependListener('uncaughtException', onUncaught);
  try {
    const outcome = db.transaction(async (tx) => {
      const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await terminate(rows[0].pid);
      // Give the socket's close or reset time to arrive while no query is active on this client.
      await new Promise((r) => setTimeout(r, 300));
      return tx.query('SELECT 1');
    });
    await expect(outcome).rejects.toThrow();
    // poolSize 1: this query gets a fresh connection only if the broken one was discarded.
    expect((await db.query<{ ok: number }>('SELECT 1 AS ok')).rows).toEqual([{ ok: 1 }]);
    expect(uncaught).toEqual([]);
  } finally {
    process.off('uncaughtException', onUncaught);
  }
});
