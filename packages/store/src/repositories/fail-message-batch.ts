import type { Queryable } from '../db';
import { planMessageChange, type ChangeResult } from '../message-change';
import { writeMessageChanges, type PlannedStep } from '../message-change-batch';
import { lockWithAttempts } from './send-batch';

export interface FailMessageInput {
  messageId: string;
  status: 'failed' | 'undelivered';
  errorCode: string;
  errorMessage: string;
  at: Date;
}

/**
 * Ends messages that never reached an upstream (ttl expiry, no channel left, invalid content) in the caller's
 * transaction: the locks, the attempts (the events show them), one write of the message changes
 * (docs/performance/dispatch.md#send-batches). The inputs are applied in their order on the rows held in memory.
 */
export async function failMessageBatch(tx: Queryable, inputs: readonly FailMessageInput[]): Promise<ChangeResult[]> {
  const { rows, attemptsOf, rowOf } = await lockWithAttempts(
    tx,
    inputs.map((input) => input.messageId),
  );
  const steps: PlannedStep[] = [];
  const results: ChangeResult[] = [];
  for (const input of inputs) {
    const row = rowOf(input.messageId);
    const plan = planMessageChange(row, {
      status: input.status,
      at: input.at,
      carrierStatusCode: input.errorCode,
      error: { code: input.errorCode, message: input.errorMessage },
    });
    if (!plan) {
      results.push({ row, changed: false, events: [] });
      continue;
    }
    rows.set(row.id, plan.next);
    steps.push({ plan, attempts: attemptsOf.get(row.id) ?? [] });
    results.push({ row: plan.next, changed: true, events: [] });
  }
  const events = await writeMessageChanges(tx, steps);
  let next = 0;
  for (const result of results) if (result.changed) result.events = events[next++];
  return results;
}
