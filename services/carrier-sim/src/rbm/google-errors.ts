import type { JsonAnswer } from '../http/json-answer';

export type GoogleStatus = 'INVALID_ARGUMENT' | 'UNAUTHENTICATED' | 'NOT_FOUND' | 'ALREADY_EXISTS' | 'RESOURCE_EXHAUSTED' | 'INTERNAL' | 'UNAVAILABLE';

const HTTP_CODE: Record<GoogleStatus, number> = {
  INVALID_ARGUMENT: 400,
  UNAUTHENTICATED: 401,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
};

/** Google's JSON error shape (https://cloud.google.com/apis/design/errors#http_mapping). */
export function sendGoogleError(res: JsonAnswer, status: GoogleStatus, message: string): void {
  const code = HTTP_CODE[status];
  res.status(code).json({ error: { code, message, status } });
}
