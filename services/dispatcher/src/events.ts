import type { StoredEvent } from '@switchboard/store';

/**
 * Hands events, already committed to the `events` table with the change they describe, on to webhook
 * fan-out. The table is the outbox (`published_at` stays null until fan-out takes an event), so a
 * failure here loses nothing: it is logged and the send goes on.
 */
export type PublishEvents = (events: StoredEvent[]) => Promise<void>;

/** Fan-out is not wired yet; the rows wait in the outbox. */
export const publishNothing: PublishEvents = async () => undefined;
