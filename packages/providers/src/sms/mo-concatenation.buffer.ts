import type { MoPiece } from './deliver-sm.reader';

export interface CompletedMo {
  text: string;
  /** Forget the parts once the whole text was handed off; until then a redelivered part completes it again. */
  done(): void;
}

export interface MoConcatenationBuffer {
  /** Adds one piece: the whole text once every part is in (at once for a single part), undefined while parts are missing. */
  add(piece: MoPiece): CompletedMo | undefined;
  clear(): void;
}

interface Pending {
  parts: Map<number, string>;
  total: number;
  timer: NodeJS.Timeout;
}

/**
 * Reassembles concatenated mobile-originated texts. Parts are keyed by sender, recipient
 * and the UDH reference; a set still incomplete after `timeoutMs` is dropped.
 */
export function createMoConcatenationBuffer(options: {
  timeoutMs: number;
  onDropped(key: string, received: number, total: number): void;
}): MoConcatenationBuffer {
  const pending = new Map<string, Pending>();

  function forget(key: string): void {
    const entry = pending.get(key);
    if (entry) clearTimeout(entry.timer);
    pending.delete(key);
  }

  function add(piece: MoPiece): CompletedMo | undefined {
    if (!piece.concat) return { text: piece.text, done: () => undefined };
    const { reference, total, sequence } = piece.concat;
    if (sequence < 1 || sequence > total) return undefined;
    const key = `${piece.source}|${piece.destination}|${reference}|${total}`;
    let entry = pending.get(key);
    if (!entry) {
      const timer = setTimeout(() => {
        const stale = pending.get(key);
        pending.delete(key);
        if (stale) options.onDropped(key, stale.parts.size, stale.total);
      }, options.timeoutMs);
      timer.unref();
      entry = { parts: new Map(), total, timer };
      pending.set(key, entry);
    }
    entry.parts.set(sequence, piece.text);
    if (entry.parts.size < entry.total) return undefined;
    const ordered: string[] = [];
    for (let part = 1; part <= entry.total; part++) ordered.push(entry.parts.get(part) ?? '');
    return { text: ordered.join(''), done: () => forget(key) };
  }

  function clear(): void {
    for (const entry of pending.values()) clearTimeout(entry.timer);
    pending.clear();
  }

  return { add, clear };
}
