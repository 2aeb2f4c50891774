import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STRICT_POLICY, type Resolver } from '@switchboard/webhooks';
import { createWebhookSender } from '../src/http/webhook-sender';

function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; port: number; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    handler?.(req, res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port, hits })));
}

const fakeDns =
  (table: Record<string, string>): Resolver =>
  async (host) => {
    const address = table[host];
    if (!address) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };

const base = { timeoutMs: 2_000, responseLimitBytes: 1024, excerptChars: 64 };
const send = (sender: ReturnType<typeof createWebhookSender>, url: string) => sender({ url, headers: { 'webhook-id': 'evt_x' }, body: '{}' });

describe('webhook sender and its target guard (real sockets)', () => {
  let receiver: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    receiver = await listen((req, res) => {
      if (req.url === '/redirect') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      else if (req.url === '/big') res.writeHead(200).end('x'.repeat(10_000));
      else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end(), 3_000);
      else res.writeHead(204).end();
    });
  });
  afterAll(
    () =>
      new Promise((r) => {
        // The sender keeps connections alive; end them here so jest has no open handle left.
        receiver.server.closeAllConnections();
        receiver.server.close(() => r(undefined));
      }),
  );

  it('refuses a host name that resolves to a private address, records why, and never connects', async () => {
    const sender = createWebhookSender({ ...base, policy: { ...STRICT_POLICY, allowHttp: true }, resolver: fakeDns({ 'hooks.example.com': '127.0.0.1' }) });
    const before = receiver.hits.length;
    const outcome = await send(sender, `http://hooks.example.com:${receiver.port}/ok`);
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toMatch(/^address_refused: 127\.0\.0\.1 is loopback \(resolved from hooks\.example\.com\)/);
    expect(receiver.hits.length).toBe(before);
  });

  it('refuses a name when any of its addresses is refused (no half-poisoned record is used)', async () => {
    const resolver: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.5', family: 4 },
    ];
    const sender = createWebhookSender({ ...base, policy: { ...STRICT_POLICY, allowHttp: true }, resolver });
    expect((await send(sender, 'http://mixed.example.com/')).error).toMatch(/10\.0\.0\.5 is private/);
  });

  it('resolves and checks the address again for every connection, though it judges a URL text once', async () => {
    const table: Record<string, string> = { 'rebind.example.com': '127.0.0.1' };
    const sender = createWebhookSender({ ...base, policy: { ...STRICT_POLICY, allowHttp: true }, resolver: fakeDns(table) });
    const url = `http://rebind.example.com:${receiver.port}/ok`;
    expect((await send(sender, url)).error).toMatch(/^address_refused: 127\.0\.0\.1 is loopback/);
    table['rebind.example.com'] = '10.0.0.5';
    expect((await send(sender, url)).error).toMatch(/^address_refused: 10\.0\.0\.5 is private/);
    // A refusal of the text itself stays a refusal for good on every attempt.
    for (let i = 0; i < 2; i += 1) expect(await send(sender, `http://localhost:${receiver.port}/`)).toMatchObject({ refusedForGood: true, statusCode: null });
  });

  it('refuses loopback literals and localhost before any connection', async () => {
    const sender = createWebhookSender({ ...base, policy: { ...STRICT_POLICY, allowHttp: true } });
    for (const url of [
      `http://127.0.0.1:${receiver.port}/`,
      `http://127.1:${receiver.port}/`,
      `http://[::ffff:127.0.0.1]:${receiver.port}/`,
      `http://localhost:${receiver.port}/`,
    ]) {
      const outcome = await send(sender, url);
      expect(outcome).toMatchObject({ statusCode: null, refusedForGood: true, error: expect.stringMatching(/^address_refused/) });
    }
  });

  it('connects to the address it checked when the host is allowed', async () => {
    const sender = createWebhookSender({
      ...base,
      policy: { ...STRICT_POLICY, allowHttp: true, allowedHosts: ['hooks.test'] },
      resolver: fakeDns({ 'hooks.test': '127.0.0.1' }),
    });
    const outcome = await send(sender, `http://hooks.test:${receiver.port}/ok`);
    expect(outcome).toMatchObject({ statusCode: 204, error: null });
  });

  it('does not follow a 302 to a private address: the attempt fails and names the redirect', async () => {
    const sender = createWebhookSender({ ...base, policy: { allowHttp: true, allowPrivateNetworks: true, allowedHosts: [] } });
    const outcome = await send(sender, `http://127.0.0.1:${receiver.port}/redirect`);
    expect(outcome.statusCode).toBe(302);
    expect(outcome.error).toBe('redirect_not_followed: 302 to http://169.254.169.254/latest/meta-data');
  });

  it('caps the stored response size and times out a slow answer', async () => {
    const sender = createWebhookSender({ ...base, timeoutMs: 500, policy: { allowHttp: true, allowPrivateNetworks: true, allowedHosts: [] } });
    const big = await send(sender, `http://127.0.0.1:${receiver.port}/big`);
    expect(big).toMatchObject({ statusCode: 200, error: null, responseSize: 1024 });
    expect(big.responseExcerpt).toHaveLength(64);
    const slow = await send(sender, `http://127.0.0.1:${receiver.port}/slow`);
    expect(slow).toMatchObject({ statusCode: null, error: expect.stringMatching(/^timeout/) });
  });

  it('refuses http:// unless allowed', async () => {
    const sender = createWebhookSender({
      ...base,
      policy: { ...STRICT_POLICY, allowedHosts: ['hooks.test'] },
      resolver: fakeDns({ 'hooks.test': '127.0.0.1' }),
    });
    expect(await send(sender, `http://hooks.test:${receiver.port}/`)).toMatchObject({ refusedForGood: true, error: expect.stringMatching(/^scheme_refused/) });
  });
});
