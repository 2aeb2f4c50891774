import type { JobsOptions } from 'bullmq';
import type { UpstreamReceipt } from '@switchboard/domain';
import type { SmsAdapter } from '@switchboard/providers';
import { enqueueProviderCallback, noReplicaAck, providerCallbackJobId, type JobAdder, type ProviderCallbackJob, type ReplicaAck } from '@switchboard/queues';
import { createBatcher } from '@switchboard/runtime';
import type { PendingAcceptances } from '../dispatch/pending-acceptances';

/**
 * SMS receipts and mobile-originated texts arrive on the dispatcher's own SMPP session, not through the
 * gateway. Each is queued as a provider callback like any other upstream's, and the handler resolves
 * only once the job is in Redis: the adapter answers `deliver_sm_resp` after that, so anything not yet
 * queued is redelivered by the SMSC. Receipts arriving while the previous receipts' job is being queued go
 * together into the next job (docs/performance/dispatch.md#dispatch): one job per receipt was most of the Redis work
 * of an SMS. No receipt waits for a timer, so an SMSC that keeps one deliver_sm in flight is not slowed.
 * A receipt alone keeps its own job id, which makes a redelivered duplicate a no-op; applying a receipt
 * twice changes nothing either way (status only moves forward).
 */
/** At most 100 SMPP receipts per callback job: the receipt batch of one transaction (docs/performance/dispatch.md#dispatch). */
export const SMPP_RECEIPT_BATCH_MAX = 100;

export function forwardSmsCallbacks(deps: {
  sms: SmsAdapter;
  queue: JobAdder<ProviderCallbackJob>;
  clock: () => number;
  /** The receipt-match retries (provider-callback.processor.ts). */
  retry: Pick<JobsOptions, 'attempts' | 'backoff'>;
  /** Receipts per job at most ({@link SMPP_RECEIPT_BATCH_MAX} in the dispatcher). @defaultValue 1: a job per receipt */
  maxReceiptsPerJob?: number;
  /**
   * This process's acceptances being written: a receipt for one of them is queued once it is committed, so its
   * job matches on the first run instead of retrying. @defaultValue none: every receipt is queued at once
   */
  pendingAcceptances?: PendingAcceptances;
  /** How long a receipt waits for its acceptance at most; past it, the job's own retries take over. */
  maxAcceptanceWaitMs?: number;
  /**
   * Confirms each job on REDIS_MIN_REPLICAS_ACK replicas before the SMSC hears `deliver_sm_resp`: once answered,
   * the SMSC forgets the receipt, so a job lost with its master would lose it for good; a failed confirmation is
   * answered as a failure, and the SMSC redelivers (docs/operations.md#redis-failover). @defaultValue none
   */
  replicaAck?: ReplicaAck;
}): void {
  const { sms, queue, clock, retry } = deps;
  const replicaAck = deps.replicaAck ?? noReplicaAck;
  const callback = (contents: Pick<ProviderCallbackJob, 'receipts' | 'inbound'>): ProviderCallbackJob => ({
    source: 'sms',
    received_at: new Date(clock()).toISOString(),
    template_updates: [],
    ...contents,
  });
  const forwardReceipts = createBatcher<UpstreamReceipt, void>({
    runOne: async (receipt) => {
      await enqueueProviderCallback(queue, callback({ receipts: [receipt], inbound: [] }), providerCallbackJobId.smsReceipt(receipt), retry);
      await replicaAck();
    },
    runMany: async (receipts) => {
      await enqueueProviderCallback(queue, callback({ receipts, inbound: [] }), providerCallbackJobId.smsReceipts(receipts), retry);
      await replicaAck();
      return receipts.map(() => undefined);
    },
    flush: 'after-previous',
    maxSize: deps.maxReceiptsPerJob ?? 1,
    // When the one job cannot be queued, each receipt is tried alone; one that fails is refused to the SMSC, which redelivers it.
    onGroupFailure: 'retry-each-alone',
  });
  const acceptanceOf = (receipt: UpstreamReceipt) =>
    (receipt.partId !== undefined ? deps.pendingAcceptances?.settled(receipt.partId) : undefined) ??
    deps.pendingAcceptances?.settled(receipt.upstreamMessageId);
  sms.onReceipt(async (receipt) => {
    const acceptance = acceptanceOf(receipt);
    if (acceptance) await waitAtMost(acceptance, deps.maxAcceptanceWaitMs ?? 1_000);
    await forwardReceipts(receipt);
  });
  sms.onInbound(async (inbound) => {
    await enqueueProviderCallback(queue, callback({ receipts: [], inbound: [inbound] }), providerCallbackJobId.smsInbound(inbound), retry);
    await replicaAck();
  });
}

function waitAtMost(settles: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return Promise.race([settles, timeout]).finally(() => clearTimeout(timer));
}
