import { HTTP_URL_PATTERN, type JsonSchema } from '../json-schema';
import { templateReferenceSchema } from '../template-reference.schema';
import { CHAT_LIMITS as L } from './chat-limits';

const text = (max: number): JsonSchema => ({ type: 'string', minLength: 1, maxLength: max });
const object = (required: string[], properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  required,
  additionalProperties: false,
  properties,
});

export const chatTextSchema: JsonSchema = object(['body'], { body: text(L.textBody), preview_url: { type: 'boolean' } });

const headerSchema: JsonSchema = object(['type', 'text'], { type: { const: 'text' }, text: text(L.headerText) });
const footerSchema: JsonSchema = object(['text'], { text: text(L.footerText) });
const bodySchema: JsonSchema = object(['text'], { text: text(L.interactiveBody) });

const replyButtonSchema: JsonSchema = object(['type', 'reply'], {
  type: { const: 'reply' },
  reply: object(['id', 'title'], { id: text(L.button.id), title: text(L.button.title) }),
});

const buttonActionSchema: JsonSchema = object(['buttons'], {
  buttons: { type: 'array', minItems: L.button.minButtons, maxItems: L.button.maxButtons, items: replyButtonSchema },
});

const listRowSchema: JsonSchema = object(['id', 'title'], {
  id: text(L.list.rowId),
  title: text(L.list.rowTitle),
  description: text(L.list.rowDescription),
});

const listActionSchema: JsonSchema = object(['button', 'sections'], {
  button: text(L.list.actionButton),
  sections: {
    type: 'array',
    minItems: 1,
    maxItems: L.list.maxSections,
    items: object(['rows'], {
      title: text(L.list.sectionTitle),
      rows: { type: 'array', minItems: 1, maxItems: L.list.maxRowsTotal, items: listRowSchema },
    }),
  },
});

/** `interactive` of type `button` or `list`; one `if`/`then` per variant keeps errors on the offending field. */
export const chatInteractiveSchema: JsonSchema = {
  type: 'object',
  required: ['type', 'body', 'action'],
  properties: {
    type: { type: 'string', enum: ['button', 'list'] },
    header: headerSchema,
    body: bodySchema,
    footer: footerSchema,
    action: { type: 'object' },
  },
  additionalProperties: false,
  allOf: [
    { if: { properties: { type: { const: 'button' } }, required: ['type'] }, then: { properties: { action: buttonActionSchema } } },
    { if: { properties: { type: { const: 'list' } }, required: ['type'] }, then: { properties: { action: listActionSchema } } },
  ],
};

const mediaLink: JsonSchema = {
  type: 'string',
  format: 'uri',
  pattern: HTTP_URL_PATTERN,
  maxLength: L.mediaLink,
  description: 'An https URL; the dispatcher checks its type and size with a HEAD before sending.',
};

export const chatImageSchema: JsonSchema = object(['link'], { link: mediaLink, caption: text(L.caption) });
export const chatDocumentSchema: JsonSchema = object(['link'], { link: mediaLink, caption: text(L.caption), filename: text(L.documentFilename) });
export const chatAudioSchema: JsonSchema = object(['link'], { link: mediaLink, caption: text(L.caption) });

export const chatLocationSchema: JsonSchema = object(['latitude', 'longitude'], {
  latitude: { type: 'number', minimum: -90, maximum: 90 },
  longitude: { type: 'number', minimum: -180, maximum: 180 },
  name: text(L.locationText),
  address: text(L.locationText),
});

/**
 * The deep schema of each chat type's object (docs/chat.md#one-example-per-type), keyed like `CHAT_PAYLOAD_TYPES`. Both
 * `POST /v1/messages/chat` and `content` of `POST /v1/messages` use it, and so does the OpenAPI document.
 */
export const chatTypeSchemas = {
  text: chatTextSchema,
  template: templateReferenceSchema,
  interactive: chatInteractiveSchema,
  image: chatImageSchema,
  document: chatDocumentSchema,
  audio: chatAudioSchema,
  location: chatLocationSchema,
} as const satisfies Record<string, JsonSchema>;
