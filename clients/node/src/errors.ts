/** Everything this package throws extends SwitchboardError, so one `instanceof` catches them all. */
export class SwitchboardError extends Error {
  override name = 'SwitchboardError';
}

/** One entry of a problem's `errors[]`: `field` is a JSON Pointer into the body, or `header:<name>` / `query:<name>`. */
export interface FieldError {
  field: string;
  message: string;
}

/** The application/problem+json body of an error answer (docs/errors.md). Unknown members are kept. */
export interface Problem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  request_id?: string;
  error_id?: string;
  errors?: FieldError[];
  [member: string]: unknown;
}

/** A non-2xx answer, after every retry, with the fields of its problem document (docs/errors.md). */
export class ApiError extends SwitchboardError {
  override name = 'ApiError';
  readonly status: number;
  readonly type: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  /** Stable snake_case code such as `validation_failed`; branch on this, not on `title`. */
  readonly code: string | undefined;
  /** The gateway's request id (the body's `request_id`, else the `X-Request-Id` header): quote it to support. */
  readonly requestId: string | undefined;
  readonly errors: FieldError[];
  readonly problem: Problem;
  readonly headers: Record<string, string>;

  constructor(status: number, problem: Problem, headers: Record<string, string>) {
    const fields = (problem.errors ?? []).map((e) => `${e.field} ${e.message}`).join('; ');
    super([`${status} ${problem.code ?? problem.title ?? 'error'}`, problem.detail, fields].filter(Boolean).join(': '));
    this.status = status;
    this.type = problem.type;
    this.title = problem.title;
    this.detail = problem.detail;
    this.code = problem.code;
    this.requestId = problem.request_id ?? headers['x-request-id'];
    this.errors = Array.isArray(problem.errors) ? problem.errors : [];
    this.problem = problem;
    this.headers = headers;
  }
}

/** No HTTP answer arrived (connection refused or reset, timeout), after every retry. `cause` holds the last error. */
export class NetworkError extends SwitchboardError {
  override name = 'NetworkError';
}

/** A webhook delivery whose headers, signature or timestamp do not verify. */
export class WebhookVerificationError extends SwitchboardError {
  override name = 'WebhookVerificationError';
}
