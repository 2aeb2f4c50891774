import { useState } from 'react';

/**
 * Cursor paging back and forth: the API only gives a `next_cursor`, so the cursors of the pages already
 * passed are kept as a stack to go back ("Newer") without asking the API for a previous cursor.
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    /** The cursor of the page shown; undefined on the first (newest) page. */
    cursor: cursors[cursors.length - 1] as string | undefined,
    atFirst: cursors.length === 0,
    newer: () => setCursors(cursors.slice(0, -1)),
    older: (next: string) => setCursors([...cursors, next]),
    /** Back to the first page, e.g. when the filters change. */
    reset: () => setCursors([]),
  };
}
