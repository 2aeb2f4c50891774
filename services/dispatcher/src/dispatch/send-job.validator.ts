import { CONCRETE_CHANNELS, isId, REQUESTED_CHANNELS, type ConcreteChannel } from '@switchboard/domain';
import type { SendMessageJob } from '@switchboard/queues';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v !== '';
const isOptionalPositiveInt = (v: unknown) => v === undefined || (Number.isInteger(v) && (v as number) > 0);
const E164_SHAPE = /^\+[1-9]\d{6,14}$/;

/**
 * The problems of a send job's shape, empty when it is usable. The gateway validated the request
 * with the full schema; this guards the queue boundary (another producer, an old payload version)
 * so that the processor can trust every field it reads.
 */
export function sendJobProblems(data: unknown): string[] {
  if (!isObj(data)) return ['payload is not an object'];
  const problems: string[] = [];
  const need = (ok: boolean, problem: string) => {
    if (!ok) problems.push(problem);
  };
  need(isId('msg', data.message_id), 'message_id must be a msg_ id');
  need(isNonEmptyString(data.account_id), 'account_id is required');
  need(data.mode === 'live' || data.mode === 'test', 'mode must be live or test');
  need((REQUESTED_CHANNELS as readonly unknown[]).includes(data.channel), 'channel must be chat, sms, rcs or auto');
  const plan = data.plan;
  const planOk =
    Array.isArray(plan) &&
    plan.length > 0 &&
    plan.every((c) => (CONCRETE_CHANNELS as readonly unknown[]).includes(c)) &&
    new Set(plan).size === plan.length;
  need(planOk, 'plan must list distinct concrete channels');
  if (planOk && data.channel !== 'auto') need(plan.length === 1 && plan[0] === data.channel, 'plan of a named channel must be that channel');
  need(
    isObj(data.senders) && Object.values(data.senders).every((s) => isObj(s) && isNonEmptyString(s.e164)),
    'senders must map channels to { e164 }',
  );
  need(typeof data.recipient === 'string' && E164_SHAPE.test(data.recipient), 'recipient must be E.164');
  const hasContent = data.content !== undefined && data.content !== null;
  const hasTemplate = data.template !== undefined && data.template !== null;
  need(hasContent !== hasTemplate, 'exactly one of content or template is required');
  if (hasContent) {
    const content = data.content;
    need(isObj(content) && (typeof content.text === 'string' || isNonEmptyString(content.type)), 'content must be { text } or a typed chat payload');
  }
  if (hasTemplate) {
    const template = data.template;
    need(isObj(template) && isNonEmptyString(template.name) && isNonEmptyString(template.language), 'template needs name and language');
  }
  need(isOptionalPositiveInt(data.ttl_seconds), 'ttl_seconds must be a positive integer');
  need(isOptionalPositiveInt(data.fallback_timeout_seconds), 'fallback_timeout_seconds must be a positive integer');
  need(data.metadata === undefined || (isObj(data.metadata) && Object.values(data.metadata).every((v) => typeof v === 'string')), 'metadata must map to strings');
  need(data.callback_url === undefined || typeof data.callback_url === 'string', 'callback_url must be a string');
  need(typeof data.cost_units === 'number' && Number.isFinite(data.cost_units) && data.cost_units >= 0, 'cost_units must be a number');
  need(typeof data.created_at === 'string' && !Number.isNaN(Date.parse(data.created_at)), 'created_at must be a timestamp');
  need(
    data.skipped_channels === undefined ||
      (isObj(data.skipped_channels) && Object.values(data.skipped_channels).every((reason) => reason === 'outside_customer_service_window')),
    'skipped_channels must map channels to a known reason',
  );
  return problems;
}

/** Plan channels the gateway resolved no sender for; such a message cannot be sent on them. */
export function channelsWithoutSender(job: SendMessageJob): ConcreteChannel[] {
  return job.plan.filter((channel) => !job.senders[channel]);
}
