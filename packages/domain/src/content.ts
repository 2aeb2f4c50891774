/**
 * Message payloads. `content` is either `{ text }` (every channel) or a chat payload exactly as on
 * `POST /v1/messages/chat` without `to`; `template` names a stored template (docs/messages.md#sending-a-message).
 */
export interface TextContent {
  text: string;
}

export interface ChatPayloadContent {
  type: string;
  [typedObject: string]: unknown;
}

export type MessageContent = TextContent | ChatPayloadContent;

export interface TemplateParameter {
  type: 'text';
  text: string;
}

export interface TemplateReference {
  name: string;
  language: string;
  parameters?: TemplateParameter[];
  components?: Array<{ type: 'body'; parameters: TemplateParameter[] }>;
}

export function isTextContent(content: MessageContent): content is TextContent {
  return typeof (content as TextContent).text === 'string' && (content as ChatPayloadContent).type === undefined;
}

/** The parameters of a template reference, whichever of the two spec shapes it uses. */
export function templateParameters(template: TemplateReference): TemplateParameter[] {
  if (template.parameters) return template.parameters;
  return (template.components ?? []).flatMap((c) => c.parameters ?? []);
}

/** Fills `{{1}}…{{n}}` placeholders of a stored template body. */
function fillTemplateBody(body: string, parameters: TemplateParameter[]): string {
  return body.replace(/\{\{(\d+)\}\}/g, (whole, n: string) => parameters[Number(n) - 1]?.text ?? whole);
}

interface InteractivePayload {
  type?: string;
  header?: { text?: string };
  body?: { text?: string };
  footer?: { text?: string };
  action?: {
    buttons?: Array<{ reply?: { title?: string } }>;
    sections?: Array<{ title?: string; rows?: Array<{ title?: string; description?: string }> }>;
  };
}

function renderInteractive(interactive: InteractivePayload): string {
  const lines: string[] = [];
  if (interactive.header?.text) lines.push(interactive.header.text);
  if (interactive.body?.text) lines.push(interactive.body.text);
  const options =
    interactive.type === 'list'
      ? (interactive.action?.sections ?? []).flatMap((s) => s.rows ?? []).map((r) => r.title ?? '')
      : (interactive.action?.buttons ?? []).map((b) => b.reply?.title ?? '');
  options.forEach((title, i) => lines.push(`${i + 1}. ${title}`));
  if (interactive.footer?.text) lines.push(interactive.footer.text);
  return lines.join('\n');
}

/**
 * Renders any payload as plain text for channels that cannot carry it (SMS, RCS text): the body text,
 * then numbered options (docs/messages.md#auto-fallback). `templateBody` is the stored template body when known.
 */
export function renderAsText(content: MessageContent | undefined, template?: TemplateReference, templateBody?: string): string {
  if (template) {
    const parameters = templateParameters(template);
    return templateBody ? fillTemplateBody(templateBody, parameters) : parameters.map((p) => p.text).join(' ');
  }
  if (!content) return '';
  if (isTextContent(content)) return content.text;
  const typed = content[content.type] as Record<string, unknown> | undefined;
  switch (content.type) {
    case 'text':
      return String((typed as { body?: string } | undefined)?.body ?? '');
    case 'interactive':
      return renderInteractive((typed ?? {}) as InteractivePayload);
    case 'location': {
      const loc = (typed ?? {}) as { latitude?: number; longitude?: number; name?: string; address?: string };
      return [loc.name, loc.address, `https://maps.google.com/?q=${loc.latitude},${loc.longitude}`].filter(Boolean).join('\n');
    }
    case 'image':
    case 'document':
    case 'audio': {
      const media = (typed ?? {}) as { link?: string; caption?: string };
      return [media.caption, media.link].filter(Boolean).join('\n');
    }
    default:
      return '';
  }
}

/** True when the payload can only travel on the chat channel as it is. */
export function isChatOnlyContent(content: MessageContent | undefined): boolean {
  return content !== undefined && !isTextContent(content);
}
