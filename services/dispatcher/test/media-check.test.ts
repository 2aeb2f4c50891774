import { isProviderError } from '@switchboard/providers';
import { createMediaCheck } from '../src/media/media-check';

function stubFetch(status: number, headers: Record<string, string>, url = 'https://cdn.example.com/f') {
  const calls: Array<{ url: string; method?: string }> = [];
  const fetch = (async (input: string, init?: RequestInit) => {
    calls.push({ url: input, method: init?.method });
    return { ok: status >= 200 && status < 300, status, url, headers: new Headers(headers) } as Response;
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

const media = (type: string, link = 'https://cdn.example.com/f') => ({ kind: 'chat' as const, type, payload: { link } });

async function codeOf(promise: Promise<void>): Promise<string | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    if (isProviderError(error) && error.kind === 'permanent') return error.upstreamCode;
    throw error;
  }
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
    const ok = stubFetch(200, { 'content-type': 'image/png' }, 'http://127.0.0.1/f');
    expect(await codeOf(createMediaCheck({ fetch: ok.fetch })(media('image', 'http://127.0.0.1/f')))).toBe('media_link_not_allowed');
    expect(ok.calls).toHaveLength(0);
    expect(await codeOf(createMediaCheck({ fetch: ok.fetch, allowHttp: true })(media('image', 'http://127.0.0.1/f')))).toBeNull();
  });

  it('leaves other content alone', async () => {
    const { fetch, calls } = stubFetch(500, {});
    const check = createMediaCheck({ fetch });
    expect(await codeOf(check({ kind: 'text', text: 'hi' }))).toBeNull();
    expect(await codeOf(check({ kind: 'chat', type: 'location', payload: { latitude: 1, longitude: 2 } }))).toBeNull();
    expect(calls).toHaveLength(0);
  });
});
