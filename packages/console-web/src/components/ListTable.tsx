import type { ReactNode } from 'react';

interface ListTableProps<T> {
  /** Column headings, in order; each becomes a `<th scope="col">`. */
  headers: string[];
  /** The table's accessible name, when the heading above it does not name it already. */
  label?: string;
  /** The loaded rows; undefined while loading, so neither the table nor the empty state flashes. */
  rows: T[] | undefined;
  /** Shown instead of the table when the list loaded empty (null to show nothing). */
  empty: ReactNode;
  /** One `<tr>` per row: the pages keep their own cells, keys and data attributes. */
  children: (row: T) => ReactNode;
}

/** A loaded list as a table with column headings, or its empty state: the shape every list page repeats. */
export function ListTable<T>({ headers, label, rows, empty, children }: ListTableProps<T>) {
  if (!rows) return null;
  if (rows.length === 0) return <>{empty}</>;
  return (
    <table aria-label={label}>
      <thead>
        <tr>
          {headers.map((h) => (
            <th key={h} scope="col">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{rows.map(children)}</tbody>
    </table>
  );
}
