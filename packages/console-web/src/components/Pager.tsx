import type { useCursorPages } from '../useCursorPages';

/** The Newer/Older buttons under a cursor-paged list; `next` is the page's `next_cursor`. */
export function Pager({ pages, next }: { pages: ReturnType<typeof useCursorPages>; next: string | null | undefined }) {
  return (
    <div className="pager">
      <button type="button" disabled={pages.atFirst} onClick={pages.newer}>
        Newer
      </button>
      <button type="button" disabled={!next} onClick={() => next && pages.older(next)}>
        Older
      </button>
    </div>
  );
}
