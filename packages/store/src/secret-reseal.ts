import type { Queryable } from './db';
import type { SecretCipher } from './secret-cipher';

/** Every column that holds a signing secret, sealed at rest (docs/webhooks.md, "Secrets at rest"). */
export const SEALED_SECRET_COLUMNS = [
  { table: 'accounts', column: 'callback_secret' },
  { table: 'webhook_endpoints', column: 'secret' },
  { table: 'webhook_endpoints', column: 'previous_secret' },
] as const;

export interface ResealOutcome {
  /** How many values were re-sealed, per `table.column`. */
  resealed: Record<string, number>;
  /** Values that do not open (unknown key, tampered or moved): left as they are, named for the operator. */
  unreadable: string[];
}

/**
 * Seals every secret that is not sealed under the active key: plaintext left from before encryption,
 * and values under an older key after a rotation. Each row is replaced only if it still holds the value
 * read, so services running this at the same start-up, or a concurrent rotation, cannot lose a secret.
 */
export async function resealSecrets(db: Queryable, secrets: SecretCipher): Promise<ResealOutcome> {
  const outcome: ResealOutcome = { resealed: {}, unreadable: [] };
  for (const { table, column } of SEALED_SECRET_COLUMNS) {
    const { rows } = await db.query<{ id: string; value: string }>(
      `SELECT id, ${column} AS value FROM ${table} WHERE ${column} IS NOT NULL AND ${column} NOT LIKE $1`,
      [`v1.${secrets.activeKid}.%`],
    );
    let count = 0;
    for (const row of rows) {
      const at = { table, column, rowId: row.id };
      let plaintext: string;
      try {
        // Values from before encryption are the bare `whsec_…` secret; anything else must open.
        plaintext = row.value.startsWith('v1.') ? secrets.open(row.value, at) : row.value;
      } catch (error) {
        outcome.unreadable.push((error as Error).message);
        continue;
      }
      const { rowCount } = await db.query(`UPDATE ${table} SET ${column} = $1 WHERE id = $2 AND ${column} = $3`, [
        secrets.seal(plaintext, at),
        row.id,
        row.value,
      ]);
      count += rowCount ?? 0;
    }
    outcome.resealed[`${table}.${column}`] = count;
  }
  return outcome;
}
