import type { KeyMode } from './payloads';

/**
 * Template submission to the chat upstream (docs/chat.md#templates). Renaming this queue needs a migration plan:
 * jobs already waiting in the old name are orphaned by a deploy that only knows the new one.
 */
export const TEMPLATE_QUEUES = {
  /** One job per created template, job id = template id. Produced by the gateway, consumed by the dispatcher. */
  templateSubmit: 'template-submit',
} as const;

export const TEMPLATE_JOB_NAMES = { submitTemplate: 'submit-template' } as const;

/** Ids only: the dispatcher reads the definition from the store. */
export interface SubmitTemplateJob {
  template_id: string;
  account_id: string;
  /** Test keys' templates go to the carrier simulator, live keys' to the configured upstream (docs/sandbox.md). */
  mode: KeyMode;
}
