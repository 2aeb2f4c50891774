import type { JobsOptions } from 'bullmq';
import type { SmsAdapter } from '@switchboard/providers';
import { enqueueProviderCallback, providerCallbackJobId, type JobAdder, type ProviderCallbackJob } from '@switchboard/queues';

/**
 * SMS receipts and mobile-originated texts arrive on the dispatcher's own SMPP session, not through the
 * gateway. Each is queued as a provider callback like any other upstream's, and the handler resolves
 * only once the job is in Redis: the adapter answers `deliver_sm_resp` after that, so anything not yet
 * queued is redelivered by the SMSC. The job id makes a redelivered duplicate a no-op.
 */
export function forwardSmsCallbacks(deps: {
  sms: SmsAdapter;
  queue: JobAdder<ProviderCallbackJob>;
  clock: () => number;
  /** The receipt-match retries (RECEIPT_MATCH_ATTEMPTS, RECEIPT_RETRY_BACKOFF_MS). */
  retry: Pick<JobsOptions, 'attempts' | 'backoff'>;
}): void {
  const { sms, queue, clock, retry } = deps;
  const callback = (contents: Pick<ProviderCallbackJob, 'receipts' | 'inbound'>): ProviderCallbackJob => ({
    source: 'sms',
    received_at: new Date(clock()).toISOString(),
    template_updates: [],
    ...contents,
  });
  sms.onReceipt(async (receipt) => {
    await enqueueProviderCallback(queue, callback({ receipts: [receipt], inbound: [] }), providerCallbackJobId.smsReceipt(receipt), retry);
  });
  sms.onInbound(async (inbound) => {
    await enqueueProviderCallback(queue, callback({ receipts: [], inbound: [inbound] }), providerCallbackJobId.smsInbound(inbound), retry);
  });
}
