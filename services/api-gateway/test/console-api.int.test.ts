import { createAccountKey, createConsoleUser } from '@switchboard/devstack';
import { createDb } from '@switchboard/store';
import { problemOf, startGatewayHarness, type GatewayHarness } from './support/gateway-harness';

// The console's session API through HTTP against a real gateway process, PostgreSQL and Redis (docs/console.md).
let h: GatewayHarness;
let accounts = 0;

beforeAll(async () => {
  h = await startGatewayHarness({ RATE_LIMIT_PER_SECOND: '1000000' });
});

afterAll(async () => {
  await h?.close();
});

interface Signed {
  cookie: string;
  csrf: string;
  setCookie: string;
}

const PASSWORD = 'correct horse battery';

async function newUser(role: 'owner' | 'developer' | 'viewer', account = `console-${h.prefix}-${++accounts}`) {
  const email = `${role}-${accounts}-${Math.random().toString(36).slice(2)}@example.com`;
  const link = await createConsoleUser(h.database.url, { account, email, role, baseUrl: h.url });
  return { ...link, account };
}

async function redeem(token: string, password = PASSWORD): Promise<Response> {
  return h.request('/console/api/session/redeem', { json: { token, password } });
}

function session(res: Response, body: { csrf_token: string }): Signed {
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { setCookie, cookie: setCookie.split(';')[0], csrf: body.csrf_token };
}

async function signedIn(role: 'owner' | 'developer' | 'viewer', account?: string) {
  const user = await newUser(role, account);
  const res = await redeem(user.token);
  expect(res.status).toBe(201);
  return { user, ...session(res, (await res.json()) as { csrf_token: string }) };
}

const call = (s: Signed | null, path: string, init: { method?: string; json?: unknown; csrf?: string | null } = {}) =>
  h.request(`/console/api${path}`, {
    method: init.method ?? (init.json !== undefined ? 'POST' : 'GET'),
    json: init.json,
    headers: { ...(s ? { cookie: s.cookie } : {}), ...(init.csrf !== null && s ? { 'x-csrf-token': init.csrf ?? s.csrf } : {}) },
  });

