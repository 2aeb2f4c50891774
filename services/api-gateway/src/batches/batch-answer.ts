import type { ApiError } from '@switchboard/domain';
import { estimatedDelivery } from '@switchboard/domain';
import type { SendMessageJob } from '@switchboard/queues';
import { problemDocument } from '../http/problem';

export type Outcome = { job: SendMessageJob } | { error: ApiError };

const quoted = (value: string) => JSON.stringify(value);

/**
 * `JSON.stringify(acceptedBody(job))`, the same bytes, written without building the object: a batch
 * answers up to 1,000 of them (`acceptedBody` in messages/message-acceptance.ts is the object form) (docs/performance/batch.md#batch-accept-benchbatchmjs). A unit test compares the two.
 */
export function acceptedJson(job: SendMessageJob): string {
  const status = job.scheduled_until ? 'scheduled' : 'queued';
  return `{"id":${quoted(job.message_id)},"status":"${status}","channel":${quoted(job.channel)},"recipient":${quoted(job.recipient)},"created_at":${quoted(job.created_at)},"estimated_delivery":${quoted(estimatedDelivery(job.channel))},"cost_units":${JSON.stringify(job.cost_units)}}`;
}

/**
 * The 202 body of docs/messages.md#batch-sends: one result per item, in order, each the single-send answer
 * or a problem document. The same bytes as `JSON.stringify` of the object, built from strings.
 */
export function batchAnswerJson(batchId: string, createdAt: string, outcomes: readonly Outcome[], requestId: string): string {
  let accepted = 0;
  const results = outcomes.map((o) => {
    if (!('job' in o)) return JSON.stringify(problemDocument(o.error, requestId));
    accepted += 1;
    return acceptedJson(o.job);
  });
  return `{"batch_id":${quoted(batchId)},"created_at":${quoted(createdAt)},"accepted":${accepted},"rejected":${outcomes.length - accepted},"results":[${results.join(',')}]}`;
}
