/**
 * How an upstream refusal should be treated by the dispatcher:
 * - `unreachable`: the recipient cannot be reached on this channel (a reason to fall back);
 * - `window_closed`: chat's 24 h customer service window is closed;
 * - `permanent`: retrying the same request will not help;
 * - `transient`: network, 5xx, timeout, lost SMPP bind; retry with backoff;
 * - `throttled`: slow down; does not use up an attempt;
 * - `template_invalid`: the template is missing, unapproved or its parameters do not fit.
 */
export type ProviderFailureKind = 'unreachable' | 'window_closed' | 'permanent' | 'transient' | 'throttled' | 'template_invalid';

export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderFailureKind,
    /** The upstream's own code as a string: a Cloud API error code, a Google status, an SMPP `0x..` status. */
    readonly upstreamCode: string,
    message: string,
    /** For `throttled`: how long the upstream asked us to wait, when it said so. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}
