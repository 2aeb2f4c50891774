import { PageIterator } from '../pagination';
import type { Transport } from '../transport';
import type { Page, PageQuery, Suppression, SuppressionRequest } from '../types';
import { route } from './path';

export interface SuppressionListQuery extends PageQuery {
  channel?: Suppression['channel'];
  recipient?: string;
}

/** Recipients who must not be sent to on a channel (docs/api.md#suppressions-opt-out). */
export class Suppressions {
  constructor(private readonly transport: Transport) {}

  /** Adds an entry, or returns the existing one. */
  create(entry: SuppressionRequest): Promise<Suppression> {
    return this.transport.request('POST', '/v1/suppressions', { body: entry });
  }

  listPage(query: SuppressionListQuery = {}): Promise<Page<Suppression>> {
    return this.transport.request('GET', '/v1/suppressions', { query: { ...query } });
  }

  list(query: Omit<SuppressionListQuery, 'cursor'> = {}): PageIterator<Suppression> {
    return new PageIterator((cursor) => this.listPage({ ...query, cursor }));
  }

  async delete(id: string): Promise<void> {
    await this.transport.request('DELETE', route`/v1/suppressions/${id}`);
  }
}
