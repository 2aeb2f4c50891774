import { ApiError } from '@switchboard/domain';
import { createMessageRequestValidator, tooDeepAt, type WebhookTargetPolicy } from '@switchboard/schemas';

const strict: WebhookTargetPolicy = { allowHttp: false, allowPrivateNetworks: false, allowedHosts: [] };
const validate = createMessageRequestValidator({ webhookTargets: strict });

const valid = { channel: 'sms', recipient: '+14155552671', content: { text: 'hello' } };

function problemOf(body: unknown, check = validate): { status: number; code: string; fields: string[] } {
  try {
    check(body);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, code: error.code, fields: (error.errors ?? []).map((e) => e.field) };
  }
  throw new Error('expected the body to be refused');
}

describe('POST /v1/messages body: schema rules as 400 field errors', () => {
  it('accepts a minimal text message and both template shapes', () => {
    expect(validate(valid)).toEqual(valid);
    const shapeA = { channel: 'chat', recipient: '+14155552671', template: { name: 'otp', language: 'en_US', parameters: [{ type: 'text', text: '1234' }] } };
    const shapeB = {
      channel: 'chat',
      recipient: '+14155552671',
      template: { name: 'otp', language: 'en', components: [{ type: 'body', parameters: [{ type: 'text', text: '1234' }] }] },
    };
    expect(validate(shapeA)).toEqual(shapeA);
    expect(validate(shapeB)).toEqual(shapeB);
  });

  it.each<[string, unknown, string[]]>([
    ['a missing property points at itself', { channel: 'sms', content: { text: 'x' } }, ['/recipient']],
    ['an unknown property points at itself', { ...valid, colour: 'red' }, ['/colour']],
    ['an unknown channel', { ...valid, channel: 'fax' }, ['/channel']],
    ['a non-string recipient', { ...valid, recipient: 14155552671 }, ['/recipient']],
    ['a recipient that is not E.164', { ...valid, recipient: '004415555' }, ['/recipient']],
    ['an E.164-shaped but invalid number', { ...valid, recipient: '+1415555267' }, ['/recipient']],
    ['empty text', { ...valid, content: { text: '' } }, ['/content/text']],
    ['text over 4096 characters', { ...valid, content: { text: 'a'.repeat(4097) } }, ['/content/text']],
    ['content that is not an object', { ...valid, content: 'hello' }, ['/content']],
    ['an unknown property in text content', { ...valid, content: { text: 'x', bold: true } }, ['/content/bold']],
    ['a chat payload of an unknown type', { ...valid, channel: 'chat', content: { type: 'sticker' } }, ['/content/type']],
    ['a chat payload without its typed object', { ...valid, channel: 'chat', content: { type: 'image' } }, ['/content/image']],
    [
      'a chat payload with a foreign property',
      { ...valid, channel: 'chat', content: { type: 'image', image: { link: 'https://cdn.example.com/a.png' }, audio: {} } },
      ['/content/audio'],
    ],
    [
      'a template parameter deep inside components',
      {
        channel: 'chat',
        recipient: '+14155552671',
        template: {
          name: 'otp',
          language: 'en',
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'a' },
                { type: 'text', text: 7 },
              ],
            },
          ],
        },
      },
      ['/template/components/0/parameters/1/text'],
    ],
    [
      'a template component of another type',
      { channel: 'chat', recipient: '+14155552671', template: { name: 'otp', language: 'en', components: [{ type: 'header', parameters: [] }] } },
      ['/template/components/0/type'],
    ],
    [
      'a template with both shapes',
      { channel: 'chat', recipient: '+14155552671', template: { name: 'otp', language: 'en', parameters: [], components: [{ type: 'body', parameters: [] }] } },
      ['/template/components'],
    ],
    ['a template name with capitals', { channel: 'chat', recipient: '+14155552671', template: { name: 'OTP', language: 'en' } }, ['/template/name']],
    ['a callback_url that is not a URL', { ...valid, callback_url: 'not a url' }, ['/callback_url']],
    ['a callback_url with another scheme', { ...valid, callback_url: 'ftp://example.com/x' }, ['/callback_url']],
    ['a callback_url over 2048 characters', { ...valid, callback_url: `https://example.com/${'a'.repeat(2040)}` }, ['/callback_url']],
    ['fallback with a non-auto channel', { ...valid, fallback: ['sms'] }, ['/fallback']],
    ['a duplicated fallback channel', { ...valid, channel: 'auto', fallback: ['sms', 'chat', 'sms'] }, ['/fallback/2']],
    ['an unknown fallback channel', { ...valid, channel: 'auto', fallback: ['fax'] }, ['/fallback/0']],
    ['an empty fallback', { ...valid, channel: 'auto', fallback: [] }, ['/fallback']],
    ['ttl_seconds of 0', { ...valid, ttl_seconds: 0 }, ['/ttl_seconds']],
    ['ttl_seconds over 48 h', { ...valid, ttl_seconds: 172_801 }, ['/ttl_seconds']],
    ['a fractional ttl_seconds', { ...valid, ttl_seconds: 1.5 }, ['/ttl_seconds']],
    ['fallback_timeout_seconds under 5', { ...valid, fallback_timeout_seconds: 4 }, ['/fallback_timeout_seconds']],
    ['fallback_timeout_seconds over 3600', { ...valid, fallback_timeout_seconds: 3601 }, ['/fallback_timeout_seconds']],
    ['17 metadata keys', { ...valid, metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }, ['/metadata']],
    ['a metadata key over 40 characters', { ...valid, metadata: { ['k'.repeat(41)]: 'v' } }, [`/metadata/${'k'.repeat(41)}`]],
    ['a metadata value over 500 characters', { ...valid, metadata: { order: 'v'.repeat(501) } }, ['/metadata/order']],
    ['a metadata value that is not a string', { ...valid, metadata: { order: 42 } }, ['/metadata/order']],
    ['a metadata key with a slash, escaped', { ...valid, metadata: { 'a/b': 1 } }, ['/metadata/a~1b']],
    ['a from that is not E.164', { ...valid, from: 'ACME' }, ['/from']],
    ['a body that is an array', [valid], ['']],
  ])('%s', (_name, body, fields) => {
    const problem = problemOf(body);
    expect(problem).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(problem.fields).toEqual(fields);
  });

  it('reports every mistake at once', () => {
    expect(problemOf({ channel: 'fax', content: { text: '' }, extra: 1 }).fields.sort()).toEqual(['/channel', '/content/text', '/extra', '/recipient']);
  });
});

