import type { ChatAdapter } from '@switchboard/providers';
import { resendIsSafe } from '../dispatch/send-failure.policy';
import { createUpstreamFailover, type FailoverParts, type FailoverUpstream } from './upstream-failover';

/**
 * One chat adapter over several Cloud API upstreams (docs/routing.md#several-upstreams-per-channel).
 * The Cloud API has no idempotency key, so only an answer that proves nothing was sent (a 5xx, a refused
 * connection) moves a send on to the next upstream within the same attempt. A timeout after the request
 * left is an unknown outcome: it is thrown as with one upstream, the attempt stays open and the status
 * webhook decides (reconcile), and only a later attempt may go elsewhere.
 * Templates are created at the first upstream by priority only, whatever its breaker says: a template
 * belongs to one business account, and the others' must be created there by their owner.
 */
export function createFailoverChatAdapter(deps: FailoverParts & { upstreams: FailoverUpstream<ChatAdapter>[] }): ChatAdapter {
  const failover = createUpstreamFailover({ ...deps, channel: 'chat', mayMoveOn: (error) => resendIsSafe('chat', error) });
  const primary = [...deps.upstreams].sort((a, b) => a.priority - b.priority)[0];
  return {
    send: (message) => failover((adapter) => adapter.send(message)),
    createTemplate: (template) => primary.adapter.createTemplate(template),
  };
}
