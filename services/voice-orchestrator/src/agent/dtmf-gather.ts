import type { AgentMedia } from './agent-media';

export interface DtmfGatherOptions {
  maxDigits: number;
  finishKey?: string;
  /** Wait for the first digit, counted from the end of the prompt. */
  firstDigitTimeoutMs: number;
  interDigitTimeoutMs: number;
}

/**
 * Collects digits (docs/voice-agents.md#gather): a digit while the prompt plays stops it (barge-in); collection ends at
 * `maxDigits`, at the finish key (not included), or when the inter-digit timeout passes. Empty means no input.
 */
export async function gatherDigits(
  media: AgentMedia,
  promptPlaying: boolean,
  opts: DtmfGatherOptions,
  stopPrompt = () => media.clearPlayback(),
): Promise<string> {
  let digits = '';
  const accept = (digit: string): boolean => {
    if (opts.finishKey && digit === opts.finishKey) return true;
    digits += digit;
    return digits.length >= opts.maxDigits;
  };
  if (promptPlaying) {
    const first = await media.nextDigit(24 * 3_600_000, media.drained());
    if (first !== null) {
      stopPrompt();
      if (accept(first)) return digits;
    } else {
      // The prompt ended first; a digit may still arrive in the same tick.
      const typed = media.takeDigits();
      for (const d of typed) if (accept(d)) return digits;
    }
  }
  let timeoutMs = digits.length === 0 ? opts.firstDigitTimeoutMs : opts.interDigitTimeoutMs;
  for (;;) {
    const digit = await media.nextDigit(timeoutMs);
    if (digit === null) return digits;
    if (accept(digit)) return digits;
    timeoutMs = opts.interDigitTimeoutMs;
  }
}
