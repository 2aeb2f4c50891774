import { ApiError, ValidationError, type FieldError } from '@switchboard/domain';
import { BATCH_DEFAULT_FIELDS, BATCH_ITEM_FIELDS, batchRequestSchema, type BatchItemCheck, type BatchRequest } from './batch-request.schema';
import { childPointer } from './field-errors';
import type { MessageRequest } from './message-request.schema';
import { createMessageRequestValidator, type MessageRequestRules } from './message-request.validator';
import { sendAtErrors } from './send-at.schema';
import { compileSchema } from './validator';

type Body = Record<string, unknown>;

const isObject = (value: unknown): value is Body => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The single-send body an item stands for: the defaults, with the item's own fields over them. */
export function mergeBatchItem(defaults: Body, item: Body): Body {
  const merged: Body = { ...defaults, recipient: item.recipient };
  if (item.content !== undefined) {
    merged.content = item.content;
    delete merged.template;
  }
  if (item.template !== undefined) {
    delete merged.content;
    // Per-recipient parameters over a shared template name and language.
    merged.template = isObject(item.template) && isObject(defaults.template) ? { ...defaults.template, ...item.template } : item.template;
  }
  if (item.metadata !== undefined) merged.metadata = isObject(item.metadata) && isObject(defaults.metadata) ? { ...defaults.metadata, ...item.metadata } : item.metadata;
  return merged;
}

/**
 * A field error of the merged body, pointed at where the client wrote it: the item's own field
 * (`/messages/17/recipient`), or the shared default it inherited (`/from`).
 */
function pointAt(error: FieldError, index: number, item: Body): FieldError {
  if (!error.field.startsWith('/')) return error;
  const top = error.field.split('/')[1] ?? '';
  const own = top === '' || top === 'recipient' || Object.prototype.hasOwnProperty.call(item, top);
  return own ? { ...error, field: `/messages/${index}${error.field}` } : error;
}

/** The same refusal with its field errors pointed into the batch (`/messages/{index}/…` or the shared default). */
export function repointBatchItemError(error: ApiError, index: number, item: unknown): ApiError {
  if (!isObject(item)) return error;
  const errors = error.errors?.map((e) => pointAt(e, index, item));
  return new ApiError(error.status, error.code, error.title, error.message, errors, error.headers);
}

/**
 * `POST /v1/messages/batch`: the envelope must be valid as a whole (400 otherwise); each item is then
 * checked as the single send it stands for, and a refused item carries its own 400 or 422 problem.
 */
export function createBatchRequestValidator(rules: MessageRequestRules): (body: unknown) => BatchRequest {
  const envelopeErrors = compileSchema(batchRequestSchema);
  const validateMessage = createMessageRequestValidator(rules);
  const clock = rules.clock ?? Date.now;
  return (body) => {
    const errors = envelopeErrors(body);
    if (isObject(body) && !errors.some((e) => e.field === '/send_at')) errors.push(...sendAtErrors(body.send_at, '/send_at', clock()));
    if (errors.length > 0) throw new ValidationError(errors);
    const envelope = body as Body & { messages: Body[] };
    const defaults = Object.fromEntries(BATCH_DEFAULT_FIELDS.filter((f) => envelope[f] !== undefined).map((f) => [f, envelope[f]]));
    const items = envelope.messages.map((item, index): BatchItemCheck => {
      const unknown = Object.keys(item).filter((key) => !(BATCH_ITEM_FIELDS as readonly string[]).includes(key));
      if (unknown.length > 0) {
        return {
          error: new ValidationError(unknown.map((key) => ({ field: childPointer(`/messages/${index}`, key), message: `is not allowed on an item; allowed: ${BATCH_ITEM_FIELDS.join(', ')}` }))),
        };
      }
      try {
        return { request: validateMessage(mergeBatchItem(defaults, item)) as MessageRequest };
      } catch (error) {
        if (error instanceof ApiError) return { error: repointBatchItemError(error, index, item) };
        throw error;
      }
    });
    return { items };
  };
}
