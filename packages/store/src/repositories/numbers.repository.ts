import { e164Digits, newId, NumberAlreadyProvisionedError } from '@switchboard/domain';
import type { Queryable } from '../db';

export interface NumberRecord {
  id: string;
  account_id: string;
  e164: string;
  channels: string[];
  chat_phone_number_id: string | null;
  created_at: Date;
}

export function createNumbersRepository(db: Queryable) {
  return {
    /**
     * Adds a number, or re-provisions it (new channels) on the account that already holds it. A number
     * held by another account is refused with NumberAlreadyProvisionedError; the unique constraint on
     * `e164` settles a race between two accounts (docs/numbers.md).
     */
    async add(input: { accountId: string; e164: string; channels: string[]; chatPhoneNumberId?: string }): Promise<NumberRecord> {
      const { rows } = await db.query<NumberRecord>(
        `INSERT INTO numbers (id, account_id, e164, channels, chat_phone_number_id) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (e164) DO UPDATE SET channels = EXCLUDED.channels, chat_phone_number_id = EXCLUDED.chat_phone_number_id
         WHERE numbers.account_id = EXCLUDED.account_id
         RETURNING *`,
        [newId('num'), input.accountId, input.e164, input.channels, input.chatPhoneNumberId ?? e164Digits(input.e164)],
      );
      if (rows.length === 0) throw new NumberAlreadyProvisionedError(input.e164);
      return rows[0];
    },
    /** Oldest first: the default sender for a channel is the first number provisioned for it (docs/messages.md#senders). */
    async listForAccount(accountId: string): Promise<NumberRecord[]> {
      const { rows } = await db.query<NumberRecord>('SELECT * FROM numbers WHERE account_id = $1 ORDER BY created_at, id', [accountId]);
      return rows;
    },
    async findByE164(e164: string): Promise<NumberRecord[]> {
      const { rows } = await db.query<NumberRecord>('SELECT * FROM numbers WHERE e164 = $1 ORDER BY created_at, id', [e164]);
      return rows;
    },
  };
}
export type NumbersRepository = ReturnType<typeof createNumbersRepository>;
