import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { checkResolvedAddress, type TargetPolicy } from './target-guard';

/** A refusal by the target guard; `reason` is what the attempt row records. */
export class TargetRefusedError extends Error {
  readonly code = 'ETARGETREFUSED';
  constructor(readonly reason: string) {
    super(reason);
  }
}

export type Resolver = (host: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request`: resolves the name itself, refuses it when any resolved address is in
 * a refused range, and hands the socket exactly the address it checked. The connection therefore goes
 * to a checked IP, so a name that re-resolves to a private address between check and connect (DNS
 * rebinding) cannot slip through. Refusing on any bad address, rather than picking a good one, keeps
 * a half-poisoned record from being used at all.
 */
export function createGuardedLookup(policy: TargetPolicy, resolver: Resolver = systemResolver) {
  return (hostname: string, options: { all?: boolean } | number | undefined, callback: LookupCallback): void => {
    resolver(hostname).then(
      (addresses) => {
        if (addresses.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
        for (const a of addresses) {
          const verdict = checkResolvedAddress(a.address, hostname, policy);
          if (!verdict.allowed) return callback(new TargetRefusedError(`${verdict.reason} (resolved from ${hostname})`), '', 4);
        }
        if (typeof options === 'object' && options?.all) return callback(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 4),
    );
  };
}
