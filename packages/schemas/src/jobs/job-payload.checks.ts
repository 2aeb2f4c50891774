import type { FieldError } from '@switchboard/domain';
import type { JsonSchema } from '../json-schema';
import { compileSchema, type SchemaValidator } from '../validator';
import { deliverWebhookJobSchema, fanOutEventJobSchema, submitTemplateJobSchema } from './id-only-jobs.schema';
import { messageTimerJobSchema } from './message-timer-job.schema';
import { providerCallbackJobSchema } from './provider-callback-job.schema';
import { sendChunkJobSchema } from './send-chunk-job.schema';
import { sendMessageJobSchema } from './send-message-job.schema';

/** `null` for a usable payload, else one line naming each offending field by its JSON Pointer. */
export type JobPayloadCheck = (data: unknown) => string | null;

function describe(errors: FieldError[]): string {
  return errors.map((e) => `${e.field || '(payload)'} ${e.message}`).join('; ');
}

/** Compiled on first use: a service pays only for the jobs it consumes. */
function jobPayloadCheck(jobName: string, schema: JsonSchema): JobPayloadCheck {
  let validate: SchemaValidator | undefined;
  return (data) => {
    validate ??= compileSchema(schema);
    const errors = validate(data);
    return errors.length === 0 ? null : `invalid ${jobName} job: ${describe(errors)}`;
  };
}

/** Every job payload's schema, keyed like the checks below; see docs/architecture.md. */
export const JOB_PAYLOAD_SCHEMAS = {
  sendMessage: sendMessageJobSchema,
  sendChunk: sendChunkJobSchema,
  providerCallback: providerCallbackJobSchema,
  submitTemplate: submitTemplateJobSchema,
  fanOutEvent: fanOutEventJobSchema,
  deliverWebhook: deliverWebhookJobSchema,
  messageTimer: messageTimerJobSchema,
} as const satisfies Record<string, JsonSchema>;

/**
 * The check each processor runs first, and a producer may run before it enqueues. A payload that
 * fails will fail on every retry too, so the processor throws BullMQ's `UnrecoverableError` with it.
 */
export const JOB_PAYLOAD_CHECKS: Readonly<Record<keyof typeof JOB_PAYLOAD_SCHEMAS, JobPayloadCheck>> = {
  sendMessage: jobPayloadCheck('send-message', sendMessageJobSchema),
  sendChunk: jobPayloadCheck('send-chunk', sendChunkJobSchema),
  providerCallback: jobPayloadCheck('provider-callback', providerCallbackJobSchema),
  submitTemplate: jobPayloadCheck('submit-template', submitTemplateJobSchema),
  fanOutEvent: jobPayloadCheck('fan-out-event', fanOutEventJobSchema),
  deliverWebhook: jobPayloadCheck('deliver-webhook', deliverWebhookJobSchema),
  messageTimer: jobPayloadCheck('message-timer', messageTimerJobSchema),
};
