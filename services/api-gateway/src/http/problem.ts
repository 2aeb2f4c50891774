import type { Response } from 'express';
import { ApiError, type FieldError } from '@switchboard/domain';

/** RFC 9457 problem document with the extensions of docs/errors.md. */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  request_id: string;
  errors?: FieldError[];
  error_id?: string;
}

export function problemDocument(error: ApiError, requestId: string, errorId?: string): ProblemDocument {
  const doc: ProblemDocument = {
    type: `/errors/${error.code}`,
    title: error.title,
    status: error.status,
    detail: error.message,
    code: error.code,
    request_id: requestId,
  };
  if (error.errors && error.errors.length > 0) doc.errors = error.errors;
  if (errorId) doc.error_id = errorId;
  return doc;
}

export function sendProblem(res: Response, error: ApiError, requestId: string, errorId?: string): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res
    .status(error.status)
    .type('application/problem+json')
    .send(JSON.stringify(problemDocument(error, requestId, errorId)));
}

/** Errors of this gateway that have no class in the domain hierarchy. */
export const gatewayErrors = {
  unsupportedMediaType: () =>
    new ApiError(415, 'unsupported_media_type', 'Unsupported media type', 'Send the body as application/json (UTF-8, not compressed).'),
  payloadTooLarge: (limitBytes: number) => new ApiError(413, 'payload_too_large', 'Payload too large', `The body exceeds ${limitBytes} bytes.`),
  invalidJson: (detail = 'The body is not valid JSON.') => new ApiError(400, 'invalid_json', 'Invalid JSON', detail),
  invalidSignature: () => new ApiError(401, 'unauthorized', 'Unauthorized', 'The request signature does not verify.'),
  forbidden: (detail: string) => new ApiError(403, 'forbidden', 'Forbidden', detail),
  badRequest: (detail: string) => new ApiError(400, 'bad_request', 'Bad request', detail),
  methodNotAllowed: (method: string, allowed: string[]) =>
    new ApiError(405, 'method_not_allowed', 'Method not allowed', `${method} is not supported on this path; Allow lists what is.`, [], {
      Allow: allowed.join(', '),
    }),
};
