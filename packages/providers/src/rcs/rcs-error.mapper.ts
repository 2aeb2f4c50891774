import { ProviderError, ProviderFailureKind } from '../provider-error';
import { parseRetryAfterMs } from '../http/retry-after.parser';
import { isRecord, networkFailureToError, UpstreamFailure } from '../http/upstream-response';

/** Reads a Google JSON error `{ error: { code, status, message } }`. */
function readGoogleError(body: unknown): { status?: string; message?: string } {
  if (!isRecord(body) || !isRecord(body.error)) return {};
  return {
    status: typeof body.error.status === 'string' ? body.error.status : undefined,
    message: typeof body.error.message === 'string' ? body.error.message : undefined,
  };
}

function kindForHttpStatus(status: number): ProviderFailureKind {
  if (status === 404) return 'unreachable';
  if (status === 429) return 'throttled';
  // 409 ABORTED is Google's "concurrent modification, try again"; ALREADY_EXISTS never reaches here.
  if (status === 408 || status === 409 || status >= 500) return 'transient';
  return 'permanent';
}

/** Turns a non-2xx RBM answer, or a failure without an answer, into a ProviderError. */
export function mapRcsFailure(failure: UpstreamFailure): ProviderError {
  if (failure.status === undefined) return networkFailureToError(failure);
  const google = readGoogleError(failure.body);
  const kind = kindForHttpStatus(failure.status);
  const upstreamCode = google.status ?? `http_${failure.status}`;
  const retryAfterMs = kind === 'throttled' ? parseRetryAfterMs(failure.retryAfter) : undefined;
  return new ProviderError(kind, upstreamCode, google.message ?? `HTTP ${failure.status}`, retryAfterMs);
}

/** RBM's own idempotency: a reused messageId is refused with 409 ALREADY_EXISTS. */
export function isAlreadyExists(status: number, body: unknown): boolean {
  if (status !== 409) return false;
  const google = readGoogleError(body);
  return google.status === undefined || google.status === 'ALREADY_EXISTS';
}
