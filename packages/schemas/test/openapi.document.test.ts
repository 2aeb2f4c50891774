import {
  buildOpenApiDocument,
  compileSchema,
  createOpenApiResponseValidator,
  eventListQuerySchema,
  generatorFriendly,
  messageRequestSchema,
  REQUEST_EXAMPLES,
  webhookEndpointRequestSchema,
} from '@switchboard/schemas';
import { EVENT_TYPES } from '@switchboard/webhooks';

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
    const scopes = Object.fromEntries(
      Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.entries(ops).map(([m, op]) => [`${m.toUpperCase()} ${path}`, (op as Record<string, unknown>)['x-required-scopes']]),
      ),
    );
    expect(scopes).toMatchObject({
      'POST /v1/webhooks': ['webhooks:write'],
      'GET /v1/webhooks': [],
      'DELETE /v1/webhooks/{id}': ['webhooks:write'],
      'GET /v1/upstreams': ['admin'],
    });
    // A bearer scheme declares no scopes: the requirement itself lists none (docs/api.md#scopes-in-the-document).
    const anyKey = [{ bearerAuth: [] }];
    const write = anyKey;
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
          expect({ at: `${method} ${path} ${status}`, response }).toEqual({
            at: `${method} ${path} ${status}`,
            response: { $ref: `#/components/responses/Problem${status}` },
          });
        }
      }
    }
  });

  it('embeds the very schema objects that validate requests', () => {
    // Mechanically made generator-friendly (const → one-value enum), so they accept exactly the same.
    expect(doc.components.schemas.MessageRequest).toEqual(generatorFriendly(messageRequestSchema));
    expect(doc.components.schemas.WebhookEndpointRequest).toEqual(generatorFriendly(webhookEndpointRequestSchema));
    const filters = doc.paths['/v1/events'].get.parameters ?? [];
    expect(filters.find((p) => p.name === 'type')?.schema).toEqual(generatorFriendly((eventListQuerySchema.properties as Record<string, unknown>).type));
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
    const webhookSchemas = [
      'WebhookEndpointRequest',
      'WebhookEndpoint',
      'WebhookEndpointCreated',
      'WebhookSecretRotation',
      'WebhookAttempt',
      'Event',
      'EventDetail',
      'EventRedelivery',
      'AccountWebhookSecret',
    ];
    for (const name of ['MessageRequest', 'MessageAccepted', 'Problem', 'MessageTransition', ...webhookSchemas]) {
      expect(() => compileSchema(doc.components.schemas[name] as Record<string, unknown>)).not.toThrow();
    }
  });

  it('has no const, and the public operations say they take no key', () => {
    expect(JSON.stringify(doc)).not.toContain('"const"');
    const publicOps = [
      'GET /healthz',
      'GET /readyz',
      'GET /metrics',
      'GET /v1/openapi.json',
      'GET /v1/providers/chat/webhook',
      'POST /v1/providers/chat/webhook',
      'POST /v1/providers/rcs/events',
    ];
    for (const name of publicOps) {
      const [method, path] = name.split(' ');
      expect({ name, security: doc.paths[path][method.toLowerCase()].security }).toEqual({ name, security: [] });
    }
  });

  it('gives every operation a tag, a description and examples for its JSON bodies', () => {
    const known = new Set((doc as unknown as { tags: Array<{ name: string }> }).tags.map((t) => t.name));
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, raw] of Object.entries(ops)) {
        const op = raw as Record<string, unknown> & {
          tags?: string[];
          description?: string;
          requestBody?: { content: Record<string, { examples?: unknown }> };
        };
        const at = `${method} ${path}`;
        expect({ at, tagged: (op.tags ?? []).every((t) => known.has(t)) && (op.tags ?? []).length === 1 }).toEqual({ at, tagged: true });
        expect({ at, described: typeof op.description === 'string' && op.description.length > 10 }).toEqual({ at, described: true });
        if (op.requestBody) expect({ at, example: op.requestBody.content['application/json']?.examples !== undefined }).toEqual({ at, example: true });
        for (const [status, response] of Object.entries(op.responses as Record<string, { content?: Record<string, { examples?: unknown }> }>)) {
          for (const [type, media] of Object.entries(response.content ?? {}))
            expect({ at: `${at} ${status} ${type}`, example: media.examples !== undefined }).toEqual({ at: `${at} ${status} ${type}`, example: true });
        }
      }
    }
  });

  it('writes request examples that the request validators accept', () => {
    const requests: Record<string, string> = {
      sendMessage: 'MessageRequest',
      sendChatMessage: 'ChatMessageRequest',
      updateAccountSettings: 'AccountSettingsRequest',
      createTemplate: 'TemplateCreateRequest',
      createSuppression: 'SuppressionRequest',
      createWebhookEndpoint: 'WebhookEndpointRequest',
      createCall: 'CallRequest',
      createAgent: 'AgentRequest',
      replaceAgent: 'AgentRequest',
    };
    for (const [operationId, schemaName] of Object.entries(requests)) {
      const validate = compileSchema(doc.components.schemas[schemaName] as Record<string, unknown>);
      for (const [name, example] of Object.entries(REQUEST_EXAMPLES[operationId]))
        expect({ at: `${operationId}/${name}`, errors: validate(example.value) }).toEqual({ at: `${operationId}/${name}`, errors: [] });
    }
  });

  it('illustrates every response with an example its own schema accepts', () => {
    const check = createOpenApiResponseValidator(doc);
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, raw] of Object.entries(
          op.responses as Record<string, { $ref?: string; content?: Record<string, { examples?: Record<string, { value: unknown }> }> }>,
        )) {
          const response = raw.$ref ? (doc.components.responses[raw.$ref.split('/').pop() as string] as typeof raw) : raw;
          for (const [type, media] of Object.entries(response.content ?? {})) {
            if (!type.includes('json')) continue;
            const example = Object.values(media.examples ?? {})[0]?.value;
            const concrete = path.replace(/\{[^}]+\}/g, 'x_1');
            expect({ at: `${method} ${path} ${status}`, problems: check(method.toUpperCase(), concrete, Number(status), type, example).problems }).toEqual({
              at: `${method} ${path} ${status}`,
              problems: [],
            });
          }
        }
      }
    }
  });

  it('describes every event type in the webhooks section, with the Standard Webhooks headers', () => {
    const webhooks = (doc as unknown as { webhooks: Record<string, { post: { parameters: Array<{ name: string }> } }> }).webhooks;
    expect(Object.keys(webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) expect(webhooks[type].post.parameters.map((p) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
  });
});
