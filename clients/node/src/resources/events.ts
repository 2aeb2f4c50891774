import { PageIterator } from '../pagination';
import type { Transport } from '../transport';
import type { Event, EventDetail, EventRedelivery, Page, PageQuery } from '../types';
import { route } from './path';

export interface EventListQuery extends PageQuery {
  /** One event type, e.g. `message.delivered`. */
  type?: string;
  /** A `msg_`, `call_` or `inb_` id. */
  resource_id?: string;
}

/** The account's events and their delivery state (docs/webhooks.md#managing-endpoints). */
export class Events {
  constructor(private readonly transport: Transport) {}

  listPage(query: EventListQuery = {}): Promise<Page<Event>> {
    return this.transport.request('GET', '/v1/events', { query: { ...query } });
  }

  list(query: Omit<EventListQuery, 'cursor'> = {}): PageIterator<Event> {
    return new PageIterator((cursor) => this.listPage({ ...query, cursor }));
  }

  /** The event with each of its deliveries. */
  get(id: string): Promise<EventDetail> {
    return this.transport.request('GET', route`/v1/events/${id}`);
  }

  /** Sends the event again to every target. */
  redeliver(id: string): Promise<EventRedelivery> {
    return this.transport.request('POST', route`/v1/events/${id}/redeliver`);
  }
}
