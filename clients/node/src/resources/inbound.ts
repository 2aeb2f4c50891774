import { PageIterator } from '../pagination';
import type { Transport } from '../transport';
import type { Inbound, Page, PageQuery } from '../types';
import { route } from './path';

/** Customers' replies (docs/chat.md#reading-replies). */
export class InboundMessages {
  constructor(private readonly transport: Transport) {}

  get(id: string): Promise<Inbound> {
    return this.transport.request('GET', route`/v1/inbound/${id}`);
  }

  listPage(query: PageQuery = {}): Promise<Page<Inbound>> {
    return this.transport.request('GET', '/v1/inbound', { query: { ...query } });
  }

  list(query: Omit<PageQuery, 'cursor'> = {}): PageIterator<Inbound> {
    return new PageIterator((cursor) => this.listPage({ ...query, cursor }));
  }
}
