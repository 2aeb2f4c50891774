import { createHash, randomBytes } from 'node:crypto';
import { newId, type KeyMode } from '@switchboard/domain';
import type { Queryable } from '../db';

export interface ApiKeyRecord {
  id: string;
  account_id: string;
  mode: KeyMode;
  scopes: string[];
  rate_limit_per_second: number | null;
  revoked_at: Date | null;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function hashApiKey(plaintext: string): string {
  return createHash('sha256').update(plaintext).digest('hex');
}

function randomBase62(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  // Rejection sampling keeps every character equally likely.
  for (const b of bytes) {
    if (b < 248 && out.length < length) out += BASE62[b % 62];
  }
  return out.length === length ? out : out + randomBase62(length - out.length);
}

export function createApiKeysRepository(db: Queryable) {
  return {
    async create(input: { accountId: string; mode: KeyMode; scopes: string[]; rateLimitPerSecond?: number }) {
      const id = newId('key');
      const key = `sk_${input.mode}_${randomBase62(32)}`;
      await db.query(
        `INSERT INTO api_keys (id, account_id, key_hash, display_prefix, mode, scopes, rate_limit_per_second)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [id, input.accountId, hashApiKey(key), key.slice(0, 12), input.mode, input.scopes, input.rateLimitPerSecond ?? null],
      );
      return { id, key };
    },
    async findByHash(keyHash: string): Promise<ApiKeyRecord | null> {
      const { rows } = await db.query<ApiKeyRecord>(
        'SELECT id, account_id, mode, scopes, rate_limit_per_second, revoked_at FROM api_keys WHERE key_hash = $1',
        [keyHash],
      );
      return rows[0] ?? null;
    },
    async revoke(id: string): Promise<boolean> {
      const { rowCount } = await db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [id]);
      return (rowCount ?? 0) > 0;
    },
  };
}
export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
