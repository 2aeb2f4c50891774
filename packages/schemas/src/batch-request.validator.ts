import { ApiError, ValidationError, type FieldError } from '@switchboard/domain';
import { BATCH_DEFAULT_FIELDS, BATCH_ITEM_FIELDS, batchRequestSchema, type BatchItemCheck, type BatchRequest } from './batch-request.schema';
import { childPointer } from './field-errors';
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
  if (item.metadata !== undefined)
    merged.metadata = isObject(item.metadata) && isObject(defaults.metadata) ? { ...defaults.metadata, ...item.metadata } : item.metadata;
  return merged;
}

const hasOwn = (object: Body, key: string) => Object.prototype.hasOwnProperty.call(object, key);

/** The envelope's shared defaults, as mergeBatchItem applies them to every item. */
function batchDefaults(body: Body): Body {
  return Object.fromEntries(BATCH_DEFAULT_FIELDS.filter((f) => body[f] !== undefined).map((f) => [f, body[f]]));
}

/**
 * A field error of the merged body, pointed at where the client wrote it, or would have to: into the item
 * (`/messages/42/content`) for an item field the item has or lacks altogether, at the envelope (`/from`) for a
 * field only the envelope sets or a shared default the item inherited (docs/messages.md#batch-sends).
 */
function pointAt(error: FieldError, index: number, item: Body, defaults: Body): FieldError {
  if (!error.field.startsWith('/')) return error;
  const top = error.field.split('/')[1] ?? '';
  const itemField = top === '' || (BATCH_ITEM_FIELDS as readonly string[]).includes(top);
  const inherited = !hasOwn(item, top) && hasOwn(defaults, top);
  return itemField && !inherited ? { ...error, field: `/messages/${index}${error.field}` } : error;
}

/** The same refusal of item `index` of the batch `body`, with its field errors pointed into the batch. */
export function repointBatchItemError(error: ApiError, index: number, body: unknown): ApiError {
  const item: unknown = isObject(body) && Array.isArray(body.messages) ? body.messages[index] : undefined;
  if (!isObject(body) || !isObject(item)) return error;
  const defaults = batchDefaults(body);
  const errors = error.errors?.map((e) => pointAt(e, index, item, defaults));
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
    const defaults = batchDefaults(envelope);
    const items = envelope.messages.map((item, index): BatchItemCheck => {
      const unknown = Object.keys(item).filter((key) => !(BATCH_ITEM_FIELDS as readonly string[]).includes(key));
      if (unknown.length > 0) {
        return {
          error: new ValidationError(
            unknown.map((key) => ({
              field: childPointer(`/messages/${index}`, key),
              message: `is not allowed on an item; allowed: ${BATCH_ITEM_FIELDS.join(', ')}`,
            })),
          ),
        };
      }
      try {
        return { request: validateMessage(mergeBatchItem(defaults, item)) };
      } catch (error) {
        if (error instanceof ApiError) return { error: repointBatchItemError(error, index, envelope) };
        throw error;
      }
    });
    return { items };
  };
}
