// The console's one HTTP client: same origin, the session cookie rides along, and every state-changing
// request repeats the session's CSRF token in X-CSRF-Token (docs/console.md#csrf).

export interface Problem {
  status: number;
  code: string;
  detail: string;
  errors?: Array<{ field: string; message: string }>;
}

export class ApiProblem extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail);
  }
}

let csrfToken = '';
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

/** Called when any request answers 401: the session ended, the page goes back to sign-in. */
let onSignedOut: () => void = () => undefined;
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken;
  const res = await fetch(`/console/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  if (res.status === 204) return undefined as T;
  const json: unknown = await res.json().catch(() => ({ status: res.status, code: 'unreadable', detail: `HTTP ${res.status}` }));
  if (!res.ok) {
    if (res.status === 401 && !path.startsWith('/session')) onSignedOut();
    throw new ApiProblem(json as Problem);
  }
  return json as T;
}

export function query(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) search.set(k, v);
  const text = search.toString();
  return text ? `?${text}` : '';
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/** A text field of a submitted form: its value, or '' when the form has no such field (these forms have no file inputs). */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}
