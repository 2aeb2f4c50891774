import { UnprocessableError, ValidationError, isChatOnlyContent, isValidE164, type FieldError } from '@switchboard/domain';
import type { MessageRequest } from './message-request.schema';
import { messageRequestSchema } from './message-request.schema';
import { chatPayloadRuleErrors, pointAtFirstExcessItem, type ChatPayloadRules } from './chat/chat-payload.checks';
import { sendAtErrors } from './send-at.schema';
import { compileSchema } from './validator';
import { webhookUrlRefusal, type WebhookTargetPolicy } from './webhook-target.guard';

export interface MessageRequestRules extends ChatPayloadRules {
  webhookTargets: WebhookTargetPolicy;
  /** For `send_at`'s 30-day limit. @defaultValue Date.now */
  clock?: () => number;
}

type Body = Record<string, unknown>;

/**
 * libphonenumber's full check is the most expensive step of validating a message; its answer for a
 * given string never changes, so recent answers are remembered (bounded: cleared when full).
 */
const E164_MEMO_LIMIT = 50_000;
const e164Memo = new Map<string, boolean>();
function isValidNumber(value: string): boolean {
  let valid = e164Memo.get(value);
  if (valid === undefined) {
    valid = isValidE164(value);
    if (e164Memo.size >= E164_MEMO_LIMIT) e164Memo.clear();
    e164Memo.set(value, valid);
  }
  return valid;
}

function hasFieldError(errors: FieldError[], field: string): boolean {
  return errors.some((e) => e.field === field || e.field.startsWith(`${field}/`));
}

/** Rules a schema cannot say, answered as 400 field errors beside the schema's own (docs/errors.md#validation_failed). */
function fieldRuleErrors(body: Body, schemaErrors: FieldError[], rules: MessageRequestRules): FieldError[] {
  const errors: FieldError[] = [];
  if (!hasFieldError(schemaErrors, '/send_at')) errors.push(...sendAtErrors(body.send_at, '/send_at', (rules.clock ?? Date.now)()));
  if (typeof body.recipient === 'string' && !hasFieldError(schemaErrors, '/recipient') && !isValidNumber(body.recipient)) {
    errors.push({ field: '/recipient', message: 'is not a valid phone number' });
  }
  if (typeof body.from === 'string' && !hasFieldError(schemaErrors, '/from') && !isValidNumber(body.from)) {
    errors.push({ field: '/from', message: 'is not a valid phone number' });
  }
  if (body.fallback !== undefined && typeof body.channel === 'string' && body.channel !== 'auto') {
    errors.push({ field: '/fallback', message: 'is only allowed with channel "auto"' });
  }
  const template = body.template as Body | undefined;
  if (template && typeof template === 'object' && template.parameters !== undefined && template.components !== undefined) {
    errors.push({ field: '/template/components', message: 'use either parameters or components, not both' });
  }
  if (typeof body.callback_url === 'string' && !hasFieldError(schemaErrors, '/callback_url') && !URL.canParse(body.callback_url)) {
    errors.push({ field: '/callback_url', message: 'must be a valid URL' });
  }
  // A chat rule broken only because of a schema error already reported is not news.
  const covered = (field: string) => schemaErrors.some((e) => field === e.field || field.startsWith(`${e.field}/`));
  errors.push(...chatPayloadRuleErrors(body.content, '/content', rules).filter((e) => !covered(e.field)));
  return errors;
}

/** Semantic rules, each with its own 422 code (docs/errors.md#422). Runs only on a schema-valid body. */
function semanticProblem(request: MessageRequest, rules: MessageRequestRules): UnprocessableError | null {
  if ((request.content === undefined) === (request.template === undefined)) {
    return new UnprocessableError('content_or_template_required', 'Send exactly one of content or template.', [
      { field: request.content === undefined ? '/content' : '/template', message: 'exactly one of content or template is required' },
    ]);
  }
  if ((request.channel === 'sms' || request.channel === 'rcs') && isChatOnlyContent(request.content)) {
    return new UnprocessableError(
      'content_not_supported_on_channel',
      `A chat payload cannot be sent on ${request.channel}; send { "text": … } or use channel "auto".`,
      [{ field: '/content/type', message: `is not supported on ${request.channel}` }],
    );
  }
  if (request.callback_url !== undefined) {
    const refusal = webhookUrlRefusal(new URL(request.callback_url), rules.webhookTargets);
    if (refusal) return new UnprocessableError('webhook_url_not_allowed', refusal, [{ field: '/callback_url', message: refusal }]);
  }
  return null;
}

/**
 * Builds the `POST /v1/messages` body check: the JSON Schema first, then the rules it cannot express.
 * The returned function throws `ValidationError` (400) or `UnprocessableError` (422), else returns the typed body.
 */
export function createMessageRequestValidator(rules: MessageRequestRules): (body: unknown) => MessageRequest {
  const schemaErrors = compileSchema(messageRequestSchema);
  return (body) => {
    const errors = pointAtFirstExcessItem(schemaErrors(body));
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) errors.push(...fieldRuleErrors(body as Body, errors, rules));
    if (errors.length > 0) throw new ValidationError(errors);
    const request = body as MessageRequest;
    const problem = semanticProblem(request, rules);
    if (problem) throw problem;
    return request;
  };
}
