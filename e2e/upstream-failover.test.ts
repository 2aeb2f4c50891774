import { createAccountKey, eventually, type Stack, type TestDatabase } from '@switchboard/devstack';
import { startFailoverWorld, type FailoverWorld, type Upstream } from './support/failover-world';

/**
 * Two sandbox SMSCs behind the dispatcher (docs/routing.md#several-upstreams-per-channel): the primary
 * is taken down mid-run with carrier-sim's fault switch (docs/sandbox.md#faults-at-run-time), its
 * breaker opens, messages flow through the secondary, and after the primary recovers and the cool-down
 * passes, a probe closes the breaker and traffic returns. Each message has its own recipient, so the two
 * sims' send logs show where it went and that it went exactly once.
 */
let world: FailoverWorld;
let database: TestDatabase;
let stack: Stack;
let simB: string;

beforeAll(async () => {
  world = await startFailoverWorld({
    prefix: 'e2efo',
    account: 'failover-e2e',
    upstreams: ({ primarySmppPort, secondarySmppPort }) => ({
      sms: [
        { name: 'sim-primary', host: '127.0.0.1', port: primarySmppPort, priority: 1 },
        { name: 'sim-secondary', host: '127.0.0.1', port: secondarySmppPort, priority: 2 },
      ],
    }),
  });
  ({ database, stack, secondaryUrl: simB } = world);
}, 90_000);

afterAll(async () => {
  await world?.stop();
});

const api = <T>(method: string, path: string, body?: unknown, bearer?: string) => world.api<T>(method, path, body, bearer);
const upstream = (name: string) => world.upstream(name);
const breakerGauge = (name: string) => world.breakerGauge('sms', name);
const setFault = (simUrl: string, fault: Record<string, unknown> | null) => world.setFault(simUrl, 'sms', fault);

let sequence = 0;
/** Sends one SMS to a recipient of its own (ending 00: delivered) and returns message id and recipient. */
async function sendOne(): Promise<{ id: string; to: string }> {
  sequence += 1;
  const to = `+4479111${String(sequence).padStart(3, '0')}00`;
  const res = await api<{ id: string }>('POST', '/v1/messages', { channel: 'sms', recipient: to, content: { text: `failover ${sequence}` } });
  if (res.status !== 202) throw new Error(`POST /v1/messages answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { id: res.body.id, to };
}

const delivered = (id: string) =>
  eventually(
    () => api<{ status: string }>('GET', `/v1/messages/${id}`),
    (r) => r.body.status === 'delivered',
    { what: `${id} delivered`, timeoutMs: 20_000, intervalMs: 150 },
  );

async function acceptedAt(simUrl: string): Promise<string[]> {
  const res = await fetch(`${simUrl}/sim/sends?channel=sms`);
  const { data } = (await res.json()) as { data: Array<{ to: string; outcome: string }> };
  return data.filter((s) => s.outcome === 'accepted').map((s) => s.to);
}

describe('several SMS upstreams with circuit breakers', () => {
  it('refuses a malformed fault with a 400 naming the field', async () => {
    for (const [body, field] of [
      [{ channel: 'fax', mode: 'down' }, 'channel'],
      [{ channel: 'sms', mode: 'broken' }, 'mode'],
      [{ channel: 'sms', mode: 'slow', delay_ms: -1 }, 'delay_ms'],
      [{ channel: 'sms', mode: 'errors', error_rate: 2 }, 'error_rate'],
    ] as const) {
      const res = await fetch(`${stack.simUrl}/sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toContain(field);
    }
    expect(await (await fetch(`${stack.simUrl}/sim/faults`)).json()).toEqual({ data: [] });
  });

  it('lists upstreams only for the admin scope', async () => {
    const { key: narrow } = await createAccountKey(database.url, { account: 'failover-e2e-narrow', mode: 'test', scopes: ['messages:write'] });
    expect((await api('GET', '/v1/upstreams', undefined, narrow)).status).toBe(403);
    await eventually(
      () => api<{ data: Upstream[] }>('GET', '/v1/upstreams'),
      (r) => r.body.data?.filter((u) => u.mode === 'test' && u.channel === 'sms').length === 2,
      { what: 'published upstreams' },
    );
    expect(await upstream('sim-primary')).toMatchObject({ state: 'closed', priority: 1 });
    const openapi = await api<{ paths: Record<string, { get?: { security?: unknown; 'x-required-scopes'?: unknown } }> }>('GET', '/v1/openapi.json');
    expect(openapi.body.paths['/v1/upstreams']?.get?.security).toEqual([{ bearerAuth: [] }]);
    expect(openapi.body.paths['/v1/upstreams']?.get?.['x-required-scopes']).toEqual(['admin']);
  });

  it('fails over while the primary is down and returns after it recovers', async () => {
    const sent: Array<{ id: string; to: string }> = [];
    const sendAndDeliver = async (n: number) => {
      const batch = await Promise.all(Array.from({ length: n }, () => sendOne()));
      await Promise.all(batch.map((m) => delivered(m.id)));
      sent.push(...batch);
      return batch;
    };

    const healthy = await sendAndDeliver(5);
    expect(await acceptedAt(stack.simUrl)).toEqual(expect.arrayContaining(healthy.map((m) => m.to)));

    await setFault(stack.simUrl, { channel: 'sms', mode: 'down' });
    // Each refused submit_sm moves on to the secondary within the same attempt; ten failures open the breaker.
    await sendAndDeliver(12);
    expect(await upstream('sim-primary')).toMatchObject({ state: 'open', error_rate: expect.any(Number) });
    expect((await upstream('sim-primary')).error_rate).toBeGreaterThanOrEqual(0.5);
    await eventually(
      () => breakerGauge('sim-primary'),
      (v) => v === '2',
      { what: 'open breaker gauge', timeoutMs: 5_000 },
    );

    const whileOpen = await sendAndDeliver(5);
    const secondaryTook = await acceptedAt(simB);
    expect(secondaryTook).toEqual(expect.arrayContaining(whileOpen.map((m) => m.to)));

    await setFault(stack.simUrl, null);
    // After the cool-down (BREAKER_POLICY.coolDownMs in services/dispatcher, 30 s) one send probes the primary; its success closes the breaker.
    await eventually(
      async () => {
        await sendAndDeliver(1);
        return (await upstream('sim-primary')).state;
      },
      (state) => state === 'closed',
      { what: 'primary breaker closed again', timeoutMs: 60_000, intervalMs: 500 },
    );
    const afterRecovery = await sendAndDeliver(5);
    expect(await acceptedAt(stack.simUrl)).toEqual(expect.arrayContaining(afterRecovery.map((m) => m.to)));
    await eventually(
      () => breakerGauge('sim-primary'),
      (v) => v === '0',
      { what: 'closed breaker gauge', timeoutMs: 5_000 },
    );

    // Every message was taken by exactly one SMSC, once.
    const taken = [...(await acceptedAt(stack.simUrl)), ...(await acceptedAt(simB))];
    for (const m of sent) expect(taken.filter((to) => to === m.to)).toHaveLength(1);
    expect(taken).toHaveLength(sent.length);
  }, 150_000);
});
