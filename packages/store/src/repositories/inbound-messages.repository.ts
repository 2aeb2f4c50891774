import { newId, toIso, type UpstreamInbound } from '@switchboard/domain';
import type { Db, Queryable } from '../db';
import type { StoredEvent } from '../message-change';
import { createCustomerWindowsRepository } from './customer-windows.repository';

/** The store takes the received time as a `Date`; the jobs carry it as ISO 8601. */
export type InboundInput = UpstreamInbound<Date>;

export interface InboundRow {
  id: string;
  account_id: string;
  channel: string;
  upstream_id: string;
  from_number: string;
  to_number: string;
  type: string;
  text: string | null;
  reply: { id: string; title: string } | null;
  location: Record<string, unknown> | null;
  media: Record<string, unknown> | null;
  context_upstream_id: string | null;
  context_message_id: string | null;
  received_at: Date;
  created_at: Date;
}

/** The `message.inbound` event data, which `GET /v1/inbound/{id}` also returns plus location/media (docs/webhooks.md). */
export interface InboundResource {
  id: string;
  channel: string;
  from: string;
  to: string;
  type: string;
  text?: string;
  reply?: { id: string; title: string };
  context?: { message_id: string };
  location?: Record<string, unknown>;
  media?: Record<string, unknown>;
  received_at: string;
}

export type InboundRecordResult =
  /** No account owns the business number and the reply answers none of our messages. */
  | { outcome: 'unowned' }
  /** Already stored: a duplicated webhook changes nothing. */
  | { outcome: 'duplicate'; row: InboundRow; windowLastInboundAt: Date | null }
  | { outcome: 'stored'; row: InboundRow; windowLastInboundAt: Date | null; events: StoredEvent[] };

export function toInboundResource(row: InboundRow): InboundResource {
  return {
    id: row.id,
    channel: row.channel,
    from: row.from_number,
    to: row.to_number,
    type: row.type,
    ...(row.text !== null ? { text: row.text } : {}),
    ...(row.reply ? { reply: row.reply } : {}),
    ...(row.context_message_id ? { context: { message_id: row.context_message_id } } : {}),
    ...(row.location ? { location: row.location } : {}),
    ...(row.media ? { media: row.media } : {}),
    received_at: toIso(row.received_at) as string,
  };
}

/** The event data has exactly the documented fields (docs/webhooks.md#envelope-and-headers); location and media stay on the resource. */
function eventData(row: InboundRow): InboundResource {
  const { location: _location, media: _media, ...data } = toInboundResource(row);
  return data;
}

/**
 * Whose reply is this: the account of the message it answers when there is one, else the account that
 * provisioned the business number (a chat-capable provisioning first, then the oldest).
 */
async function resolveOwner(tx: Queryable, input: InboundInput): Promise<{ accountId: string; contextMessageId: string | null } | null> {
  if (input.contextUpstreamId) {
    const { rows } = await tx.query<{ id: string; account_id: string }>(
      `SELECT m.id, m.account_id FROM message_attempts a JOIN messages m ON m.id = a.message_id
       WHERE a.channel = $1 AND a.upstream_message_id = $2 ORDER BY a.created_at LIMIT 1`,
      [input.channel, input.contextUpstreamId],
    );
    if (rows[0]) return { accountId: rows[0].account_id, contextMessageId: rows[0].id };
  }
  const { rows } = await tx.query<{ account_id: string }>(
    `SELECT account_id FROM numbers WHERE e164 = $1 OR chat_phone_number_id = $2
     ORDER BY ($3 = ANY(channels)) DESC, created_at, id LIMIT 1`,
    [input.to, input.to.replace(/^\+/, ''), input.channel],
  );
  return rows[0] ? { accountId: rows[0].account_id, contextMessageId: null } : null;
}

export function createInboundMessagesRepository(db: Db) {
  return {
    /**
     * Stores one inbound message, links it to the message it answers, opens or resets the customer
     * service window (chat only) and writes the `message.inbound` event, all in one transaction.
     */
    async record(input: InboundInput, now: Date): Promise<InboundRecordResult> {
      return db.transaction(async (tx) => {
        const windows = createCustomerWindowsRepository(tx);
        const existing = await tx.query<InboundRow>('SELECT * FROM inbound_messages WHERE channel = $1 AND upstream_id = $2', [
          input.channel,
          input.upstreamId,
        ]);
        if (existing.rows[0]) {
          const row = existing.rows[0];
          const windowKey = { accountId: row.account_id, sender: row.to_number, customer: row.from_number };
          return { outcome: 'duplicate', row, windowLastInboundAt: input.channel === 'chat' ? await windows.lastInboundAt(windowKey) : null };
        }
        const owner = await resolveOwner(tx, input);
        if (!owner) return { outcome: 'unowned' };
        const inserted = await tx.query<InboundRow>(
          `INSERT INTO inbound_messages (id, account_id, channel, upstream_id, from_number, to_number, type, text, reply, location, media,
             context_upstream_id, context_message_id, received_at, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
           ON CONFLICT (channel, upstream_id) DO NOTHING RETURNING *`,
          [
            newId('inb'),
            owner.accountId,
            input.channel,
            input.upstreamId,
            input.from,
            input.to,
            input.type,
            input.text ?? null,
            input.reply ? JSON.stringify(input.reply) : null,
            input.location ? JSON.stringify(input.location) : null,
            input.media ? JSON.stringify(input.media) : null,
            input.contextUpstreamId ?? null,
            owner.contextMessageId,
            input.receivedAt,
            now,
          ],
        );
        const row = inserted.rows[0];
        // A concurrent copy of the same webhook won the insert between our check and ours.
        if (!row) return { outcome: 'unowned' };
        const windowLastInboundAt =
          input.channel === 'chat' ? await windows.touch({ accountId: owner.accountId, sender: input.to, customer: input.from }, input.receivedAt) : null;
        const eventId = newId('evt');
        await tx.query(
          `INSERT INTO events (id, account_id, type, resource_type, resource_id, sequence, data, created_at)
           VALUES ($1, $2, 'message.inbound', 'inbound', $3, NULL, $4, $5)`,
          [eventId, owner.accountId, row.id, JSON.stringify(eventData(row)), now],
        );
        // Inbound replies have no per-resource sequence (docs/webhooks.md#envelope-and-headers); 0 stands for "none".
        const events: StoredEvent[] = [{ id: eventId, account_id: owner.accountId, type: 'message.inbound', resource_id: row.id, sequence: 0 }];
        return { outcome: 'stored', row, windowLastInboundAt, events };
      });
    },

    /** Scoped to the account: another account's reply is indistinguishable from a missing one. */
    async findForAccount(accountId: string, id: string): Promise<InboundRow | null> {
      const { rows } = await db.query<InboundRow>('SELECT * FROM inbound_messages WHERE id = $1 AND account_id = $2', [id, accountId]);
      return rows[0] ?? null;
    },

    /** Newest first; `beforeId` continues below the last id of the previous page. */
    async list(accountId: string, page: { beforeId?: string; limit: number }): Promise<InboundRow[]> {
      const { rows } = await db.query<InboundRow>(
        `SELECT * FROM inbound_messages WHERE account_id = $1 AND ($2::text IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
        [accountId, page.beforeId ?? null, page.limit],
      );
      return rows;
    },
  };
}
export type InboundMessagesRepository = ReturnType<typeof createInboundMessagesRepository>;
