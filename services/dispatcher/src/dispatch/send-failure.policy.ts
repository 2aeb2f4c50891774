import type { ConcreteChannel } from '@switchboard/domain';
import { isProviderError, type ProviderFailureKind } from '@switchboard/providers';
import { MEDIA_ERROR_CODES } from '../media/media-check';

export type SendFailureAction =
  /** `auto` moves on to the next channel in the same run (docs/messages.md#auto-fallback). */
  | { action: 'fallback'; nextChannel: ConcreteChannel; errorCode: string; errorMessage: string; upstreamCode?: string }
  /** The message ends `failed`; the job completes, since deciding was its work. */
  | { action: 'fail'; errorCode: string; errorMessage: string; upstreamCode?: string }
  /**
   * Transient: the job throws and BullMQ's backoff runs it again. `resendSafe` is false when the upstream
   * may have taken the message without our learning it; the attempt then stays open (`sending`), so the
   * next run waits for a receipt instead of sending a duplicate.
   */
  | { action: 'retry'; errorCode: string; errorMessage: string; resendSafe: boolean }
  /** Throttled: delay the job without using up an attempt. */
  | { action: 'throttle'; delayMs: number; errorCode: string; errorMessage: string };

/** The message error codes (docs/messages.md#message-error-codes) for refusals that end a channel. */
const CHANNEL_ENDING_CODES: Partial<Record<ProviderFailureKind, string>> = {
  unreachable: 'recipient_unreachable',
  window_closed: 'outside_customer_service_window',
  permanent: 'rejected_by_upstream',
  template_invalid: 'template_invalid',
};

/** Refusals decided on our side (before or instead of the upstream), whose code is already a message error code. */
const LOCAL_REFUSAL_CODES = new Set<string>(['content_not_supported_on_channel', 'recipient_opted_out', ...MEDIA_ERROR_CODES]);

/** Link and network failures where no answer came back, so the upstream may or may not have the message. */
const NO_ANSWER = /^(E[A-Z]+|ERR_[A-Z_]+|network_error|connection_lost|submit_timeout|closed|malformed_response)$/;
/** Of those, the ones that prove nothing was sent: the connection never opened or no bind existed. */
const NOTHING_SENT = new Set(['not_bound', 'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * True when sending again at once cannot deliver the message twice: RBM dedupes on our messageId
 * (409 ALREADY_EXISTS) when there is one RBM upstream (`deduped`, the default), and any answer from the
 * upstream other than acceptance means it did not take it.
 */
export function resendIsSafe(channel: ConcreteChannel, error: unknown, rcs: { deduped: boolean } = { deduped: true }): boolean {
  if (channel === 'rcs' && rcs.deduped) return true;
  if (!isProviderError(error)) return false;
  if (error.kind !== 'transient') return true;
  return NOTHING_SENT.has(error.upstreamCode) || !NO_ANSWER.test(error.upstreamCode);
}

function describeSendFailure(channel: ConcreteChannel, error: unknown): string {
  if (isProviderError(error)) return `${channel} upstream answered ${error.upstreamCode}: ${error.message}`;
  return `${channel} send failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** 1 s after a throttle that named no wait (SMPP 0x58 never does): long enough for a per-second limit to pass. */
export const THROTTLE_DELAY_MS = 1_000;

/**
 * Sorts a failed send three ways (STYLE): permanent refusals end the channel, transient failures are
 * retried with backoff until the job's attempts run out, throttling only delays.
 */
export function classifySendFailure(input: {
  error: unknown;
  channel: ConcreteChannel;
  nextChannel: ConcreteChannel | null;
  attemptsExhausted: boolean;
  throttleDelayMs: number;
  /** Whether RBM's messageId dedupe covers a resend: one RBM upstream. @defaultValue true */
  rcsDeduped?: boolean;
}): SendFailureAction {
  const { error, channel, nextChannel } = input;
  const errorMessage = describeSendFailure(channel, error);
  const upstreamCode = isProviderError(error) ? error.upstreamCode : undefined;
  const endChannel = (errorCode: string): SendFailureAction =>
    nextChannel ? { action: 'fallback', nextChannel, errorCode, errorMessage, upstreamCode } : { action: 'fail', errorCode, errorMessage, upstreamCode };

  if (isProviderError(error)) {
    if (error.kind === 'throttled') {
      return { action: 'throttle', delayMs: error.retryAfterMs ?? input.throttleDelayMs, errorCode: 'throttled', errorMessage };
    }
    const ending = CHANNEL_ENDING_CODES[error.kind];
    if (ending) return endChannel(LOCAL_REFUSAL_CODES.has(error.upstreamCode) ? error.upstreamCode : ending);
  }
  if (input.attemptsExhausted) return endChannel('upstream_unavailable');
  return { action: 'retry', errorCode: 'upstream_unavailable', errorMessage, resendSafe: resendIsSafe(channel, error, { deduped: input.rcsDeduped ?? true }) };
}
