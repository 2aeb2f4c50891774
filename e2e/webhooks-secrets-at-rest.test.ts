import { randomBytes } from 'node:crypto';
import { eventually } from '@switchboard/devstack';
import { ReceiverProcess, startWebhookStack, verify, type WebhookStack } from './webhooks-harness';

// Signing secrets are sealed at rest (docs/webhooks.md, "Secrets at rest"): after creating endpoints,
// rotating a secret, reading the callback secret and delivering signed webhooks through the whole
// stack, no row of any table holds a secret in clear.
describe('webhook signing secrets at rest (whole stack)', () => {
  const prefix = `sbwk${randomBytes(4).toString('hex')}`;
  let h: WebhookStack;
  const receiver = new ReceiverProcess();

  beforeAll(async () => {
    await receiver.start();
    h = await startWebhookStack({ prefix, workers: ['dispatcher', 'webhook-delivery'] });
  });
  afterAll(async () => {
    await h?.stop();
    await receiver.kill();
  });

  /** Every row of every table of the stack's database, as PostgreSQL's text form of the whole row. */
  async function dumpDatabase(): Promise<string> {
    const { rows: tables } = await h.db.query<{ name: string }>(
      `SELECT quote_ident(table_name) AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    );
    const dumped: string[] = [];
    for (const { name } of tables) {
      const { rows } = await h.db.query<{ row: string }>(`SELECT t::text AS row FROM ${name} t`);
      dumped.push(`-- ${name}`, ...rows.map((r) => r.row));
    }
    return dumped.join('\n');
  }

  it('signs every delivery with secrets that appear nowhere in the database', async () => {
    const { key } = await h.keyFor(`at-rest-${prefix}`);
    const callbackSecret = (await h.request(key, 'GET', '/v1/account/webhook-secret')).body.secret as string;
    const rotating = (await h.request(key, 'POST', '/v1/webhooks', { url: receiver.url('/rotating'), events: ['*'] })).body as { id: string; secret: string };
    const steady = (await h.request(key, 'POST', '/v1/webhooks', { url: receiver.url('/steady'), events: ['*'] })).body as { id: string; secret: string };
    const rotated = (await h.request(key, 'POST', `/v1/webhooks/${rotating.id}/rotate-secret`)).body as { secret: string };
    const secrets = [callbackSecret, rotating.secret, steady.secret, rotated.secret];
    for (const s of secrets) expect(s).toMatch(/^whsec_/);

    const sent = await h.request(key, 'POST', '/v1/messages', {
      channel: 'sms',
      recipient: '+447911123400',
      content: { text: 'sealed' },
      callback_url: receiver.url('/callback'),
    });
    expect(sent.status).toBe(202);
    const [toRotating, toSteady, toCallback] = await eventually(
      async () => ['/rotating', '/steady', '/callback'].map((path) => receiver.received(path)),
      (all) => all.every((d) => d.length >= 2),
      { what: 'message.sent and message.delivered at every target', timeoutMs: 60_000 },
    );
    for (const d of toRotating) {
      expect(verify(rotated.secret, d).data.id).toBe(sent.body.id);
      expect(verify(rotating.secret, d).data.id).toBe(sent.body.id);
    }
    for (const d of toSteady) expect(verify(steady.secret, d).data.id).toBe(sent.body.id);
    for (const d of toCallback) expect(verify(callbackSecret, d).data.id).toBe(sent.body.id);

    const dump = await dumpDatabase();
    // The dump holds what this test wrote: the message, and the four secrets sealed.
    expect(dump).toContain(sent.body.id);
    expect(dump.match(/v1\.test1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+/g)?.length).toBeGreaterThanOrEqual(4);
    expect(dump).not.toContain('whsec_');
    for (const s of secrets) expect(dump).not.toContain(s.slice('whsec_'.length));
  });
});
