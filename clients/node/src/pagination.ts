import type { Page } from './types';

/**
 * Every item of a cursor-paginated list, fetched one page at a time as the loop asks for more
 * (`for await (const m of client.messages.list(...))`). Each pass starts again from the first page.
 */
export class PageIterator<T> implements AsyncIterable<T> {
  constructor(private readonly fetchPage: (cursor: string | undefined) => Promise<Page<T>>) {}

  /** The pages themselves, for callers that want `next_cursor` or page-sized batches. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let cursor: string | undefined;
    do {
      const page = await this.fetchPage(cursor);
      yield page;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Every item, or the first `max` of them. */
  async toArray(max = Infinity): Promise<T[]> {
    const items: T[] = [];
    if (max <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= max) break;
    }
    return items;
  }
}
