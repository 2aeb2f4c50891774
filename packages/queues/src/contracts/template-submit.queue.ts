import type { KeyMode } from '@switchboard/domain';
import { exponentialRetry, JOB_RETENTION } from '../job-options';
import { payloadType, type JobAdder, type QueueContract } from '../queue-contract';

/**
 * Template submission to the chat upstream: one job per created template (job id = template id),
 * produced by the gateway, consumed by the dispatcher. Renaming this queue or its job needs a migration
 * plan: waiting jobs would be orphaned.
 */
export const TEMPLATE_SUBMIT_QUEUE = {
  name: 'template-submit',
  jobs: { submitTemplate: 'submit-template' },
  jobOptions: { ...exponentialRetry(8, 1_000), ...JOB_RETENTION },
  payload: payloadType<SubmitTemplateJob>(),
} as const satisfies QueueContract;

/** Ids only: the dispatcher reads the definition from the store. */
export interface SubmitTemplateJob {
  template_id: string;
  account_id: string;
  /** Test keys' templates go to the carrier simulator, live keys' to the configured upstream. */
  mode: KeyMode;
}

export function enqueueTemplateSubmit(queue: JobAdder<SubmitTemplateJob>, job: SubmitTemplateJob): Promise<unknown> {
  return queue.add(TEMPLATE_SUBMIT_QUEUE.jobs.submitTemplate, job, { ...TEMPLATE_SUBMIT_QUEUE.jobOptions, jobId: job.template_id });
}
