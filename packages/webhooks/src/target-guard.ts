import { classifyParsed, type AddressClass } from './address-classes';
import { parseIpLiteral } from './ip-address';

/**
 * Where deliveries may connect (docs/webhooks.md#target-guard-ssrf). The defaults refuse everything that is not public
 * HTTPS; the switches exist for local runs and tests only.
 */
export interface TargetPolicy {
  /** @defaultValue false */
  allowHttp: boolean;
  /** Loopback, private, link-local, CGNAT… become reachable; metadata addresses stay refused. @defaultValue false */
  allowPrivateNetworks: boolean;
  /** Exact host names whose resolved addresses skip the range check (metadata still refused). @defaultValue [] */
  allowedHosts: readonly string[];
}

export const STRICT_POLICY: TargetPolicy = Object.freeze({ allowHttp: false, allowPrivateNetworks: false, allowedHosts: [] });

export type GuardVerdict = { allowed: true } | { allowed: false; reason: string };

const ALLOWED: GuardVerdict = { allowed: true };

function hostAllowed(policy: TargetPolicy, host: string): boolean {
  return policy.allowedHosts.some((h) => h.toLowerCase() === host.toLowerCase());
}

function verdictFor(cls: AddressClass | null, address: string, policy: TargetPolicy, host: string): GuardVerdict {
  if (cls === null) return ALLOWED;
  if (cls === 'metadata') return { allowed: false, reason: `address_refused: ${address} is a cloud metadata address` };
  if (policy.allowPrivateNetworks || hostAllowed(policy, host)) return ALLOWED;
  return { allowed: false, reason: `address_refused: ${address} is ${cls.replace('_', '-')}` };
}

/** Checks one resolved address for `host` (the name in the URL), as the connect-time guard does. */
export function checkResolvedAddress(address: string, host: string, policy: TargetPolicy): GuardVerdict {
  const parsed = parseIpLiteral(address);
  if (!parsed) return { allowed: false, reason: `address_refused: ${address} is not an IP address` };
  return verdictFor(classifyParsed(parsed), address, policy, host);
}

/** The URL's host without IPv6 brackets. */
export function urlHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * The checks that need no DNS: scheme, credentials, and an IP-literal host in a refused range.
 * Used at registration (422 `webhook_url_not_allowed`) and again before every attempt; names are
 * checked on their resolved addresses at connect time by the guarded lookup.
 */
export function checkWebhookUrl(raw: string, policy: TargetPolicy): GuardVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { allowed: false, reason: 'invalid_url: not an absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { allowed: false, reason: `scheme_refused: ${url.protocol} is not http(s)` };
  if (url.protocol === 'http:' && !policy.allowHttp) return { allowed: false, reason: 'scheme_refused: http:// is not allowed, use https://' };
  if (url.username || url.password) return { allowed: false, reason: 'invalid_url: credentials in the URL are not allowed' };
  const host = urlHost(url);
  if (host === '') return { allowed: false, reason: 'invalid_url: no host' };
  // WHATWG URL parsing already turns `127.1` or `0x7f000001` into dotted form; parseIpLiteral
  // covers any form it leaves, so a literal is classified as the resolver would read it.
  const literal = parseIpLiteral(host);
  if (literal) return verdictFor(classifyParsed(literal), host, policy, host);
  // RFC 6761: `localhost` names are loopback whatever DNS says, so they are judged without resolving.
  const lower = host.toLowerCase();
  if (lower === 'localhost' || lower.endsWith('.localhost')) return verdictFor('loopback', host, policy, host);
  return ALLOWED;
}
