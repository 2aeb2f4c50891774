import type { JobsOptions, Queue } from 'bullmq';
import type { SmsAdapter } from '@switchboard/providers';
import { JOB_NAMES, type ProviderCallbackJob } from '@switchboard/queues';

/** BullMQ reserves `:` in custom job ids for its own keys. */
function jobIdPart(value: string): string {
  return value.replace(/:/g, '_');
}

/**
 * SMS receipts and mobile-originated texts arrive on the dispatcher's own SMPP session, not through the
 * gateway. Each is queued as a provider callback like any other upstream's, and the handler resolves
 * only once the job is in Redis: the adapter answers `deliver_sm_resp` after that, so anything not yet
 * queued is redelivered by the SMSC. The job id makes a redelivered duplicate a no-op.
 */
export function forwardSmsCallbacks(deps: {
  sms: SmsAdapter;
  queue: Pick<Queue<ProviderCallbackJob>, 'add'>;
  clock: () => number;
  jobOptions: JobsOptions;
}): void {
  const { sms, queue, clock, jobOptions } = deps;
  sms.onReceipt(async (receipt) => {
    const job: ProviderCallbackJob = {
      source: 'sms',
      received_at: new Date(clock()).toISOString(),
      receipts: [receipt],
      inbound: [],
      template_updates: [],
    };
    await queue.add(JOB_NAMES.providerCallback, job, { ...jobOptions, jobId: `sms-${jobIdPart(receipt.upstreamMessageId)}-${receipt.status}` });
  });
  sms.onInbound(async (inbound) => {
    const job: ProviderCallbackJob = {
      source: 'sms',
      received_at: new Date(clock()).toISOString(),
      receipts: [],
      inbound: [inbound],
      template_updates: [],
    };
    await queue.add(JOB_NAMES.providerCallback, job, { ...jobOptions, jobId: `sms-mo-${jobIdPart(inbound.upstreamId)}` });
  });
}
