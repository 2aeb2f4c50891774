import { ValidationError, type FieldError } from '@switchboard/domain';
import { TEMPLATE_LANGUAGE_PATTERN, TEMPLATE_NAME_PATTERN, type JsonSchema } from '../json-schema';
import { compileSchema } from '../validator';
import { pointAtFirstExcessItem } from './chat-payload.checks';
import { placeholdersAreContiguous, scanPlaceholders } from './template-placeholders';

export const TEMPLATE_CATEGORIES = ['authentication', 'utility', 'marketing'] as const;
export const TEMPLATE_COMPONENT_TYPES = ['header', 'body', 'footer', 'buttons'] as const;

/** The upstream's limits on template definitions. */
export const TEMPLATE_LIMITS = { headerText: 60, bodyText: 1024, footerText: 60, buttonText: 25, maxButtons: 10, url: 2000 } as const;

const text = (max: number): JsonSchema => ({ type: 'string', minLength: 1, maxLength: max });
const component = (type: string, required: string[], properties: Record<string, JsonSchema>): JsonSchema => ({
  if: { properties: { type: { const: type } }, required: ['type'] },
  then: { required: ['type', ...required], additionalProperties: false, properties: { type: true, ...properties } },
});

const templateButtonSchema: JsonSchema = {
  type: 'object',
  required: ['type', 'text'],
  properties: { type: { enum: ['quick_reply', 'url', 'phone_number'] }, text: text(TEMPLATE_LIMITS.buttonText) },
  allOf: [
    { if: { properties: { type: { const: 'quick_reply' } } }, then: { additionalProperties: false, properties: { type: true, text: true } } },
    {
      if: { properties: { type: { const: 'url' } } },
      then: {
        required: ['url'],
        additionalProperties: false,
        properties: { type: true, text: true, url: { type: 'string', format: 'uri', pattern: '^https://', maxLength: TEMPLATE_LIMITS.url } },
      },
    },
    {
      if: { properties: { type: { const: 'phone_number' } } },
      then: {
        required: ['phone_number'],
        additionalProperties: false,
        properties: { type: true, text: true, phone_number: { type: 'string', pattern: '^\\+[1-9][0-9]{6,14}$' } },
      },
    },
  ],
};

/** `POST /v1/templates` (docs/chat.md#templates). */
export const templateCreateSchema: JsonSchema = {
  type: 'object',
  required: ['name', 'language', 'category', 'components'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: TEMPLATE_NAME_PATTERN },
    language: { type: 'string', pattern: TEMPLATE_LANGUAGE_PATTERN },
    category: { type: 'string', enum: [...TEMPLATE_CATEGORIES] },
    components: {
      type: 'array',
      minItems: 1,
      maxItems: TEMPLATE_COMPONENT_TYPES.length,
      items: {
        type: 'object',
        required: ['type'],
        properties: { type: { type: 'string', enum: [...TEMPLATE_COMPONENT_TYPES] } },
        allOf: [
          component('header', ['text'], { format: { const: 'text' }, text: text(TEMPLATE_LIMITS.headerText) }),
          component('body', ['text'], { text: text(TEMPLATE_LIMITS.bodyText) }),
          component('footer', ['text'], { text: text(TEMPLATE_LIMITS.footerText) }),
          component('buttons', ['buttons'], { buttons: { type: 'array', minItems: 1, maxItems: TEMPLATE_LIMITS.maxButtons, items: templateButtonSchema } }),
        ],
      },
    },
  },
};

export interface TemplateComponent {
  type: (typeof TEMPLATE_COMPONENT_TYPES)[number];
  text?: string;
  [field: string]: unknown;
}

export interface TemplateCreateRequest {
  name: string;
  language: string;
  category: (typeof TEMPLATE_CATEGORIES)[number];
  components: TemplateComponent[];
}

export interface ValidTemplate extends TemplateCreateRequest {
  bodyText: string;
  placeholderCount: number;
}

/** One body, each component type once, and body placeholders `{{1}}…{{n}}` with no gap; none elsewhere. */
function componentRuleErrors(components: TemplateComponent[]): FieldError[] {
  const errors: FieldError[] = [];
  const firstOfType = new Map<string, number>();
  components.forEach((c, i) => {
    const at = `/components/${i}`;
    const first = firstOfType.get(c.type);
    if (first !== undefined) errors.push({ field: `${at}/type`, message: `duplicates component ${first}; each type may appear once` });
    else firstOfType.set(c.type, i);
    if (typeof c.text !== 'string') return;
    const scan = scanPlaceholders(c.text);
    if (scan.invalid.length > 0) errors.push({ field: `${at}/text`, message: `has ${scan.invalid[0]}; placeholders are numbered, {{1}} to {{n}}` });
    else if (c.type !== 'body' && scan.numbers.length > 0) errors.push({ field: `${at}/text`, message: 'may not hold placeholders; only the body can' });
    else if (!placeholdersAreContiguous(scan.numbers)) {
      errors.push({ field: `${at}/text`, message: `placeholders must be {{1}} to {{n}} without gaps, got ${scan.numbers.map((n) => `{{${n}}}`).join(', ')}` });
    }
  });
  if (!firstOfType.has('body')) errors.push({ field: '/components', message: 'must include a body component' });
  return errors;
}

/** Validates a template definition; throws `ValidationError` (400) with JSON Pointers. Compile once. */
export function createTemplateCreateValidator(): (body: unknown) => ValidTemplate {
  const schemaErrors = compileSchema(templateCreateSchema);
  return (body) => {
    const errors = pointAtFirstExcessItem(schemaErrors(body));
    if (errors.length > 0) throw new ValidationError(errors);
    const request = body as TemplateCreateRequest;
    const ruleErrors = componentRuleErrors(request.components);
    if (ruleErrors.length > 0) throw new ValidationError(ruleErrors);
    const bodyText = request.components.find((c) => c.type === 'body')?.text ?? '';
    return { ...request, bodyText, placeholderCount: scanPlaceholders(bodyText).numbers.length };
  };
}
