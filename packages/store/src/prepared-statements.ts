import type { Queryable } from './db';

/**
 * Statement texts a repository marks as hot, by text: a fixed text run many times a second, whose
 * parse and plan in PostgreSQL cost more than the rows it touches (docs/performance/webhooks.md#webhook-delivery-benchwebhooksmjs).
 * Only fixed texts are registered, so each connection prepares a bounded set of statements.
 */
const preparedNames = new Map<string, string>();

/**
 * Marks `text` as a statement to prepare once per connection under `name`, for a {@link Queryable} wrapped
 * by {@link withPreparedStatements}; returns the text unchanged, so the constant reads as plain SQL and every
 * other Queryable runs it as a plain statement.
 */
export function preparedStatement(name: string, text: string): string {
  const known = preparedNames.get(text);
  if (known !== undefined && known !== name) throw new Error(`statement already prepared as ${known}`);
  preparedNames.set(text, name);
  return text;
}

/**
 * A Queryable that sends the registered texts as named (prepared) statements: PostgreSQL parses and plans
 * each once per connection instead of on every call. Other texts pass through unchanged. Not for a pooler
 * that cannot carry prepared statements across connections (PgBouncer in transaction mode before 1.21, or
 * without `max_prepared_statements`): the services that use it can turn it off (docs/operations.md).
 */
export function withPreparedStatements<Q extends Queryable>(db: Q): Q {
  // createDb's query hands its first argument to pg's Pool, which takes a query config as well as a text.
  const withConfig = db as unknown as { query(config: { name: string; text: string; values?: unknown[] }): ReturnType<Queryable['query']> };
  const query: Queryable['query'] = (text, values) => {
    const name = preparedNames.get(text);
    return name === undefined ? db.query(text, values) : (withConfig.query({ name, text, values }) as never);
  };
  return Object.assign(Object.create(db) as Q, { query });
}
