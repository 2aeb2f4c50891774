/** An upstream as selection sees it. */
export interface Candidate {
  name: string;
  priority: number;
  weight: number;
}

/**
 * The order in which to try upstreams (docs/routing.md#several-upstreams-per-channel): lowest priority
 * number first; within one priority a weighted random draw picks who goes first, then the rest by the
 * same draw among those left. `random` returns [0, 1) and is injected for tests.
 */
export function orderCandidates<T extends Candidate>(upstreams: readonly T[], random: () => number = Math.random): T[] {
  const priorities = [...new Set(upstreams.map((u) => u.priority))].sort((a, b) => a - b);
  const ordered: T[] = [];
  for (const priority of priorities) {
    const pool = upstreams.filter((u) => u.priority === priority);
    while (pool.length > 0) {
      const total = pool.reduce((sum, u) => sum + u.weight, 0);
      let draw = random() * total;
      let index = pool.findIndex((u) => {
        draw -= u.weight;
        return draw < 0;
      });
      if (index < 0) index = pool.length - 1;
      ordered.push(pool.splice(index, 1)[0]);
    }
  }
  return ordered;
}
