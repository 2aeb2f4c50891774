import type { Resolver } from '@switchboard/webhooks';
import { createMediaCheck } from '../src/media/media-check';
import { codeOf, media } from './support/media-check';

function stubFetch(status: number, headers: Record<string, string>, url = 'https://cdn.example.com/f') {
  const calls: Array<{ url: string; method?: string }> = [];
  const fetch = (async (input: string, init?: RequestInit) => {
    calls.push({ url: input, method: init?.method });
    return { ok: status >= 200 && status < 300, status, url, headers: new Headers(headers) } as Response;
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

describe('media check before a chat media send', () => {
  it.each([
    ['image', 'image/jpeg', 5 * 1024 * 1024],
    ['image', 'image/png', 1],
    ['document', 'application/pdf', 100 * 1024 * 1024],
    ['document', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 10],
    ['audio', 'audio/ogg; codecs=opus', 16 * 1024 * 1024],
    ['audio', 'audio/mpeg', 10],
  ])('accepts %s served as %s at %d bytes', async (type, mime, bytes) => {
    const { fetch, calls } = stubFetch(200, { 'content-type': mime, 'content-length': String(bytes) });
    expect(await codeOf(createMediaCheck({ fetch })(media(type)))).toBeNull();
    expect(calls).toEqual([{ url: 'https://cdn.example.com/f', method: 'HEAD' }]);
  });

  it.each([
    ['image', 'image/jpeg', 5 * 1024 * 1024 + 1],
    ['document', 'application/pdf', 100 * 1024 * 1024 + 1],
    ['audio', 'audio/aac', 16 * 1024 * 1024 + 1],
  ])('refuses %s one byte over its limit', async (type, mime, bytes) => {
    const { fetch } = stubFetch(200, { 'content-type': mime, 'content-length': String(bytes) });
    expect(await codeOf(createMediaCheck({ fetch })(media(type)))).toBe('media_too_large');
  });

  it('refuses a type not allowed for the payload type', async () => {
    const { fetch } = stubFetch(200, { 'content-type': 'image/gif', 'content-length': '10' });
    expect(await codeOf(createMediaCheck({ fetch })(media('image')))).toBe('media_type_not_allowed');
    const pdf = stubFetch(200, { 'content-type': 'application/pdf' });
    expect(await codeOf(createMediaCheck({ fetch: pdf.fetch })(media('audio')))).toBe('media_type_not_allowed');
  });

  it('refuses unreachable links and plain http unless allowed', async () => {
    const missing = stubFetch(404, {});
    expect(await codeOf(createMediaCheck({ fetch: missing.fetch })(media('image')))).toBe('media_unreachable');
    const failing = (async () => {
      throw new TypeError('fetch failed');
    }) as unknown as typeof fetch;
    expect(await codeOf(createMediaCheck({ fetch: failing })(media('image')))).toBe('media_unreachable');
    const ok = stubFetch(200, { 'content-type': 'image/png' }, 'http://cdn.example.com/f');
    expect(await codeOf(createMediaCheck({ fetch: ok.fetch })(media('image', 'http://cdn.example.com/f')))).toBe('media_link_not_allowed');
    expect(ok.calls).toHaveLength(0);
    expect(await codeOf(createMediaCheck({ fetch: ok.fetch, allowHttp: true })(media('image', 'http://cdn.example.com/f')))).toBeNull();
  });

  it('does not follow a redirect: a 3xx fails the link as not allowed', async () => {
    const { fetch, calls } = stubFetch(302, { location: 'http://169.254.169.254/latest/meta-data/' });
    expect(await codeOf(createMediaCheck({ fetch })(media('image')))).toBe('media_link_not_allowed');
    expect(calls).toEqual([{ url: 'https://cdn.example.com/f', method: 'HEAD' }]);
  });

  describe('target guard (SSRF)', () => {
    // Links whose IP-literal host is refused never reach the HEAD.
    it.each([
      ['loopback', 'https://127.0.0.1/f.png'],
      ['IPv6 loopback', 'https://[::1]/f.png'],
      ['localhost', 'https://localhost/f.png'],
      ['a 10.x address', 'https://10.1.2.3/f.png'],
      ['a 192.168.x address', 'https://192.168.0.10/f.png'],
      ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data/'],
      ['plain http', 'http://cdn.example.com/f.png'],
      ['credentials in the link', 'https://user:pass@cdn.example.com/f.png'],
    ])('refuses %s', async (_name, link) => {
      const { fetch, calls } = stubFetch(200, { 'content-type': 'image/png' }, link);
      expect(await codeOf(createMediaCheck({ fetch })(media('image', link)))).toBe('media_link_not_allowed');
      expect(calls).toHaveLength(0);
    });

    it('opens private networks with allowPrivateNetworks, never the metadata address', async () => {
      const { fetch, calls } = stubFetch(200, { 'content-type': 'image/png' });
      const check = createMediaCheck({ fetch, allowHttp: true, allowPrivateNetworks: true });
      expect(await codeOf(check(media('image', 'http://127.0.0.1:8090/f.png')))).toBeNull();
      expect(await codeOf(check(media('image', 'https://10.1.2.3/f.png')))).toBeNull();
      expect(await codeOf(check(media('image', 'http://169.254.169.254/latest/meta-data/')))).toBe('media_link_not_allowed');
      expect(await codeOf(check(media('image', 'http://[fd00:ec2::254]/')))).toBe('media_link_not_allowed');
      expect(calls.map((c) => c.url)).toEqual(['http://127.0.0.1:8090/f.png', 'https://10.1.2.3/f.png']);
    });

    // The default HEAD resolves names through the guarded lookup, so a refused address fails before any connect.
    const dns =
      (address: string): Resolver =>
      async () => [{ address, family: address.includes(':') ? 6 : 4 }];
    it.each([
      ['loopback', '127.0.0.1', {}],
      ['a 10.x address', '10.0.0.5', {}],
      ['the cloud metadata address, even with private networks allowed', '169.254.169.254', { allowPrivateNetworks: true }],
    ])('refuses a name that resolves to %s', async (_name, address, options) => {
      const check = createMediaCheck({ resolver: dns(address), timeoutMs: 2_000, ...options });
      expect(await codeOf(check(media('image', 'https://media.example.com/f.png')))).toBe('media_link_not_allowed');
    });
  });

  it('leaves other content alone', async () => {
    const { fetch, calls } = stubFetch(500, {});
    const check = createMediaCheck({ fetch });
    expect(await codeOf(check({ kind: 'text', text: 'hi' }))).toBeNull();
    expect(await codeOf(check({ kind: 'chat', type: 'location', payload: { latitude: 1, longitude: 2 } }))).toBeNull();
    expect(calls).toHaveLength(0);
  });
});
