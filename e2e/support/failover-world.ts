import { randomBytes } from 'node:crypto';
import {
  createAccountKey,
  createTestDatabase,
  eventually,
  freePort,
  startStack,
  type Stack,
  type StackOptions,
  type TestDatabase,
} from '@switchboard/devstack';
import { assertDocumentedResponse } from './openapi-responses';

/**
 * Two carrier-sims behind one dispatcher, for the failover tests (docs/routing.md#several-upstreams-per-channel):
 * the stack's own sim is the primary, a second sim the secondary, and `upstreams` tells the dispatcher about both.
 */
export interface Upstream {
  name: string;
  mode: string;
  channel: string;
  state: string;
  error_rate: number;
  recent_calls: number;
  priority: number;
}

export interface FailoverWorldOptions {
  prefix: string;
  account: string;
  /**
   * The dispatcher's sandbox lists that name both sims, given their HTTP bases and SMPP ports; a list left out stays
   * the stack's (its own sim).
   */
  upstreams: (sims: {
    primaryUrl: string;
    primarySmppPort: number;
    secondaryUrl: string;
    secondarySmppPort: number;
  }) => Partial<Record<'chat' | 'rcs' | 'sms', Array<Record<string, unknown>>>>;
  /** Environment of both sims. */
  simEnv?: Record<string, string>;
  /** Behaviour of both sims, put once each is up (docs/sandbox.md#behaviour-at-run-time). */
  simBehaviour?: StackOptions['simBehaviour'];
}

export interface FailoverWorld {
  stack: Stack;
  database: TestDatabase;
  primaryUrl: string;
  secondaryUrl: string;
  /** A call with the world's `*` key, or with `bearer`. */
  api<T>(method: string, path: string, body?: unknown, bearer?: string): Promise<{ status: number; body: T }>;
  /** The upstream as `GET /v1/upstreams` lists it for test keys. */
  upstream(name: string): Promise<Upstream>;
  /** The dispatcher's `switchboard_upstream_breaker_state` for the upstream: '0' closed, '1' half-open, '2' open. */
  breakerGauge(channel: string, name: string): Promise<string | undefined>;
  /** Switches a sim's fault for `channel` on (`fault`) or off (null): docs/sandbox.md#faults-at-run-time. */
  setFault(simUrl: string, channel: string, fault: Record<string, unknown> | null): Promise<void>;
  stop(): Promise<void>;
}

export async function startFailoverWorld(opts: FailoverWorldOptions): Promise<FailoverWorld> {
  const database = await createTestDatabase();
  const stack = await startStack({
    databaseUrl: database.url,
    redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    prefix: `${opts.prefix}${randomBytes(4).toString('hex')}`,
    workers: [],
    simEnv: opts.simEnv,
    simBehaviour: opts.simBehaviour,
  });
  const [secondaryPort, secondarySmppPort, healthPort] = await Promise.all([freePort(), freePort(), freePort()]);
  await stack.startService('carrier-sim', { ...opts.simEnv, PORT: String(secondaryPort), SIM_SMPP_PORT: String(secondarySmppPort) });
  const secondaryUrl = `http://127.0.0.1:${secondaryPort}`;
  // SANDBOX_UPSTREAMS is one object: the lists the test names replace the stack's, the others stay on its sim.
  const stackLists = JSON.parse(stack.envFor('dispatcher').SANDBOX_UPSTREAMS) as Record<string, unknown>;
  const lists = opts.upstreams({ primaryUrl: stack.simUrl, primarySmppPort: stack.simSmppPort, secondaryUrl, secondarySmppPort });
  await stack.startService('dispatcher', { PORT: String(healthPort), SANDBOX_UPSTREAMS: JSON.stringify({ ...stackLists, ...lists }) });
  const { key } = await createAccountKey(database.url, { account: opts.account, mode: 'test', scopes: ['*'] });

  async function api<T>(method: string, path: string, body?: unknown, bearer = key): Promise<{ status: number; body: T }> {
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed = text ? JSON.parse(text) : undefined;
    assertDocumentedResponse(method, path, res.status, res.headers.get('content-type'), parsed);
    return { status: res.status, body: parsed as T };
  }

  return {
    stack,
    database,
    primaryUrl: stack.simUrl,
    secondaryUrl,
    api,
    upstream: async (name) => {
      const res = await api<{ data: Upstream[] }>('GET', '/v1/upstreams');
      expect(res.status).toBe(200);
      const found = res.body.data.find((u) => u.name === name && u.mode === 'test');
      if (!found) throw new Error(`${name} is not in GET /v1/upstreams: ${JSON.stringify(res.body)}`);
      return found;
    },
    breakerGauge: async (channel, name) => {
      const text = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
      return text
        .split('\n')
        .find((l) => l.startsWith('switchboard_upstream_breaker_state') && l.includes(`channel="${channel}"`) && l.includes(`upstream="${name}"`))
        ?.split(' ')
        .pop();
    },
    setFault: async (simUrl, channel, fault) => {
      const res = await fetch(
        `${simUrl}/sim/faults${fault ? '' : `?channel=${channel}`}`,
        fault ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ channel, ...fault }) } : { method: 'DELETE' },
      );
      if (!res.ok) throw new Error(`/sim/faults answered ${res.status}`);
    },
    stop: async () => {
      await stack.stop();
      await database.drop();
    },
  };
}

/** What a failover test does on one HTTP channel (chat or rcs): send, wait for delivery, read a sim's sends. */
export interface ChannelDriver {
  /** Sends one numbered text to `recipient` on the channel; answers its message id. */
  sendOne(): Promise<string>;
  /** Waits until the message is delivered (or read). */
  delivered(id: string): Promise<unknown>;
  /** The message ids (the upstream's client reference) a sim accepted on the channel. */
  acceptedAt(simUrl: string): Promise<string[]>;
}

export function channelDriver(world: FailoverWorld, channel: 'chat' | 'rcs', recipient: string): ChannelDriver {
  let sequence = 0;
  return {
    async sendOne() {
      sequence += 1;
      const res = await world.api<{ id: string }>('POST', '/v1/messages', { channel, recipient, content: { text: `failover ${sequence}` } });
      if (res.status !== 202) throw new Error(`POST /v1/messages answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.id;
    },
    delivered: (id) =>
      eventually(
        () => world.api<{ status: string }>('GET', `/v1/messages/${id}`),
        (r) => ['delivered', 'read'].includes(r.body.status),
        {
          what: `${id} delivered`,
          timeoutMs: 20_000,
          intervalMs: 150,
        },
      ),
    async acceptedAt(simUrl) {
      const res = await fetch(`${simUrl}/sim/sends?channel=${channel}`);
      const { data } = (await res.json()) as { data: Array<{ client_ref: string | null; outcome: string }> };
      return data.filter((s) => s.outcome === 'accepted').map((s) => String(s.client_ref));
    },
  };
}
