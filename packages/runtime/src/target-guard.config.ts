import type { EnvReader } from './env';

/** What the target guard lets through (the shape of `TargetPolicy` in packages/webhooks). */
export interface TargetGuardSettings {
  allowHttp: boolean;
  allowPrivateNetworks: boolean;
  allowedHosts: readonly string[];
}

/**
 * The target guard's settings, one set for every URL a customer chooses and we connect to: webhook endpoints and
 * `callback_url`, chat media links, voice `http` nodes (docs/webhooks.md#target-guard-ssrf). Opening it is one
 * decision, for local stacks and tests, so each service reads the same three names.
 */
export function readTargetGuard(r: EnvReader): TargetGuardSettings {
  return Object.freeze({
    allowHttp: r.bool('TARGET_ALLOW_HTTP', false),
    allowPrivateNetworks: r.bool('TARGET_ALLOW_PRIVATE_NETWORKS', false),
    allowedHosts: Object.freeze(r.list('TARGET_ALLOWED_HOSTS', [])),
  });
}
