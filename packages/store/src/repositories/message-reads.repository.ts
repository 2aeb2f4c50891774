import { toIso } from '@switchboard/domain';
import type { Queryable } from '../db';
import { idRange } from '../id-range';
import { toMessageResource, type AttemptRow, type MessageResource, type MessageRow } from '../message-resource';

export interface MessageListFilter {
  status?: string;
  channel?: string;
  recipient?: string;
  /** The lane (docs/messages.md#traffic-lanes). */
  trafficClass?: string;
  /** Exclusive upper bound on the id: the page continues below the last id seen. */
  beforeId?: string;
  /** Time range on created_at, `from` inclusive and `to` exclusive (the console's filter). */
  createdFrom?: Date;
  createdTo?: Date;
  limit: number;
}

export interface TransitionView {
  sequence: number;
  status: string;
  channel: string | null;
  carrier_status_code: string | null;
  error_code: string | null;
  at: string;
}

async function attemptsByMessage(db: Queryable, ids: string[]): Promise<Map<string, AttemptRow[]>> {
  const byMessage = new Map<string, AttemptRow[]>();
  if (ids.length === 0) return byMessage;
  const { rows } = await db.query<AttemptRow>(
    'SELECT * FROM message_attempts WHERE message_id = ANY($1) AND message_id >= $2 AND message_id <= $3 ORDER BY attempt_no',
    [ids, ...idRange(ids)],
  );
  for (const row of rows) byMessage.set(row.message_id, [...(byMessage.get(row.message_id) ?? []), row]);
  return byMessage;
}

export function createMessageReadsRepository(db: Queryable) {
  return {
    /** Scoped to the account: another account's message is indistinguishable from a missing one. */
    async findForAccount(accountId: string, id: string): Promise<MessageResource | null> {
      const { rows } = await db.query<MessageRow>('SELECT * FROM messages WHERE id = $1 AND account_id = $2', [id, accountId]);
      if (!rows[0]) return null;
      const attempts = await attemptsByMessage(db, [id]);
      return toMessageResource(rows[0], attempts.get(id) ?? []);
    },

    async list(accountId: string, filter: MessageListFilter): Promise<MessageResource[]> {
      const where = ['account_id = $1'];
      const values: unknown[] = [accountId];
      const add = (clause: string, value: unknown) => {
        values.push(value);
        where.push(clause.replace('?', `$${values.length}`));
      };
      if (filter.status) add('status = ?', filter.status);
      if (filter.channel) add('channel = ?', filter.channel);
      if (filter.recipient) add('recipient = ?', filter.recipient);
      if (filter.trafficClass) add('traffic_class = ?', filter.trafficClass);
      if (filter.beforeId) add('id < ?', filter.beforeId);
      if (filter.createdFrom) add('created_at >= ?', filter.createdFrom);
      if (filter.createdTo) add('created_at < ?', filter.createdTo);
      values.push(filter.limit);
      const { rows } = await db.query<MessageRow>(`SELECT * FROM messages WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT $${values.length}`, values);
      const attempts = await attemptsByMessage(
        db,
        rows.map((r) => r.id),
      );
      return rows.map((row) => toMessageResource(row, attempts.get(row.id) ?? []));
    },

    /** Whether the dispatcher has persisted this message (any account: callers already own the id). */
    async exists(id: string): Promise<boolean> {
      const { rows } = await db.query('SELECT 1 FROM messages WHERE id = $1', [id]);
      return rows.length > 0;
    },

    async transitions(accountId: string, id: string): Promise<TransitionView[] | null> {
      const owner = await db.query('SELECT 1 FROM messages WHERE id = $1 AND account_id = $2', [id, accountId]);
      if (owner.rows.length === 0) return null;
      const { rows } = await db.query<Omit<TransitionView, 'at'> & { at: Date }>(
        'SELECT sequence, status, channel, carrier_status_code, error_code, at FROM message_transitions WHERE message_id = $1 ORDER BY sequence',
        [id],
      );
      return rows.map((r) => ({ ...r, at: toIso(r.at) as string }));
    },
  };
}
export type MessageReadsRepository = ReturnType<typeof createMessageReadsRepository>;
