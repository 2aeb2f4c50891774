import { buildOpenApiDocument, compileSchema, messageRequestSchema } from '@switchboard/schemas';

describe('buildOpenApiDocument', () => {
  const doc = buildOpenApiDocument() as {
    openapi: string;
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    components: { schemas: Record<string, unknown>; responses: Record<string, unknown> };
  };

  it('is OpenAPI 3.1 and lists every gateway route this issue implements', () => {
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(operations).toEqual(
      expect.arrayContaining([
        'POST /v1/messages',
        'GET /v1/messages',
        'GET /v1/messages/{id}',
        'GET /v1/messages/{id}/events',
        'GET /v1/providers/chat/webhook',
        'POST /v1/providers/chat/webhook',
        'POST /v1/providers/rcs/events',
        'GET /healthz',
        'GET /readyz',
        'GET /metrics',
        'GET /v1/openapi.json',
        'GET /docs',
      ]),
    );
  });

  it('embeds the very schema object that validates requests', () => {
    expect(doc.components.schemas.MessageRequest).toBe(messageRequestSchema);
  });

  it('resolves every local $ref', () => {
    const refs: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
          if (k === '$ref' && typeof v === 'string') refs.push(v);
          else walk(v);
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      const target = ref
        .slice(2)
        .split('/')
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
      expect({ ref, found: target !== undefined }).toEqual({ ref, found: true });
    }
  });

  it('keeps the component schemas compilable JSON Schema 2020-12', () => {
    for (const name of ['MessageRequest', 'MessageAccepted', 'Problem', 'MessageTransition']) {
      expect(() => compileSchema(doc.components.schemas[name] as Record<string, unknown>)).not.toThrow();
    }
  });
});
