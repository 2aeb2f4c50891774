import { TEMPLATE_LANGUAGE_PATTERN, TEMPLATE_NAME_PATTERN, type JsonSchema } from './json-schema';

export const templateParameterSchema: JsonSchema = {
  type: 'object',
  required: ['type', 'text'],
  additionalProperties: false,
  properties: {
    type: { const: 'text' },
    text: { type: 'string', minLength: 1, maxLength: 1024 },
  },
};

const parameterList: JsonSchema = { type: 'array', maxItems: 100, items: templateParameterSchema };

/**
 * A template reference in either shape (docs/chat.md#sending-a-template): `parameters`, or `components` of type `body`.
 * Giving both is refused by `checkMessageRequest` with a pointer at `/template/components`.
 */
export const templateReferenceSchema: JsonSchema = {
  type: 'object',
  required: ['name', 'language'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: TEMPLATE_NAME_PATTERN },
    language: { type: 'string', pattern: TEMPLATE_LANGUAGE_PATTERN },
    parameters: parameterList,
    components: {
      type: 'array',
      minItems: 1,
      maxItems: 10,
      items: {
        type: 'object',
        required: ['type', 'parameters'],
        additionalProperties: false,
        properties: { type: { const: 'body' }, parameters: parameterList },
      },
    },
  },
};
