import { reached, startMessagingStack, type MessagingStack } from './messaging-helpers';

// Quiet hours through the real stack (docs/routing.md#quiet-hours). The recipient's number is in San
// Francisco (America/Los_Angeles by libphonenumber's map); the quiet period is chosen around the current
// local time there, ending at the next whole minute at least a few seconds away.
let m: MessagingStack;
const RECIPIENT = '+14155550188';
const ZONE = 'America/Los_Angeles';

beforeAll(async () => {
  m = await startMessagingStack();
}, 90_000);

afterAll(async () => {
  await m?.stop();
});

function hhmm(at: number): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' }).format(at);
}

/** A quiet period that covers now in the recipient's zone and ends at a minute boundary 5 to 65 s away. */
function quietPeriodAroundNow(): { quiet: { start: string; end: string }; endsAt: number } {
  const now = Date.now();
  const endsAt = Math.ceil((now + 5_000) / 60_000) * 60_000;
  return { quiet: { start: hhmm(now - 60_000), end: hhmm(endsAt) }, endsAt };
}

describe('quiet hours', () => {
  it('holds a marketing message as scheduled until the account’s quiet hours end; a transactional one goes at once', async () => {
    const { quiet, endsAt } = quietPeriodAroundNow();
    const set = await m.api<any>('PATCH', '/v1/account', { quiet_hours: quiet });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ fallback_timeout_seconds: null, quiet_hours: quiet });
    // The gateway caches the account's setting for about a second.
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    const marketing = await m.api<any>('POST', '/v1/messages', { channel: 'sms', recipient: RECIPIENT, category: 'marketing', content: { text: 'Sale!' } });
    expect(marketing.status).toBe(202);
    expect(marketing.body.status).toBe('scheduled');
    const transactional = await m.send({ channel: 'sms', recipient: RECIPIENT, content: { text: 'Your code is 1234' } });

    // Assuming the end is still ahead when the GET runs (it is at least a few seconds away).
    if (Date.now() < endsAt - 1_000) expect((await m.message(marketing.body.id)).status).toBe('scheduled');
    const sentNow = await m.waitForMessage(transactional.id, reached('delivered'), 'transactional delivered during quiet hours', 30_000);
    expect(Date.parse(sentNow.sent_at!)).toBeLessThan(endsAt);

    const later = await m.waitForMessage(marketing.body.id, reached('delivered'), 'marketing delivered after quiet hours', 100_000);
    expect(Date.parse(later.sent_at!)).toBeGreaterThanOrEqual(endsAt - 1_000);
    expect((await m.simSends({ channel: 'sms', to: RECIPIENT })).map((s) => s.text)).toEqual(expect.arrayContaining(['Sale!', 'Your code is 1234']));
  }, 150_000);

  it('applies quiet_hours given on the request to a transactional message too, and honours an opt-out made during the wait', async () => {
    const recipient = '+14155550177';
    const { quiet } = quietPeriodAroundNow();
    const held = await m.api<any>('POST', '/v1/messages', { channel: 'sms', recipient, quiet_hours: quiet, content: { text: 'Reminder' } });
    expect(held.status).toBe(202);
    expect(held.body.status).toBe('scheduled');
    expect((await m.api('POST', '/v1/suppressions', { recipient, channel: 'sms' })).status).toBe(201);
    const ended = await m.waitForMessage(held.body.id, reached('failed', 'delivered'), 'scheduled message decided', 100_000);
    expect(ended).toMatchObject({ status: 'failed', error: { code: 'recipient_opted_out' } });
    expect(await m.simSends({ channel: 'sms', to: recipient })).toEqual([]);
  }, 150_000);

  it('names the field of malformed quiet hours', async () => {
    const bad = await m.api<any>('POST', '/v1/messages', {
      channel: 'sms',
      recipient: RECIPIENT,
      quiet_hours: { start: '25:00', end: '8' },
      category: 'promo',
      content: { text: 'x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(['/category', '/quiet_hours/end', '/quiet_hours/start']);
    const badAccount = await m.api<any>('PATCH', '/v1/account', { quiet_hours: { start: '21:00' } });
    expect(badAccount.status).toBe(400);
    expect(badAccount.body.errors[0].field).toMatch(/^\/quiet_hours/);
  });
});