describe('POST /v1/messages body: semantic rules as 422', () => {
  it.each<[string, unknown, string, string[]]>([
    ['neither content nor template', { channel: 'sms', recipient: '+14155552671' }, 'content_or_template_required', ['/content']],
    ['both content and template', { ...valid, template: { name: 'otp', language: 'en' } }, 'content_or_template_required', ['/template']],
    [
      'a chat payload on sms',
      {
        ...valid,
        content: {
          type: 'interactive',
          interactive: { type: 'button', body: { text: 'Pick' }, action: { buttons: [{ type: 'reply', reply: { id: 'a', title: 'A' } }] } },
        },
      },
      'content_not_supported_on_channel',
      ['/content/type'],
    ],
    [
      'a chat payload on rcs',
      { ...valid, channel: 'rcs', content: { type: 'location', location: { latitude: 1, longitude: 2 } } },
      'content_not_supported_on_channel',
      ['/content/type'],
    ],
    ['a plain http callback', { ...valid, callback_url: 'http://example.com/hook' }, 'webhook_url_not_allowed', ['/callback_url']],
    ['a loopback callback', { ...valid, callback_url: 'https://127.0.0.1/hook' }, 'webhook_url_not_allowed', ['/callback_url']],
    ['a private callback', { ...valid, callback_url: 'https://192.168.1.10/hook' }, 'webhook_url_not_allowed', ['/callback_url']],
    ['a CGNAT callback', { ...valid, callback_url: 'https://100.64.0.1/hook' }, 'webhook_url_not_allowed', ['/callback_url']],
    ['a metadata callback', { ...valid, callback_url: 'https://169.254.169.254/latest' }, 'webhook_url_not_allowed', ['/callback_url']],
    ['an obfuscated loopback callback', { ...valid, callback_url: 'https://0x7f.1/hook' }, 'webhook_url_not_allowed', ['/callback_url']],
    ['an IPv4-mapped IPv6 private callback', { ...valid, callback_url: 'https://[::ffff:10.0.0.1]/hook' }, 'webhook_url_not_allowed', ['/callback_url']],
  ])('%s', (_name, body, code, fields) => {
    expect(problemOf(body)).toEqual({ status: 422, code, fields });
  });

  it('allows chat payloads on chat and auto, and text on every channel', () => {
    for (const channel of ['chat', 'auto'])
      expect(() => validate({ ...valid, channel, content: { type: 'image', image: { link: 'https://cdn.example.com/a.png' } } })).not.toThrow();
    for (const channel of ['chat', 'rcs', 'sms', 'auto']) expect(() => validate({ ...valid, channel })).not.toThrow();
  });

  it('follows the deployment policy for http and private targets, but never allows metadata addresses', () => {
    const relaxed = createMessageRequestValidator({ webhookTargets: { allowHttp: true, allowPrivateNetworks: true, allowedHosts: [] } });
    expect(() => relaxed({ ...valid, callback_url: 'http://127.0.0.1:9000/hook' })).not.toThrow();
    expect(problemOf({ ...valid, callback_url: 'http://169.254.169.254/' }, relaxed).code).toBe('webhook_url_not_allowed');
    expect(problemOf({ ...valid, callback_url: 'https://[fd00:ec2::254]/' }, relaxed).code).toBe('webhook_url_not_allowed');
  });
});

describe('nesting depth', () => {
  it('points at the first value nested too deep', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(tooDeepAt({ a: deep })).toBe(`/a${'/0'.repeat(31)}`);
    expect(tooDeepAt({ a: [[{ b: 1 }]] })).toBeNull();
  });
});
