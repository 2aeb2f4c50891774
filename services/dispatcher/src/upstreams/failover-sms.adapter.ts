import type { SmsAdapter } from '@switchboard/providers';
import { resendIsSafe } from '../dispatch/send-failure.policy';
import type { SmsUpstreamConfig } from './sms-upstreams.config';
import { createUpstreamFailover, type FailoverParts } from './upstream-failover';

export interface NamedSmsUpstream {
  config: SmsUpstreamConfig;
  adapter: SmsAdapter;
}

/**
 * One SMS adapter over several SMSCs (docs/routing.md#several-upstreams-per-channel). A transient refusal
 * that proves the SMSC took nothing (an error status, no bind) moves on to the next one within the same
 * attempt, with the same user_message_reference. A send of unknown outcome (no submit_sm_resp) is not
 * moved on: the attempt stays open for the receipt, as with one SMSC, and only a later attempt goes elsewhere.
 */
export function createFailoverSmsAdapter(deps: FailoverParts & { upstreams: NamedSmsUpstream[] }): SmsAdapter {
  const { upstreams } = deps;
  const failover = createUpstreamFailover({
    ...deps,
    channel: 'sms',
    upstreams: upstreams.map((u) => ({ name: u.config.name, priority: u.config.priority, weight: u.config.weight, adapter: u.adapter })),
    mayMoveOn: (error) => resendIsSafe('sms', error),
  });
  return {
    send: (message) => failover((adapter) => adapter.send(message)),
    onReceipt: (handler) => upstreams.forEach((u) => u.adapter.onReceipt(handler)),
    onInbound: (handler) => upstreams.forEach((u) => u.adapter.onInbound(handler)),
    ready: async () => {
      await Promise.all(upstreams.map((u) => u.adapter.ready()));
    },
    close: async () => {
      await Promise.all(upstreams.map((u) => u.adapter.close()));
    },
  };
}
