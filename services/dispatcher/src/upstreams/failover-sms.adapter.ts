import type { Logger } from '@switchboard/logger';
import { isProviderError, ProviderError, type SendAccepted, type SmsAdapter } from '@switchboard/providers';
import { BREAKER_STATES, type BreakerRecord, type UpstreamBreakerStore } from '@switchboard/shared-state';
import { resendIsSafe } from '../dispatch/send-failure.policy';
import type { DispatcherMetrics } from '../metrics';
import { admit, afterCall, isGoodCall, type BreakerPolicy } from './circuit-breaker';
import type { SmsUpstreamConfig } from './sms-upstreams.config';
import { orderCandidates } from './upstream-selection';

export interface NamedSmsUpstream {
  config: SmsUpstreamConfig;
  adapter: SmsAdapter;
}

const CLOSED: BreakerRecord = { state: 'closed', openedAt: 0, probeUntil: 0, recent: [] };

/**
 * One SMS adapter over several SMSCs (docs/routing.md#several-upstreams-per-channel). Each send tries
 * the upstreams in priority and weight order, skipping those whose breaker is open. A transient refusal
 * that proves the SMSC took nothing (an error status, no bind) moves on to the next one within the same
 * attempt, with the same user_message_reference. A send of unknown outcome (no submit_sm_resp) is not
 * moved on: the attempt stays open for the receipt, as with one SMSC, and only a later attempt goes elsewhere.
 * If Redis cannot be read the breakers are taken as closed: better a failing SMSC than no SMS at all.
 */
export function createFailoverSmsAdapter(deps: {
  upstreams: NamedSmsUpstream[];
  breakers: UpstreamBreakerStore;
  policy: BreakerPolicy;
  clock: () => number;
  logger: Logger;
  metrics: Pick<DispatcherMetrics, 'upstreamCalls' | 'upstreamFailures' | 'upstreamBreakerState'>;
  random?: () => number;
}): SmsAdapter {
  const { upstreams, breakers, policy, clock, logger, metrics } = deps;
  const labels = (name: string) => ({ channel: 'sms', upstream: name });

  const readBreaker = async (name: string): Promise<BreakerRecord> => {
    try {
      return await breakers.read(name);
    } catch (error) {
      logger.warn('circuit breaker unreadable; treating it as closed', { upstream: name, error: String(error) });
      return CLOSED;
    }
  };

  const report = async (name: string, good: boolean, wasProbe: boolean): Promise<void> => {
    metrics.upstreamCalls.inc(labels(name));
    if (!good) metrics.upstreamFailures.inc(labels(name));
    try {
      const record = await breakers.record(name, good);
      const change = afterCall(record, good, wasProbe, clock(), policy);
      if (change && (await breakers.transition(name, change.from, change.next, change.clearWindow))) {
        metrics.upstreamBreakerState.set(labels(name), BREAKER_STATES.indexOf(change.next.state));
        logger.warn('circuit breaker changed state', { channel: 'sms', upstream: name, from: change.from, to: change.next.state });
      }
    } catch (error) {
      logger.warn('circuit breaker not updated', { upstream: name, error: String(error) });
    }
  };

  const send = async (message: Parameters<SmsAdapter['send']>[0]): Promise<SendAccepted> => {
    let lastError: unknown;
    const order = orderCandidates(
      upstreams.map((u) => ({ ...u, name: u.config.name, priority: u.config.priority, weight: u.config.weight })),
      deps.random,
    );
    for (const upstream of order) {
      const admission = admit(await readBreaker(upstream.name), clock(), policy);
      if (admission.verdict === 'reject') continue;
      const wasProbe = admission.verdict === 'probe';
      if (admission.verdict === 'probe') {
        // Of several dispatchers seeing the cool-down end, only the one that moves the state probes.
        const won = await breakers.transition(upstream.name, admission.from, admission.next, false).catch(() => false);
        if (!won) continue;
        metrics.upstreamBreakerState.set(labels(upstream.name), BREAKER_STATES.indexOf('half_open'));
        logger.info('circuit breaker half-open; probing', { channel: 'sms', upstream: upstream.name });
      }
      const started = clock();
      try {
        const accepted = await upstream.adapter.send(message);
        await report(upstream.name, isGoodCall({ failed: false, durationMs: clock() - started }, policy), wasProbe);
        return accepted;
      } catch (error) {
        // Other refusals (bad number, throttling) are the SMSC working as it should.
        const upstreamFault = !isProviderError(error) || error.kind === 'transient';
        await report(upstream.name, isGoodCall({ failed: upstreamFault, durationMs: clock() - started }, policy), wasProbe);
        if (!upstreamFault || !resendIsSafe('sms', error)) throw error;
        lastError = error;
        logger.warn('sms upstream failed transiently; trying the next one', { upstream: upstream.name, error: String(error) });
      }
    }
    throw lastError ?? new ProviderError('transient', 'no_upstream_available', 'every sms upstream has an open circuit breaker');
  };

  return {
    send,
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
