import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { JsonSchema } from './json-schema';

/*
 * Holds real answers to the OpenAPI document (docs/api.md#the-openapi-document): the e2e helpers pass
 * every response through it, so a field the document forgets or mistypes fails a test.
 */

const DOCUMENT_ID = 'urn:switchboard:openapi';

const pointer = (...parts: string[]): string => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

interface Operation {
  responses?: Record<string, JsonSchema>;
}

export interface ResponseCheck {
  /** The document's path template that matched, e.g. `/v1/messages/{id}`; null when none did. */
  template: string | null;
  /** What is wrong; empty when the body conforms. */
  problems: string[];
}

/** `(method, path, status, contentType, body)` → the template matched and what does not conform. */
export type OpenApiResponseValidator = (method: string, path: string, status: number, contentType: string | null, body: unknown) => ResponseCheck;

function templateMatcher(template: string): RegExp {
  const source = template
    .split(/\{[^}]+\}/)
    .map((literal) => literal.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${source}/?$`);
}

export function createOpenApiResponseValidator(document: JsonSchema): OpenApiResponseValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true, validateFormats: true });
  addFormats(ajv, { mode: 'fast', formats: ['uri', 'date-time', 'uuid', 'date'] });
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  const components = ((document.components as JsonSchema | undefined)?.responses ?? {}) as Record<string, JsonSchema>;
  // Literal segments beat parameters: /v1/messages/chat before /v1/messages/{id}.
  const templates = Object.keys(paths)
    .map((template) => ({ template, matcher: templateMatcher(template), literal: template.replace(/\{[^}]+\}/g, '').length }))
    .sort((a, b) => b.literal - a.literal);
  const compiled = new Map<string, ReturnType<typeof ajv.getSchema>>();

  return (method, path, status, contentType, body) => {
    const bare = path.split('?')[0];
    const found = templates.find((t) => t.matcher.test(bare));
    if (!found) return { template: null, problems: [`${method} ${bare}: no path of the document matches`] };
    const operation = paths[found.template][method.toLowerCase()];
    if (!operation) return { template: found.template, problems: [`${method} ${found.template}: not in the document`] };
    const responses = operation.responses ?? {};
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => responses[k]);
    if (!key) return { template: found.template, problems: [`${method} ${found.template}: status ${status} is not documented`] };
    let response = responses[key];
    let where = pointer('paths', found.template, method.toLowerCase(), 'responses', key);
    if (typeof response.$ref === 'string') {
      const name = response.$ref.split('/').pop() as string;
      response = components[name] ?? {};
      where = pointer('components', 'responses', name);
    }
    const content = (response.content ?? {}) as Record<string, JsonSchema>;
    const mediaTypes = Object.keys(content);
    if (mediaTypes.length === 0) {
      return {
        template: found.template,
        problems: body === undefined || body === '' ? [] : [`${method} ${found.template} ${status}: a body where the document has none`],
      };
    }
    const type = (contentType ?? '').split(';')[0].trim();
    const media = mediaTypes.find((m) => m === type);
    if (!media)
      return {
        template: found.template,
        problems: [`${method} ${found.template} ${status}: content type ${type || 'none'}, documented ${mediaTypes.join(', ')}`],
      };
    if (!content[media].schema || !media.includes('json')) return { template: found.template, problems: [] };
    const ref = `${DOCUMENT_ID}#/${where}/content/${pointer(media)}/schema`;
    if (!compiled.has(ref)) compiled.set(ref, ajv.getSchema(ref));
    const validate = compiled.get(ref);
    if (!validate) return { template: found.template, problems: [`cannot compile ${ref}`] };
    if (validate(body)) return { template: found.template, problems: [] };
    return {
      template: found.template,
      problems: (validate.errors ?? []).map(
        (e) => `${method} ${found.template} ${status}: ${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
      ),
    };
  };
}
