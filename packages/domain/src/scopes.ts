/** API key scopes (docs/authentication.md#scopes); `*` grants all of them. */
const SCOPES = [
  'messages:write',
  'messages:read',
  'calls:write',
  'calls:read',
  'templates:write',
  'webhooks:write',
  'agents:write',
  /** Operator views such as GET /v1/upstreams (docs/api.md#get-v1upstreams). */
  'admin',
] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope | '*' {
  return value === '*' || (SCOPES as readonly string[]).includes(value);
}

export function hasScope(granted: readonly string[], needed: Scope): boolean {
  return granted.includes('*') || granted.includes(needed);
}
