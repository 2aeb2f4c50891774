import { createHash } from 'node:crypto';
import type { JobsOptions } from 'bullmq';
import type { UpstreamInbound, UpstreamReceipt, UpstreamTemplateUpdate } from '@switchboard/domain';
import { exponentialRetry, JOB_RETENTION } from '../job-options';
import { payloadType, type JobAdder, type QueueContract } from '../queue-contract';

/**
 * Verified, normalised upstream callbacks (receipts, inbound replies, template reviews): produced by
 * the gateway (HTTP callbacks) and the dispatcher (its SMPP session), consumed by the dispatcher.
 * Renaming this queue or its job needs a migration plan: waiting jobs would be orphaned.
 */
export const PROVIDER_CALLBACKS_QUEUE = {
  name: 'provider-callbacks',
  jobs: { providerCallback: 'provider-callback' },
  jobOptions: { ...exponentialRetry(8, 1_000), ...JOB_RETENTION },
  payload: payloadType<ProviderCallbackJob>(),
} as const satisfies QueueContract;

export type CallbackSource = 'chat' | 'rcs' | 'sms';

/** A verified upstream callback, already parsed into the upstream event shapes of `@switchboard/domain`. */
export interface ProviderCallbackJob {
  source: CallbackSource;
  received_at: string;
  receipts: UpstreamReceipt[];
  inbound: UpstreamInbound[];
  template_updates: UpstreamTemplateUpdate[];
}

/** BullMQ reserves `:` in custom job ids for its own keys. */
function jobIdPart(value: string): string {
  return value.replace(/:/g, '_');
}

/**
 * Job ids make a redelivered callback a no-op: an HTTP callback is named by a digest of what the
 * upstream signed, an SMPP one by the SMSC's message id (and status, for receipts).
 */
export const providerCallbackJobId = {
  signedBody: (source: CallbackSource, bodyDigest: string) => `${source}-${bodyDigest}`,
  // Each part of a long SMS has its own receipt under its own SMSC id (docs/routing.md#multi-part-sms).
  smsReceipt: (r: Pick<UpstreamReceipt, 'upstreamMessageId' | 'partId' | 'status'>) => `sms-${jobIdPart(r.partId ?? r.upstreamMessageId)}-${r.status}`,
  smsInbound: (i: Pick<UpstreamInbound, 'upstreamId'>) => `sms-mo-${jobIdPart(i.upstreamId)}`,
  /**
   * Several SMPP receipts forwarded as one job: named by a digest of every receipt's own id, so that the same
   * receipts forwarded again are the same job, while a batch that differs by one receipt never is.
   */
  smsReceipts: (receipts: ReadonlyArray<Pick<UpstreamReceipt, 'upstreamMessageId' | 'partId' | 'status'>>) =>
    `sms-receipts-${createHash('sha1')
      .update(receipts.map((r) => providerCallbackJobId.smsReceipt(r)).join('\n'))
      .digest('hex')}`,
  /** Several HTTP callbacks' receipts queued as one job: named by a digest of each callback's own digest, in order. */
  signedBodies: (source: CallbackSource, bodyDigests: readonly string[]) =>
    `${source}-group-${createHash('sha1').update(bodyDigests.join('\n')).digest('hex')}`,
};

/** `retry` overrides the contract's attempts and backoff (the dispatcher's receipt-match settings). */
export function enqueueProviderCallback(
  queue: JobAdder<ProviderCallbackJob>,
  job: ProviderCallbackJob,
  jobId: string,
  retry?: Pick<JobsOptions, 'attempts' | 'backoff'>,
): Promise<unknown> {
  return queue.add(PROVIDER_CALLBACKS_QUEUE.jobs.providerCallback, job, { ...PROVIDER_CALLBACKS_QUEUE.jobOptions, ...retry, jobId });
}
