import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Resolver } from '@switchboard/webhooks';
import { createMediaCheck } from '../src/media/media-check';
import { codeOf, media } from './support/media-check';

// A real HEAD through the guarded lookup against a local server; `media.test` resolves to it.
let server: http.Server;
let port: number;
const requests: Array<{ method?: string; url?: string }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests.push({ method: req.method, url: req.url });
    if (req.url === '/moved') res.writeHead(302, { location: `http://127.0.0.1:${port}/f.png` }).end();
    else res.writeHead(200, { 'content-type': 'image/png', 'content-length': '2048' }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  requests.length = 0;
});

const toLocal: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
const image = (link: string) => media('image', link);

describe('media check over the guarded HEAD', () => {
  it('checks a link on an allowed private network', async () => {
    const check = createMediaCheck({ allowHttp: true, allowPrivateNetworks: true, resolver: toLocal });
    expect(await codeOf(check(image(`http://media.test:${port}/f.png`)))).toBeNull();
    expect(requests).toEqual([{ method: 'HEAD', url: '/f.png' }]);
  });

  it('never connects to a name resolving to loopback when private networks are refused', async () => {
    const check = createMediaCheck({ allowHttp: true, resolver: toLocal });
    expect(await codeOf(check(image(`http://media.test:${port}/f.png`)))).toBe('media_link_not_allowed');
    expect(requests).toHaveLength(0);
  });

  it('does not follow redirects', async () => {
    const check = createMediaCheck({ allowHttp: true, allowPrivateNetworks: true, resolver: toLocal });
    expect(await codeOf(check(image(`http://media.test:${port}/moved`)))).toBe('media_link_not_allowed');
    expect(requests).toEqual([{ method: 'HEAD', url: '/moved' }]);
  });
});
