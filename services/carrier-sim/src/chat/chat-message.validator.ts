/**
 * Basic shape checks of a Cloud API send body. The real API answers a malformed body with
 * 131009 and names the offending field in `error_data.details`; so does the simulator.
 */

const CHAT_MESSAGE_TYPES = ['text', 'template', 'interactive', 'image', 'document', 'audio', 'location'] as const;
export type ChatMessageType = (typeof CHAT_MESSAGE_TYPES)[number];

export interface ParsedChatMessage {
  /** Recipient digits without `+`. */
  to: string;
  type: ChatMessageType;
  /** What a person would read: text body, interactive body, caption, or location name. */
  text: string | null;
  bizOpaqueCallbackData: string | null;
  template?: { name: string; language: string; bodyParameters: string[] };
  interactiveType?: 'button' | 'list';
  listRows?: Array<{ id: string; title: string; description?: string }>;
}

export type ChatValidation = { ok: true; message: ParsedChatMessage } | { ok: false; details: string; to: string };

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

class ShapeError extends Error {}

function need(condition: boolean, details: string): asserts condition {
  if (!condition) throw new ShapeError(details);
}

function parseInteractive(interactive: unknown): Pick<ParsedChatMessage, 'text' | 'interactiveType' | 'listRows'> {
  need(isObj(interactive), 'interactive must be an object');
  const body = interactive.body;
  need(isObj(body) && isText(body.text), 'interactive.body.text is required');
  const action = interactive.action;
  need(isObj(action), 'interactive.action is required');
  if (interactive.type === 'button') {
    const buttons = action.buttons;
    need(Array.isArray(buttons) && buttons.length >= 1 && buttons.length <= 3, 'interactive.action.buttons must hold 1 to 3 buttons');
    for (const button of buttons) {
      need(
        isObj(button) && button.type === 'reply' && isObj(button.reply) && isText(button.reply.id) && isText(button.reply.title),
        'each button must be { type: "reply", reply: { id, title } }',
      );
    }
    return { text: body.text, interactiveType: 'button' };
  }
  if (interactive.type === 'list') {
    need(isText(action.button), 'interactive.action.button is required for a list');
    const sections = action.sections;
    need(Array.isArray(sections) && sections.length >= 1 && sections.length <= 10, 'interactive.action.sections must hold 1 to 10 sections');
    const rows: Array<{ id: string; title: string; description?: string }> = [];
    for (const section of sections) {
      need(isObj(section) && Array.isArray(section.rows) && section.rows.length > 0, 'each section needs rows');
      for (const row of section.rows as unknown[]) {
        need(isObj(row) && isText(row.id) && isText(row.title), 'each row needs id and title');
        rows.push({ id: row.id, title: row.title, ...(typeof row.description === 'string' ? { description: row.description } : {}) });
      }
    }
    need(rows.length <= 10, 'a list holds at most 10 rows');
    return { text: body.text, interactiveType: 'list', listRows: rows };
  }
  throw new ShapeError('interactive.type must be button or list');
}

function parseTemplate(template: unknown): ParsedChatMessage['template'] {
  need(isObj(template), 'template must be an object');
  need(isText(template.name), 'template.name is required');
  need(isObj(template.language) && isText(template.language.code), 'template.language.code is required');
  const bodyParameters: string[] = [];
  if (template.components !== undefined) {
    need(Array.isArray(template.components), 'template.components must be an array');
    for (const component of template.components) {
      need(isObj(component) && typeof component.type === 'string', 'each template component needs a type');
      if (component.type.toLowerCase() !== 'body' || component.parameters === undefined) continue;
      need(Array.isArray(component.parameters), 'template component parameters must be an array');
      for (const parameter of component.parameters) {
        need(isObj(parameter) && typeof parameter.type === 'string', 'each template parameter needs a type');
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the simulator records any other parameter (currency, date_time) as String() gives it
        bodyParameters.push(typeof parameter.text === 'string' ? parameter.text : String(parameter[parameter.type] ?? ''));
      }
    }
  }
  return { name: template.name, language: template.language.code, bodyParameters };
}

function parseMedia(type: 'image' | 'document' | 'audio', media: unknown): string | null {
  need(isObj(media), `${type} must be an object`);
  const hasLink = typeof media.link === 'string' && /^https?:\/\/\S+$/i.test(media.link);
  need(hasLink || isText(media.id), `${type}.link (an http(s) URL) or ${type}.id is required`);
  need(media.caption === undefined || typeof media.caption === 'string', `${type}.caption must be a string`);
  return typeof media.caption === 'string' ? media.caption : null;
}

function parseLocation(location: unknown): string {
  need(isObj(location), 'location must be an object');
  const { latitude, longitude } = location;
  need(typeof latitude === 'number' && latitude >= -90 && latitude <= 90, 'location.latitude must be -90..90');
  need(typeof longitude === 'number' && longitude >= -180 && longitude <= 180, 'location.longitude must be -180..180');
  return typeof location.name === 'string' ? location.name : `${latitude},${longitude}`;
}

export function validateChatMessage(body: unknown): ChatValidation {
  const to = isObj(body) && typeof body.to === 'string' ? body.to.replace(/^\+/, '') : '';
  try {
    need(isObj(body), 'request body must be a JSON object');
    need(body.messaging_product === 'whatsapp', 'messaging_product must be "whatsapp"');
    need(body.recipient_type === undefined || body.recipient_type === 'individual', 'recipient_type must be "individual"');
    need(typeof body.to === 'string' && /^\+?\d{6,15}$/.test(body.to), 'to must be a phone number in digits');
    const type = body.type === undefined ? 'text' : body.type;
    need(typeof type === 'string' && (CHAT_MESSAGE_TYPES as readonly string[]).includes(type), `type ${JSON.stringify(type)} is not supported`);
    const opaque = body.biz_opaque_callback_data;
    need(opaque === undefined || (typeof opaque === 'string' && opaque.length <= 512), 'biz_opaque_callback_data must be a string of at most 512 characters');
    const base = { to, type: type as ChatMessageType, bizOpaqueCallbackData: typeof opaque === 'string' ? opaque : null };
    const payload = body[type];
    switch (type as ChatMessageType) {
      case 'text':
        need(isObj(payload) && isText(payload.body) && payload.body.length <= 4096, 'text.body is required (at most 4096 characters)');
        return { ok: true, message: { ...base, text: payload.body } };
      case 'template':
        return { ok: true, message: { ...base, text: null, template: parseTemplate(payload) } };
      case 'interactive':
        return { ok: true, message: { ...base, ...parseInteractive(payload) } };
      case 'image':
      case 'document':
      case 'audio':
        return { ok: true, message: { ...base, text: parseMedia(type as 'image' | 'document' | 'audio', payload) } };
      case 'location':
        return { ok: true, message: { ...base, text: parseLocation(payload) } };
    }
  } catch (err) {
    if (err instanceof ShapeError) return { ok: false, details: err.message, to };
    throw err;
  }
}
