/**
 * The API's error hierarchy. Each error carries the HTTP status and the stable `code` of docs/errors.md;
 * the gateway's error middleware turns them into RFC 9457 problem documents.
 */
export interface FieldError {
  /** JSON Pointer into the request body (or a header/query name such as `header:Idempotency-Key`). */
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    detail?: string,
    readonly errors?: FieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ?? title);
  }
}

export class ValidationError extends ApiError {
  constructor(errors: FieldError[], detail = 'The request does not match the schema.', code = 'validation_failed') {
    super(400, code, 'Validation failed', detail, errors);
  }
}

export class UnprocessableError extends ApiError {
  constructor(code: string, detail: string, errors?: FieldError[]) {
    super(422, code, 'Unprocessable request', detail, errors);
  }
}

export class UnauthorizedError extends ApiError {
  constructor(detail = 'A valid API key is required.') {
    super(401, 'unauthorized', 'Unauthorized', detail, undefined, { 'WWW-Authenticate': 'Bearer' });
  }
}

export class InsufficientScopeError extends ApiError {
  constructor(scope: string) {
    super(403, 'insufficient_scope', 'Insufficient scope', `This API key lacks the scope ${scope}.`);
  }
}

export class NotFoundError extends ApiError {
  constructor(detail = 'No such resource.') {
    super(404, 'not_found', 'Not found', detail);
  }
}

export class ConflictError extends ApiError {
  constructor(code: string, detail: string, headers: Record<string, string> = {}) {
    super(409, code, 'Conflict', detail, undefined, headers);
  }
}

export class RateLimitedError extends ApiError {
  constructor(retryAfterSeconds: number) {
    super(429, 'rate_limited', 'Too many requests', 'The rate limit of this API key is exhausted.', undefined, {
      'Retry-After': String(retryAfterSeconds),
    });
  }
}

export class UnavailableError extends ApiError {
  constructor(detail = 'The service cannot take the request right now; nothing was accepted.') {
    super(503, 'unavailable', 'Service unavailable', detail, undefined, { 'Retry-After': '1' });
  }
}

/**
 * Redis took the writes but fewer replicas than REDIS_MIN_REPLICAS_ACK confirmed them in time
 * (docs/errors.md#replication_unconfirmed). Unlike `unavailable`, the message may exist and be sent: the
 * same request with the same Idempotency-Key answers it.
 */
export class ReplicationUnconfirmedError extends ApiError {
  constructor() {
    super(
      503,
      'replication_unconfirmed',
      'Service unavailable',
      'Fewer Redis replicas than required confirmed the request in time; it may still take effect. Retry with the same Idempotency-Key.',
      undefined,
      { 'Retry-After': '1' },
    );
  }
}

/** A number belongs to at most one account (docs/numbers.md); re-adding it to its owner is not an error. */
export class NumberAlreadyProvisionedError extends ConflictError {
  constructor(readonly e164: string) {
    super('number_already_provisioned', `${e164} is already provisioned for another account.`);
  }
}
