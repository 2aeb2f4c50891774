import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { SecretKeyring } from '@switchboard/store';
import { apiDocsRouter } from '../src/routes/api-docs.route';
import { loadConfig } from '../src/config';

/** `servers` is absolute: PUBLIC_BASE_URL, or the host the request was sent to (docs/api.md#the-openapi-document). */
async function serversOf(publicBaseUrl: string | undefined, headers: Record<string, string> = {}): Promise<unknown> {
  const app = express();
  app.use(apiDocsRouter({ publicBaseUrl }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    // node:http, not fetch: fetch does not let a caller choose the Host header.
    const text = await new Promise<string>((resolve, reject) => {
      get({ host: '127.0.0.1', port, path: '/v1/openapi.json', headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(body));
      }).on('error', reject);
    });
    return (JSON.parse(text) as { servers: unknown }).servers;
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('the servers entry of GET /v1/openapi.json', () => {
  it('names PUBLIC_BASE_URL when it is set', async () => {
    expect(await serversOf('https://api.example.com')).toEqual([{ url: 'https://api.example.com', description: 'This gateway' }]);
  });

  it('names the host the request was sent to otherwise', async () => {
    expect(await serversOf(undefined, { host: 'sb.internal:9000' })).toEqual([{ url: 'http://sb.internal:9000', description: 'This gateway' }]);
  });

  it('takes PUBLIC_BASE_URL only as an absolute http(s) URL, without a trailing slash', () => {
    const base = { DATABASE_URL: 'postgres://unused/unused', REDIS_URL: 'redis://unused:6379', SECRETS_ENCRYPTION_KEYS: SecretKeyring.generateText('test1') };
    expect(loadConfig({ ...base, PUBLIC_BASE_URL: 'https://api.example.com/' }).publicBaseUrl).toBe('https://api.example.com');
    expect(loadConfig(base).publicBaseUrl).toBeUndefined();
    const exit = jest.spyOn(process, 'exit').mockImplementation(((code: number) => {
      throw new Error(`exit ${code}`);
    }) as never);
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(() => loadConfig({ ...base, PUBLIC_BASE_URL: 'api.example.com' })).toThrow('exit 78');
      expect(stderr.mock.calls.map((c) => String(c[0])).join('')).toContain('PUBLIC_BASE_URL is invalid');
    } finally {
      exit.mockRestore();
      stderr.mockRestore();
    }
  });
});
