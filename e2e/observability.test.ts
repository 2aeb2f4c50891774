import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAccountKey, createTestDatabase, eventually, launchChromium, startStack, type Stack, type TestDatabase } from '@switchboard/devstack';
import { metricNamesExposed, metricNamesIn, observabilityExpressions } from '@switchboard/deploy-check';
import { ReceiverProcess, TEST_REDIS_URL } from './webhooks-harness';

// docs/observability.md on the real stack: Bull Board behind the admin scope, the dashboard's and alerts'
// metrics in real scrapes, and a request's traceparent reaching the webhook it causes.
describe('observability', () => {
  let database: TestDatabase;
  let stack: Stack;
  const receiver = new ReceiverProcess();
  let admin: string;
  let sender: string;
  let reader: string;
  // An OTLP/HTTP collector stand-in: the JSON export requests the services send.
  let collector: Server;
  const exported: Array<{
    resourceSpans: Array<{
      resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
      scopeSpans: Array<{ spans: Array<{ traceId: string; name: string }> }>;
    }>;
  }> = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    await receiver.start();
    collector = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.url === '/v1/traces' && /json/.test(req.headers['content-type'] ?? '')) exported.push(JSON.parse(body));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: TEST_REDIS_URL,
      prefix: `{sbobs${randomBytes(4).toString('hex')}}`,
      workers: ['dispatcher', 'webhook-delivery'],
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
        TARGET_ALLOW_HTTP: 'true',
        TARGET_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_RETRY_SCHEDULE_MS: '0,200,500,1000',
      },
    });
    admin = (await createAccountKey(database.url, { account: 'obs-admin', scopes: ['admin'] })).key;
    sender = (await createAccountKey(database.url, { account: 'obs-sender', scopes: ['*'] })).key;
    reader = (await createAccountKey(database.url, { account: 'obs-reader', scopes: ['messages:read', 'messages:write'] })).key;
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await receiver.kill();
    await database?.drop();
    await new Promise((resolve) => collector?.close(resolve));
  });

  const basic = (password: string) => `Basic ${Buffer.from(`ops:${password}`).toString('base64')}`;

  it('serves Bull Board only to admin keys, with its assets from the gateway', async () => {
    const none = await fetch(`${stack.baseUrl}/admin/queues`);
    expect(none.status).toBe(401);
    expect(none.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic /);
    const notAdmin = await fetch(`${stack.baseUrl}/admin/queues`, {
      headers: { authorization: `Bearer ${sender.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'))}` },
    });
    expect(notAdmin.status).toBe(401);
    const wrongScope = await fetch(`${stack.baseUrl}/admin/queues`, { headers: { authorization: basic(reader) } });
    expect(wrongScope.status).toBe(403);

    const page = await fetch(`${stack.baseUrl}/admin/queues`, { headers: { authorization: basic(admin) } });
    expect(page.status).toBe(200);
    expect(page.headers.get('www-authenticate')).toBeNull();
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^https?:/);
      const res = await fetch(new URL(asset, `${stack.baseUrl}/admin/queues/`), { headers: { authorization: basic(admin) } });
      expect({ asset, status: res.status }).toEqual({ asset, status: 200 });
    }
    const api = await fetch(`${stack.baseUrl}/admin/queues/api/queues?activeQueue=message-send&page=1&jobsPerPage=10`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(api.status).toBe(200);
    const { queues } = (await api.json()) as { queues: Array<{ name: string }> };
    expect(queues.map((q) => q.name).sort()).toEqual([
      'event-fanout',
      'message-send',
      'message-send-bulk',
      'message-send-chunks',
      'message-timers',
      'provider-callbacks',
      'template-submit',
      'webhook-delivery',
    ]);
  });

  it('renders Bull Board in a real browser that logs in with Basic, under its CSP, loading nothing from elsewhere', async () => {
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ httpCredentials: { username: 'ops', password: admin } });
      const page = await context.newPage();
      const foreign: string[] = [];
      const refused: string[] = [];
      page.on('request', (r) => void (new URL(r.url()).origin !== new URL(stack.baseUrl).origin && foreign.push(r.url())));
      page.on('console', (m) => void (m.type() === 'error' && /Content Security Policy/i.test(m.text()) && refused.push(m.text())));
      await page.goto(`${stack.baseUrl}/admin/queues`);
      await page.getByText('message-send').first().waitFor({ timeout: 30_000 });
      await page.getByText('webhook-delivery').first().waitFor({ timeout: 30_000 });
      // Only the Google Fonts stylesheet is refused (docs/observability.md#bull-board); it never leaves the browser.
      expect(refused.every((text) => /fonts\.googleapis\.com/.test(text))).toBe(true);
      expect(foreign.every((url) => url.startsWith('https://fonts.googleapis.com/'))).toBe(true);
    } finally {
      await browser.close();
    }
  });

  it("carries the request's traceparent through the queues to the webhook, and every dashboard and alert metric is scraped", async () => {
    const traceId = randomBytes(16).toString('hex');
    const parentSpan = randomBytes(8).toString('hex');
    const idempotencyKey = randomUUID();
    const send = () =>
      fetch(`${stack.baseUrl}/v1/messages`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${sender}`,
          'content-type': 'application/json',
          'idempotency-key': idempotencyKey,
          traceparent: `00-${traceId}-${parentSpan}-01`,
        },
        body: JSON.stringify({ channel: 'sms', recipient: '+447911123402', content: { text: 'traced' }, callback_url: receiver.url('/traced') }),
      });
    expect((await send()).status).toBe(202);
    expect((await send()).headers.get('idempotent-replayed')).toBe('true');

    const deliveries = await eventually(
      async () => receiver.received('/traced').map((d) => ({ type: (JSON.parse(d.body) as { type: string }).type, traceparent: d.headers.traceparent ?? '' })),
      (received) => ['message.sent', 'message.delivered'].every((t) => received.some((d) => d.type === t)),
      { what: 'the webhooks of the traced message', timeoutMs: 60_000 },
    );
    for (const { traceparent } of deliveries) expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/);
    // message.sent follows from the request; message.delivered from the carrier's receipt, its own trace.
    const sent = deliveries.find((d) => d.type === 'message.sent')!;
    const [, trace, span, flags] = sent.traceparent.split('-');
    expect({ trace, flags }).toEqual({ trace: traceId, flags: '01' });
    expect(span).not.toBe(parentSpan);

    // Each service exported its spans of the trace over OTLP: the request, the jobs, the webhook call.
    const servicesInTrace = await eventually(
      async () =>
        new Set(
          exported.flatMap((e) =>
            e.resourceSpans
              .filter((r) => r.scopeSpans.some((s) => s.spans.some((sp) => sp.traceId === traceId)))
              .map((r) => r.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue),
          ),
        ),
      (services) => ['api-gateway', 'dispatcher', 'webhook-delivery'].every((s) => services.has(s)),
      { what: 'spans of the trace from every service at the OTLP endpoint', timeoutMs: 30_000 },
    );
    expect(servicesInTrace.size).toBeGreaterThanOrEqual(3);

    const scrapes = await Promise.all(
      [stack.baseUrl, stack.services.dispatcher!.url, stack.services['webhook-delivery']!.url].map(async (base) => {
        const res = await fetch(`${base}/metrics`);
        expect(res.status).toBe(200);
        return res.text();
      }),
    );
    const exposed = new Set(scrapes.flatMap((text) => [...metricNamesExposed(text)]));
    const missing = observabilityExpressions().flatMap(({ source, expr }) =>
      metricNamesIn(expr)
        .filter((n) => !exposed.has(n))
        .map((n) => `${source}: ${n}`),
    );
    expect(missing).toEqual([]);

    const all = scrapes.join('\n');
    expect(all).toMatch(/switchboard_queue_jobs\{queue="message-send",state="waiting"\} \d+/);
    expect(all).toMatch(/switchboard_queue_oldest_job_age_seconds\{queue="webhook-delivery",state="waiting"\} [\d.]+/);
    expect(all).toMatch(/switchboard_job_latency_seconds_count\{outcome="completed",queue="message-send"\} [1-9]/);
    expect(all).toMatch(/switchboard_webhook_attempts_total\{endpoint_class="callback_url",outcome="delivered"\} [1-9]/);
    expect(all).toMatch(/switchboard_idempotency_replays_total\{route="\/v1\/messages"\} 1/);
    expect(all).toMatch(/switchboard_upstream_call_seconds_count\{channel="sms",outcome="ok",upstream="[a-z0-9_-]+"\} [1-9]/);
  });
});
