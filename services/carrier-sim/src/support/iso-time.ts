/**
 * `new Date(ms).toISOString()` for the send log and answers, remembered for the last millisecond asked:
 * at thousands of sends a second most sends share their millisecond with the one before.
 */
let lastMs = Number.NaN;
let lastIso = '';

export function isoAt(ms: number): string {
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}
