import type { RcsAdapter } from '@switchboard/providers';
import { resendIsSafe } from '../dispatch/send-failure.policy';
import { createUpstreamFailover, type FailoverParts, type FailoverUpstream } from './upstream-failover';

/**
 * One RCS adapter over several RBM upstreams (docs/routing.md#several-upstreams-per-channel). RBM dedupes on
 * our messageId, but only within one upstream: another upstream (another agent or region) would send the
 * same message again. So, as for chat, only an answer that proves nothing was sent moves a send on within
 * the same attempt; an unknown outcome stays open and waits for a receipt. The capability check reads
 * nothing into any upstream's state, so it moves on after any transient failure.
 */
export function createFailoverRcsAdapter(deps: FailoverParts & { upstreams: FailoverUpstream<RcsAdapter>[] }): RcsAdapter {
  const sends = createUpstreamFailover({ ...deps, channel: 'rcs', mayMoveOn: (error) => resendIsSafe('rcs', error, { deduped: false }) });
  const checks = createUpstreamFailover({ ...deps, channel: 'rcs', mayMoveOn: () => true });
  return {
    send: (message) => sends((adapter) => adapter.send(message)),
    isReachable: (to) => checks((adapter) => adapter.isReachable(to)),
  };
}
