import type { FieldError } from '@switchboard/domain';
import { childPointer } from '../field-errors';
import { CHAT_LIMITS, CHAT_MEDIA_TYPES } from './chat-limits';

export interface ChatPayloadRules {
  /**
   * Media links must be https (docs/chat.md#image-document-audio); local stacks serve test media over plain http.
   * @defaultValue false
   */
  allowHttpMediaLinks?: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Reports the second and later uses of the same value at `field` of each item. */
function duplicates(items: Array<{ value: unknown; pointer: string }>, what: string): FieldError[] {
  const firstAt = new Map<string, number>();
  const errors: FieldError[] = [];
  items.forEach(({ value, pointer }, index) => {
    if (typeof value !== 'string') return;
    const first = firstAt.get(value);
    if (first === undefined) firstAt.set(value, index);
    else errors.push({ field: pointer, message: `duplicates the ${what} of item ${first}; it must be unique within the message` });
  });
  return errors;
}

function buttonErrors(action: Obj, at: string): FieldError[] {
  const buttons = list(action.buttons).map((button, i) => ({
    reply: isObj(button) && isObj(button.reply) ? button.reply : {},
    at: childPointer(childPointer(at, 'buttons'), i),
  }));
  return [
    ...duplicates(
      buttons.map((b) => ({ value: b.reply.id, pointer: `${b.at}/reply/id` })),
      'id',
    ),
    ...duplicates(
      buttons.map((b) => ({ value: b.reply.title, pointer: `${b.at}/reply/title` })),
      'title',
    ),
  ];
}

function listErrors(action: Obj, at: string): FieldError[] {
  const errors: FieldError[] = [];
  const sections = list(action.sections);
  const rows: Array<{ value: unknown; pointer: string }> = [];
  sections.forEach((section, s) => {
    const sectionAt = childPointer(childPointer(at, 'sections'), s);
    if (!isObj(section)) return;
    if (sections.length > 1 && section.title === undefined) {
      errors.push({ field: `${sectionAt}/title`, message: 'is required when there is more than one section' });
    }
    list(section.rows).forEach((row, r) => rows.push({ value: isObj(row) ? row.id : undefined, pointer: `${sectionAt}/rows/${r}` }));
  });
  if (rows.length > CHAT_LIMITS.list.maxRowsTotal) {
    errors.push({
      field: rows[CHAT_LIMITS.list.maxRowsTotal].pointer,
      message: `a list holds at most ${CHAT_LIMITS.list.maxRowsTotal} rows across all its sections`,
    });
  }
  errors.push(
    ...duplicates(
      rows.map((r) => ({ value: r.value, pointer: `${r.pointer}/id` })),
      'id',
    ),
  );
  return errors;
}

function mediaLinkErrors(media: Obj, at: string, rules: ChatPayloadRules): FieldError[] {
  if (typeof media.link !== 'string' || !/^https?:\/\//i.test(media.link)) return [];
  if (!URL.canParse(media.link)) return [{ field: `${at}/link`, message: 'must be a valid URL' }];
  if (new URL(media.link).protocol !== 'https:' && !rules.allowHttpMediaLinks) return [{ field: `${at}/link`, message: 'must be an https URL' }];
  return [];
}

/**
 * Rules of docs/chat.md that JSON Schema cannot express, for a chat payload `{ type, <type>: {...} }`
 * found at `base` in the body (`''` on `/v1/messages/chat`, `/content` on `/v1/messages`): unique
 * button ids and titles, at most 10 list rows in total, section titles once there are several
 * sections, unique row ids, https media links, and a template in one shape only.
 */
export function chatPayloadRuleErrors(payload: unknown, base: string, rules: ChatPayloadRules = {}): FieldError[] {
  if (!isObj(payload) || typeof payload.type !== 'string') return [];
  const typed = payload[payload.type];
  if (!isObj(typed)) return [];
  const at = childPointer(base, payload.type);
  if (payload.type === 'interactive' && isObj(typed.action)) {
    const actionAt = `${at}/action`;
    if (typed.type === 'button') return buttonErrors(typed.action, actionAt);
    if (typed.type === 'list') return listErrors(typed.action, actionAt);
  }
  if ((CHAT_MEDIA_TYPES as readonly string[]).includes(payload.type)) return mediaLinkErrors(typed, at, rules);
  if (payload.type === 'template' && typed.parameters !== undefined && typed.components !== undefined) {
    return [{ field: `${at}/components`, message: 'use either parameters or components, not both' }];
  }
  return [];
}

/**
 * ajv reports `maxItems` at the array itself; docs/chat.md#validation-errors promises the pointer of the offending item
 * (`/interactive/action/buttons/3`), which is the first one past the limit. The message is the one
 * `toFieldErrors` writes for `maxItems`.
 */
export function pointAtFirstExcessItem(errors: FieldError[]): FieldError[] {
  return errors.map((error) => {
    const match = /^must have at most (\d+) items$/.exec(error.message);
    return match ? { field: childPointer(error.field, match[1]), message: `is beyond the limit of ${match[1]} items` } : error;
  });
}
