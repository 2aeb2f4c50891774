import { UnprocessableError, ValidationError } from '@switchboard/domain';
import { compileQuerySchema, createWebhookEndpointRequestValidator, eventListQuerySchema } from '@switchboard/schemas';

const strict = { allowHttp: false, allowPrivateNetworks: false, allowedHosts: [] };

function errorOf(run: () => unknown): { name: string; fields: Array<{ field: string; message: string }> } {
  try {
    run();
  } catch (error) {
    const e = error as ValidationError | UnprocessableError;
    return { name: e.constructor.name, fields: [...(e.errors ?? [])] };
  }
  throw new Error('expected a refusal');
}

describe('webhook endpoint request', () => {
  const validate = createWebhookEndpointRequestValidator(strict);

  it('returns a valid body as it is', () => {
    const body = { url: 'https://hooks.example.com/x', events: ['*'], description: 'all' };
    expect(validate(body)).toBe(body);
  });

  it('points at each bad event type and each repeat', () => {
    expect(errorOf(() => validate({ url: 'https://hooks.example.com/x', events: ['message.sent', 'nope', 'message.sent'] })).fields).toEqual([
      { field: '/events/1', message: expect.stringMatching(/^must be one of: message\.sent, .*, \*$/) },
      { field: '/events/2', message: 'duplicates item 0' },
    ]);
  });

  it('refuses credentials in the URL as malformed (400) and a private address by policy (422)', () => {
    expect(errorOf(() => validate({ url: 'https://a:b@hooks.example.com/', events: ['*'] }))).toEqual({
      name: 'ValidationError',
      fields: [{ field: '/url', message: 'must be an absolute http(s) URL with a host and without credentials' }],
    });
    expect(errorOf(() => validate({ url: 'http://hooks.example.com/', events: ['*'] })).name).toBe('UnprocessableError');
    expect(errorOf(() => validate({ url: 'https://192.168.1.1/', events: ['*'] }))).toEqual({
      name: 'UnprocessableError',
      fields: [{ field: '/url', message: expect.stringMatching(/^address_refused/) }],
    });
    expect(createWebhookEndpointRequestValidator({ ...strict, allowPrivateNetworks: true })({ url: 'https://192.168.1.1/', events: ['*'] })).toBeTruthy();
  });
});

describe('query schemas', () => {
  const filters = compileQuerySchema(eventListQuerySchema);

  it('name the parameter, and say when it was given twice', () => {
    expect(filters({ type: 'message.sent', resource_id: 'inb_01JD3Q4W6T9ZK1H8X2C5V7B3NM', other: 'x' })).toEqual([]);
    expect(filters({ type: ['message.sent', 'message.read'], resource_id: 'tpl_01JD3Q4W6T9ZK1H8X2C5V7B3NM' })).toEqual([
      { field: 'query:type', message: 'must be given once' },
      { field: 'query:resource_id', message: 'must be a msg_, call_ or inb_ id' },
    ]);
  });
});
