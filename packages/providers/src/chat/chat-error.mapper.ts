import { ProviderError, ProviderFailureKind } from '../provider-error';
import { parseRetryAfterMs } from '../http/retry-after.parser';
import { isRecord, networkFailureToError, UpstreamFailure } from '../http/upstream-response';

/**
 * Cloud API error codes with a fixed meaning, whatever the HTTP status.
 * https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes
 */
const CHAT_ERROR_KINDS: ReadonlyMap<number, ProviderFailureKind> = new Map<number, ProviderFailureKind>([
  [131026, 'unreachable'], // message undeliverable: not a WhatsApp user
  [131047, 'window_closed'], // re-engagement message: more than 24 h since the customer last wrote
  [130429, 'throttled'], // rate limit hit
  [131056, 'throttled'], // pair rate limit hit (business, consumer)
  [80007, 'throttled'], // WABA rate limit
  [132000, 'template_invalid'], // parameter count mismatch
  [132001, 'template_invalid'], // template does not exist / not approved
  [132005, 'template_invalid'], // hydrated text too long
  [132007, 'template_invalid'], // format character policy violated
  [132012, 'template_invalid'], // parameter format mismatch
  [132015, 'template_invalid'], // template paused
  [132016, 'template_invalid'], // template disabled
  [131000, 'transient'], // something went wrong
  [131016, 'transient'], // service unavailable
  [1, 'transient'], // API unknown
  [2, 'transient'], // API service temporarily unavailable
]);

function chatErrorKindForCode(code: number): ProviderFailureKind | undefined {
  return CHAT_ERROR_KINDS.get(code);
}

function readGraphError(body: unknown): { code?: number; message?: string; details?: string } {
  if (!isRecord(body) || !isRecord(body.error)) return {};
  const error = body.error;
  const code = typeof error.code === 'number' ? error.code : Number.parseInt(typeof error.code === 'string' ? error.code : '', 10);
  const details = isRecord(error.error_data) && typeof error.error_data.details === 'string' ? error.error_data.details : undefined;
  return {
    code: Number.isFinite(code) ? code : undefined,
    message: typeof error.message === 'string' ? error.message : undefined,
    details,
  };
}

function kindForHttpStatus(status: number): ProviderFailureKind {
  if (status === 429) return 'throttled';
  if (status === 408 || status >= 500) return 'transient';
  return 'permanent';
}

/** Turns a non-2xx Graph API answer, or a failure without an answer, into a ProviderError. */
export function mapChatFailure(failure: UpstreamFailure): ProviderError {
  if (failure.status === undefined) return networkFailureToError(failure);
  const graph = readGraphError(failure.body);
  const knownKind = graph.code !== undefined ? chatErrorKindForCode(graph.code) : undefined;
  const kind = knownKind ?? kindForHttpStatus(failure.status);
  const upstreamCode = graph.code !== undefined ? String(graph.code) : `http_${failure.status}`;
  const text = [graph.message, graph.details].filter(Boolean).join(': ') || `HTTP ${failure.status}`;
  const retryAfterMs = kind === 'throttled' ? parseRetryAfterMs(failure.retryAfter) : undefined;
  return new ProviderError(kind, upstreamCode, text, retryAfterMs);
}
