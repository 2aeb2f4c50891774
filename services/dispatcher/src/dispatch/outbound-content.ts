import { isTextContent, renderAsText, templateParameters, type ConcreteChannel, type MessageContent, type TemplateReference } from '@switchboard/domain';
import type { OutboundContent } from '@switchboard/providers';

export interface MessagePayload {
  content?: MessageContent;
  template?: TemplateReference;
}

type Obj = Record<string, unknown>;

/**
 * The Cloud API template object for a template reference (docs/chat.md#sending-a-template), whichever shape it uses:
 * `language` becomes `{ code }` and the parameters a `body` component (shape a) or keep their
 * components (shape b).
 * https://developers.facebook.com/docs/whatsapp/cloud-api/reference/messages#template-object
 */
export function cloudApiTemplate(template: TemplateReference | Obj): Obj {
  const reference = template as TemplateReference & { language: unknown };
  const language = typeof reference.language === 'string' ? { code: reference.language } : reference.language;
  const components = Array.isArray(reference.components)
    ? reference.components.map((c) => ({ type: c.type, parameters: c.parameters ?? [] }))
    : [{ type: 'body', parameters: templateParameters(reference) }];
  return { name: reference.name, language, components };
}

/**
 * What the adapter of `channel` sends. Chat keeps chat payloads as they are; SMS and RCS text carry
 * the payload rendered as text (docs/messages.md#auto-fallback). Null when there is nothing to send: a text-only channel
 * and a payload that renders to no text, such as a template with no parameters and no stored body.
 */
export function buildOutboundContent(channel: ConcreteChannel, payload: MessagePayload, templateBody?: string): OutboundContent | null {
  if (channel === 'chat') {
    if (payload.template) return { kind: 'chat', type: 'template', payload: cloudApiTemplate(payload.template) };
    const content = payload.content;
    if (!content) return null;
    if (isTextContent(content)) return { kind: 'text', text: content.text };
    const typed = content[content.type];
    if (typeof typed !== 'object' || typed === null) return null;
    const chatPayload = content.type === 'template' ? cloudApiTemplate(typed as Obj) : (typed as Obj);
    return { kind: 'chat', type: content.type, payload: chatPayload };
  }
  const chatTemplate = templateFromChatContent(payload.content);
  const text = chatTemplate ? renderAsText(undefined, chatTemplate, templateBody) : renderAsText(payload.content, payload.template, templateBody);
  return text.trim() === '' ? null : { kind: 'text', text };
}

/** A `{ type: "template", template: {...} }` chat payload is a template reference too. */
function templateFromChatContent(content: MessageContent | undefined): TemplateReference | undefined {
  if (!content || isTextContent(content) || content.type !== 'template') return undefined;
  const template = content.template;
  return typeof template === 'object' && template !== null ? (template as TemplateReference) : undefined;
}

/** The template a payload refers to, in either place, for looking up its stored body. */
export function templateOf(payload: MessagePayload): TemplateReference | undefined {
  return payload.template ?? templateFromChatContent(payload.content);
}
