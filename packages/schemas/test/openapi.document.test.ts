import { buildOpenApiDocument, compileSchema, eventListQuerySchema, messageRequestSchema, webhookEndpointRequestSchema } from '@switchboard/schemas';

describe('buildOpenApiDocument', () => {
  const doc = buildOpenApiDocument() as {
    openapi: string;
    paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown; parameters?: Array<{ name: string; schema: unknown }> }>>;
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
        'POST /v1/webhooks',
        'GET /v1/webhooks',
        'GET /v1/webhooks/{id}',
        'DELETE /v1/webhooks/{id}',
        'POST /v1/webhooks/{id}/rotate-secret',
        'GET /v1/webhooks/{id}/deliveries',
        'GET /v1/events',
        'GET /v1/events/{id}',
        'POST /v1/events/{id}/redeliver',
        'GET /v1/account/webhook-secret',
      ]),
    );
  });

  it('covers webhooks, events and the account secret, with the scope each needs', () => {
    const security = Object.fromEntries(
      Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([m, op]) => [`${m.toUpperCase()} ${path}`, op.security])),
    );
    const anyKey = [{ bearerAuth: [] }];
    const write = [{ bearerAuth: ['webhooks:write'] }];
    expect(security).toMatchObject({
      'POST /v1/webhooks': write,
      'GET /v1/webhooks': anyKey,
      'GET /v1/webhooks/{id}': anyKey,
      'DELETE /v1/webhooks/{id}': write,
      'POST /v1/webhooks/{id}/rotate-secret': write,
      'GET /v1/webhooks/{id}/deliveries': anyKey,
      'GET /v1/events': anyKey,
      'GET /v1/events/{id}': anyKey,
      'POST /v1/events/{id}/redeliver': anyKey,
      'GET /v1/account/webhook-secret': anyKey,
    });
  });

  it('answers every error of every operation with the problem schema', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) < 400 || path === '/readyz') continue;
          expect({ at: `${method} ${path} ${status}`, response }).toEqual({ at: `${method} ${path} ${status}`, response: { $ref: `#/components/responses/Problem${status}` } });
        }
      }
    }
  });

  it('embeds the very schema objects that validate requests', () => {
    expect(doc.components.schemas.MessageRequest).toBe(messageRequestSchema);
    expect(doc.components.schemas.WebhookEndpointRequest).toBe(webhookEndpointRequestSchema);
    const filters = doc.paths['/v1/events'].get.parameters ?? [];
    expect(filters.find((p) => p.name === 'type')?.schema).toBe((eventListQuerySchema.properties as Record<string, unknown>).type);
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
    const webhookSchemas = ['WebhookEndpointRequest', 'WebhookEndpoint', 'WebhookEndpointCreated', 'WebhookSecretRotation', 'WebhookAttempt', 'Event', 'EventDetail', 'EventRedelivery', 'AccountWebhookSecret'];
    for (const name of ['MessageRequest', 'MessageAccepted', 'Problem', 'MessageTransition', ...webhookSchemas]) {
      expect(() => compileSchema(doc.components.schemas[name] as Record<string, unknown>)).not.toThrow();
    }
  });
});
