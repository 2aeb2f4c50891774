/**
 * Shape checks of an RBM `AgentMessage` body. RBM answers a malformed body with
 * 400 INVALID_ARGUMENT naming the field; so does the simulator.
 */

export interface ParsedAgentMessage {
  /** Which content field was sent: text, richCard, contentInfo or uploadedRbmFile. */
  type: string;
  text: string | null;
  contentMessage: Record<string, unknown>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const CONTENT_FIELDS = ['text', 'richCard', 'contentInfo', 'uploadedRbmFile'] as const;
/** RBM's limits on a text message and on the suggestion chips attached to one message. */
const MAX_TEXT = 3072;
const MAX_SUGGESTIONS = 11;

function richCardText(card: Obj): string | null {
  const standalone = isObj(card.standaloneCard) ? card.standaloneCard : undefined;
  const content = standalone && isObj(standalone.cardContent) ? standalone.cardContent : undefined;
  if (!content) return null;
  const parts = [content.title, content.description].filter((p): p is string => typeof p === 'string');
  return parts.length ? parts.join('\n') : null;
}

export function validateAgentMessage(body: unknown): { ok: true; message: ParsedAgentMessage } | { ok: false; details: string } {
  if (!isObj(body) || !isObj(body.contentMessage)) return { ok: false, details: 'Invalid JSON payload: contentMessage is required.' };
  const content = body.contentMessage;
  const present = CONTENT_FIELDS.filter((field) => content[field] !== undefined);
  if (present.length !== 1) {
    return { ok: false, details: 'contentMessage must set exactly one of text, richCard, contentInfo, uploadedRbmFile.' };
  }
  const type = present[0];
  if (type === 'text' && (typeof content.text !== 'string' || content.text === '' || content.text.length > MAX_TEXT)) {
    return { ok: false, details: `contentMessage.text must be a non-empty string of at most ${MAX_TEXT} characters.` };
  }
  if (type === 'richCard' && !isObj(content.richCard)) return { ok: false, details: 'contentMessage.richCard must be an object.' };
  if (type === 'contentInfo' && !(isObj(content.contentInfo) && typeof content.contentInfo.fileUrl === 'string')) {
    return { ok: false, details: 'contentMessage.contentInfo.fileUrl is required.' };
  }
  if (content.suggestions !== undefined) {
    const suggestions = content.suggestions;
    if (!Array.isArray(suggestions) || suggestions.length > MAX_SUGGESTIONS) {
      return { ok: false, details: `contentMessage.suggestions must be an array of at most ${MAX_SUGGESTIONS}.` };
    }
    if (!suggestions.every((s) => isObj(s) && (isObj(s.reply) || isObj(s.action)))) {
      return { ok: false, details: 'each suggestion must be a reply or an action.' };
    }
  }
  const text = type === 'text' ? (content.text as string) : type === 'richCard' ? richCardText(content.richCard as Obj) : null;
  return { ok: true, message: { type, text, contentMessage: content } };
}