describe('sign-in', () => {
  it('redeems a one-time link once, into an HttpOnly, Secure, SameSite=Lax session cookie', async () => {
    const user = await newUser('owner');
    expect(user.sign_in_url).toMatch(new RegExp(`^${h.url}/console/welcome#token=[A-Za-z0-9_-]{43}$`));
    const res = await redeem(user.token);
    expect(res.status).toBe(201);
    const body = (await res.json()) as { user: { email: string; role: string }; csrf_token: string };
    expect(body.user).toMatchObject({ email: user.email, role: 'owner' });
    const s = session(res, body);
    expect(s.setCookie).toMatch(/^sb_console_session=[A-Za-z0-9_-]+; Path=\/console; HttpOnly; Secure; SameSite=Lax; Max-Age=\d+$/);
    expect(await (await call(s, '/session')).json()).toMatchObject({ signed_in: true, user: { email: user.email }, csrf_token: body.csrf_token });
    expect((await problemOf(await redeem(user.token))).status).toBe(401);
  });

  it('answers a session check without a session with 200 signed_in: false, not a 401 the browser logs', async () => {
    const none = await call(null, '/session');
    expect({ status: none.status, body: await none.json() }).toEqual({ status: 200, body: { signed_in: false } });
    const ended = await call({ cookie: 'sb_console_session=no-such-session-token', csrf: '', setCookie: '' }, '/session');
    expect({ status: ended.status, body: await ended.json() }).toEqual({ status: 200, body: { signed_in: false } });
    expect(ended.headers.get('set-cookie') ?? '').toMatch(/^sb_console_session=;/);
    // Every other console route still needs the session.
    expect((await problemOf(await call(null, '/usage'))).status).toBe(401);
  });

  it('names the offending fields of a bad sign-in or redeem body', async () => {
    const short = await problemOf(await redeem('x'.repeat(43), 'short'));
    expect(short).toMatchObject({ status: 400, contentType: expect.stringContaining('application/problem+json') });
    expect((short.body.errors as Array<{ field: string }>).map((e) => e.field)).toEqual(['/password']);
    const missing = await problemOf(await h.request('/console/api/session', { json: { email: 5 } }));
    expect((missing.body.errors as Array<{ field: string }>).map((e) => e.field)).toEqual(['/email', '/password']);
    expect((await problemOf(await h.request('/console/api/session', { json: [] }))).status).toBe(400);
    expect(
      (await h.request('/console/api/session', { method: 'POST', body: 'email=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status,
    ).toBe(415);
  });

  it('signs in with the password, and after five failures refuses even the right one with 429', async () => {
    const { user } = await signedIn('developer');
    const signIn = (password: string) => h.request('/console/api/session', { json: { email: user.email.toUpperCase(), password } });
    expect((await signIn(PASSWORD)).status).toBe(201);
    for (let i = 0; i < 5; i += 1) expect((await problemOf(await signIn(`wrong password ${i}`))).status).toBe(401);
    const limited = await signIn(PASSWORD);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('sign-out revokes the session: the same cookie is refused afterwards', async () => {
    const s = await signedIn('owner');
    expect((await call(s, '/session', { method: 'DELETE' })).status).toBe(204);
    expect((await problemOf(await call(s, '/keys'))).status).toBe(401);
    expect((await problemOf(await call(null, '/keys'))).status).toBe(401);
  });
});

describe('CSRF and roles', () => {
  it('refuses a state-changing request without the session CSRF token', async () => {
    const s = await signedIn('developer');
    const body = { mode: 'test', scopes: ['messages:write'] };
    const missing = await problemOf(await call(s, '/keys', { json: body, csrf: null }));
    expect(missing).toMatchObject({ status: 403, body: { code: 'csrf_token_invalid', errors: [{ field: 'header:X-CSRF-Token' }] } });
    expect((await call(s, '/keys', { json: body, csrf: 'A'.repeat(43) })).status).toBe(403);
    const other = await signedIn('developer');
    expect((await call(s, '/keys', { json: body, csrf: other.csrf })).status).toBe(403);
    const created = await call(s, '/keys', { json: body });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { key: string }).key).toMatch(/^sk_test_/);
  });

  it('lets a viewer read but not change anything, nor see the callback secret', async () => {
    const owner = await signedIn('owner');
    const viewer = await signedIn('viewer', owner.user.account);
    const key = (await (await call(owner, '/keys', { json: { mode: 'test', scopes: ['*'], rate_limit_per_second: 5 } })).json()) as { id: string };
    const listed = (await (await call(viewer, '/keys')).json()) as { data: Array<{ id: string; revoked_at: string | null }> };
    expect(listed.data.map((k) => k.id)).toContain(key.id);
    for (const [path, init] of [
      [`/keys/${key.id}/revoke`, { method: 'POST' }],
      ['/keys', { json: { mode: 'test', scopes: ['*'] } }],
      ['/v1/webhooks', { json: { url: 'https://hooks.example.com/x', events: ['*'] } }],
      ['/numbers', { json: { e164: '+14155550123', channels: ['sms'] } }],
    ] as const) {
      expect({ path, ...(await problemOf(await call(viewer, path, init))) }).toMatchObject({ path, status: 403, body: { code: 'forbidden' } });
    }
    expect((await call(viewer, '/v1/account/webhook-secret')).status).toBe(403);
    expect((await call(owner, '/v1/account/webhook-secret')).status).toBe(200);
    const after = (await (await call(owner, '/keys')).json()) as { data: Array<{ id: string; revoked_at: string | null }> };
    expect(after.data.find((k) => k.id === key.id)?.revoked_at).toBeNull();
  });
});

describe('tenancy', () => {
  it("never shows or changes another account's keys, messages, webhooks, templates or numbers", async () => {
    const a = await signedIn('owner');
    const b = await signedIn('owner');
    const bKey = await createAccountKey(h.database.url, { account: b.user.account, mode: 'test' });
    const sent = await h.request('/v1/messages', { key: bKey.key, json: { channel: 'sms', recipient: '+447911123400', content: { text: 'for b' } } });
    expect(sent.status).toBe(202);
    const messageId = ((await sent.json()) as { id: string }).id;
    const hook = (await (await call(b, '/v1/webhooks', { json: { url: 'https://hooks.example.com/b', events: ['*'] } })).json()) as { id: string };
    const template = (await (
      await call(b, '/v1/templates', { json: { name: 'b_only', language: 'en_US', category: 'utility', components: [{ type: 'body', text: 'Hi {{1}}' }] } })
    ).json()) as { id: string };
    expect(template.id).toMatch(/^tpl_/);
    const number = (await (await call(b, '/numbers', { json: { e164: '+14155550177', channels: ['sms'] } })).json()) as { id: string };

    expect(((await (await call(a, '/keys')).json()) as { data: unknown[] }).data).toEqual([]);
    expect(((await (await call(a, '/messages')).json()) as { data: unknown[] }).data).toEqual([]);
    expect(((await (await call(a, '/v1/webhooks')).json()) as { data: unknown[] }).data).toEqual([]);
    expect(((await (await call(a, '/numbers')).json()) as { data: unknown[] }).data).toEqual([]);
    expect(((await (await call(a, '/v1/templates')).json()) as { data: unknown[] }).data).toEqual([]);
    expect((await call(a, `/v1/templates/${template.id}`, { method: 'DELETE' })).status).toBe(404);
    for (const path of [
      `/v1/messages/${messageId}`,
      `/v1/messages/${messageId}/events`,
      `/v1/webhooks/${hook.id}`,
      `/v1/webhooks/${hook.id}/deliveries`,
      `/webhooks/${hook.id}/attempts`,
    ]) {
      expect({ path, status: (await call(a, path)).status }).toEqual({ path, status: 404 });
    }
    for (const path of [`/keys/${bKey.keyId}/revoke`, `/webhooks/${hook.id}/disable`, `/webhooks/${hook.id}/test`, `/v1/webhooks/${hook.id}/rotate-secret`]) {
      expect({ path, status: (await call(a, path, { method: 'POST' })).status }).toEqual({ path, status: 404 });
    }
    expect((await call(a, `/numbers/${number.id}`, { method: 'DELETE' })).status).toBe(404);
    // The one-owner rule: a number B holds is a conflict for A, not a takeover.
    expect((await problemOf(await call(a, '/numbers', { json: { e164: '+14155550177', channels: ['sms'] } }))).status).toBe(409);
    // B still sees its own.
    expect(((await (await call(b, '/keys')).json()) as { data: Array<{ id: string }> }).data.map((k) => k.id)).toEqual([bKey.keyId]);
    expect((await call(b, `/v1/messages/${messageId}`)).status).toBe(200);
    expect(await (await call(b, `/webhooks/${hook.id}/attempts`)).json()).toEqual({ data: [] });
    expect(await (await call(b, `/webhooks/${hook.id}/disable`, { method: 'POST' })).json()).toEqual({ id: hook.id, enabled: false });
    expect(await (await call(b, `/v1/webhooks/${hook.id}`)).json()).toMatchObject({ enabled: false, disabled_reason: 'disabled in the console' });
    expect((await call(b, `/webhooks/${hook.id}/enable`, { method: 'POST' })).status).toBe(200);
    expect(await (await call(b, `/v1/webhooks/${hook.id}`)).json()).toMatchObject({ enabled: true, disabled_reason: null });
    expect((await call(b, `/webhooks/${hook.id}/pause`, { method: 'POST' })).status).toBe(404);
    const test = await call(b, `/webhooks/${hook.id}/test`, { method: 'POST' });
    expect(test.status).toBe(202);
    const { event_id } = (await test.json()) as { event_id: string };
    expect(await (await call(b, `/v1/events/${event_id}`)).json()).toMatchObject({ id: event_id, type: 'webhook.test' });
    expect((await call(a, `/v1/events/${event_id}`)).status).toBe(404);
  });

  it('answers bad filters and ids with 4xx problems naming the field', async () => {
    const s = await signedIn('developer');
    const bad = await problemOf(await call(s, '/messages?status=lost&from=yesterday&limit=0'));
    expect(bad.status).toBe(400);
    expect((bad.body.errors as Array<{ field: string }>).map((e) => e.field).sort()).toEqual(['query:from', 'query:limit', 'query:status']);
    expect((await problemOf(await call(s, '/usage?days=1000'))).body).toMatchObject({ errors: [{ field: 'query:days' }] });
    expect((await call(s, '/keys/not-an-id/revoke', { method: 'POST' })).status).toBe(404);
    const keyBody = await problemOf(await call(s, '/keys', { json: { mode: 'prod', scopes: ['admin'], rate_limit_per_second: 0 } }));
    expect((keyBody.body.errors as Array<{ field: string }>).map((e) => e.field).sort()).toEqual(['/mode', '/rate_limit_per_second', '/scopes/0']);
    expect((await call(s, '/usage')).status).toBe(200);
    const undialable = await problemOf(await call(s, '/numbers', { json: { e164: '+15551230001', channels: ['sms'] } }));
    expect(undialable.body).toMatchObject({ errors: [{ field: '/e164', message: 'is not a dialable number for its region (US, +1)' }] });
    // Odd requests still get 4xx problems, never a 5xx.
    for (const [path, init] of [
      ['/keys', { method: 'PATCH' }],
      ['/v1/messages/%E0%A4%A', {}],
      ['/nothing-here', {}],
      ['/numbers', { json: { e164: 5, channels: ['fax'] } }],
    ] as const) {
      const res = await problemOf(await call(s, path, init));
      expect({ path, status: res.status < 500 && res.status >= 400, type: res.contentType }).toEqual({
        path,
        status: true,
        type: expect.stringContaining('application/problem+json'),
      });
    }
    const garbage = await h.request('/console/api/keys', { headers: { cookie: 'sb_console_session=%%%; other=1' } });
    expect(garbage.status).toBe(401);
  });
});

describe('usage', () => {
  it('counts calls and their minutes beside messages, per day and status', async () => {
    const s = await signedIn('viewer');
    const account = ((await (await call(s, '/session')).json()) as { user: { account_id: string } }).user.account_id;
    const db = createDb({ url: h.database.url, poolSize: 1 });
    const now = Date.now();
    try {
      // Answered for 61 s (2 billed minutes) and 30 s (1), and one busy call that was never answered.
      for (const [n, status, answeredSeconds] of [
        [1, 'completed', 61],
        [2, 'completed', 30],
        [3, 'busy', null],
      ] as const) {
        await db.query(
          `INSERT INTO calls (id, account_id, mode, status, "to", "from", record, ring_timeout_seconds, max_duration_seconds, created_at, answered_at, ended_at)
           VALUES ($1, $2, 'test', $3, '+14155552600', '+14155550199', false, 30, 600, $4, $5, $6)`,
          [
            `call_usage${h.prefix}${accounts}${n}`,
            account,
            status,
            new Date(now),
            answeredSeconds === null ? null : new Date(now - 100_000),
            answeredSeconds === null ? new Date(now - 100_000) : new Date(now - 100_000 + answeredSeconds * 1000),
          ],
        );
      }
    } finally {
      await db.close();
    }
    const usage = (await (await call(s, '/usage?days=1')).json()) as {
      data: unknown[];
      calls: Array<{ status: string; calls: number; seconds: number; minutes: number }>;
    };
    expect(usage.calls.map(({ status, calls, seconds, minutes }) => ({ status, calls, seconds, minutes }))).toEqual([
      { status: 'busy', calls: 1, seconds: 0, minutes: 0 },
      { status: 'completed', calls: 2, seconds: 91, minutes: 3 },
    ]);
    expect(usage.data).toEqual([]);
  });
});
