import { Pool, type PoolClient, type QueryResultRow } from 'pg';

export interface Queryable {
  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

export interface Db extends Queryable {
  /** Runs `work` in one transaction; rolls back on any error. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DbOptions {
  url: string;
  /** @defaultValue 10 */
  poolSize?: number;
  /** @defaultValue 5000 */
  statementTimeoutMs?: number;
}

export function createDb({ url, poolSize = 10, statementTimeoutMs = 5_000 }: DbOptions): Db {
  // Set once per connection rather than per transaction, which saves a round trip on every write.
  const pool = new Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: 5_000,
    ...(statementTimeoutMs > 0 ? { statement_timeout: Math.floor(statementTimeoutMs) } : {}),
  });
  // An idle client's error (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return {
    query: (text, values) => pool.query(text, values as unknown[]),
    async transaction(work) {
      // A checked-out client has no pool listener: its connection dying (a server restart) would emit an
      // unhandled 'error' and crash the process. We note it, the transaction fails, and release(broken)
      // discards the client instead of handing a dead connection to the next caller.
      let broken: Error | undefined;
      const onError = (error: Error) => {
        broken = error;
      };
      // The callback form attaches the listener in the same tick as the pool hands the client over. After
      // `await pool.connect()` it would come a microtask later, and the pool may hand the client over from inside
      // the parse loop of its previous query's last packet: a server's termination notice in that same packet
      // then finds no listener at all.
      const client = await new Promise<PoolClient>((resolve, reject) => {
        pool.connect((error, connected) => {
          if (error || !connected) return reject(error ?? new Error('no client from the pool'));
          connected.on('error', onError);
          resolve(connected);
        });
      });
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.off('error', onError);
        client.release(broken);
      }
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    close: () => pool.end(),
  };
}
