import { createChatWebhookSender } from '../src/webhooks/chat-webhook.sender';
import type { WebhookDelivery, WebhookPoster } from '../src/webhooks/webhook-poster';

/** Records what is posted; `busy` plays a poster whose every connection is taken until `free()`. */
function recordingPoster(): WebhookPoster & { posted: WebhookDelivery[]; busy: boolean; free(): void } {
  const posted: WebhookDelivery[] = [];
  let listeners: Array<() => void> = [];
  return {
    posted,
    busy: false,
    post: (delivery) => posted.push(delivery),
    stop: () => undefined,
    backlog: () => 0,
    saturated() {
      return this.busy;
    },
    onceFree: (listener) => listeners.push(listener),
    free() {
      this.busy = false;
      const due = listeners;
      listeners = [];
      for (const listener of due) listener();
    },
  };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const statusesOf = (delivery: WebhookDelivery) => JSON.parse(delivery.body).entry[0].changes[0].value.statuses as Array<{ id: string; status: string }>;
const report = (phoneNumberId: string, wamid: string, status: 'sent' | 'delivered' | 'read' = 'sent') => ({
  phoneNumberId,
  wamid,
  status,
  recipientId: '15550000100',
});

describe('chat status notifications', () => {
  it('carries the statuses of one number reported in the same turn in one notification, in order', async () => {
    const poster = recordingPoster();
    const sender = createChatWebhookSender({ poster, webhookUrl: 'http://127.0.0.1:1/hook', appSecret: 's', wabaId: '1' });
    sender.sendStatus(report('15550001000', 'wamid.A', 'sent'));
    sender.sendStatus(report('15550001000', 'wamid.B', 'sent'));
    sender.sendStatus(report('15550001000', 'wamid.A', 'delivered'));
    expect(poster.posted).toEqual([]);
    await nextTurn();
    expect(poster.posted).toHaveLength(1);
    expect(statusesOf(poster.posted[0]).map((s) => [s.id, s.status])).toEqual([
      ['wamid.A', 'sent'],
      ['wamid.B', 'sent'],
      ['wamid.A', 'delivered'],
    ]);
  });

  it('sends one notification per business number, and splits past the per-notification maximum', async () => {
    const poster = recordingPoster();
    const sender = createChatWebhookSender({ poster, webhookUrl: 'http://127.0.0.1:1/hook', appSecret: 's', wabaId: '1', maxStatusesPerWebhook: 2 });
    for (const wamid of ['a', 'b', 'c']) sender.sendStatus(report('15550001000', `wamid.${wamid}`));
    sender.sendStatus(report('15550002000', 'wamid.d'));
    await nextTurn();
    const numbers = poster.posted.map((d) => JSON.parse(d.body).entry[0].changes[0].value.metadata.phone_number_id);
    expect(numbers).toEqual(['15550001000', '15550001000', '15550002000']);
    expect(poster.posted.map((d) => statusesOf(d).map((s) => s.id))).toEqual([['wamid.a', 'wamid.b'], ['wamid.c'], ['wamid.d']]);
  });

  it('sends a status reported alone in its own turn at once, signed over the exact body', async () => {
    const poster = recordingPoster();
    const sender = createChatWebhookSender({ poster, webhookUrl: 'http://127.0.0.1:1/hook', appSecret: 'app-secret', wabaId: '1' });
    sender.sendStatus(report('15550001000', 'wamid.A'));
    await nextTurn();
    sender.sendStatus(report('15550001000', 'wamid.A', 'delivered'));
    await nextTurn();
    expect(poster.posted.map((d) => statusesOf(d).map((s) => s.status))).toEqual([['sent'], ['delivered']]);
    const { createHmac } = await import('node:crypto');
    for (const d of poster.posted) expect(d.headers['X-Hub-Signature-256']).toBe(`sha256=${createHmac('sha256', 'app-secret').update(d.body).digest('hex')}`);
  });

  it('holds statuses while every connection is busy, then sends them in full notifications, in order', async () => {
    const poster = recordingPoster();
    const sender = createChatWebhookSender({ poster, webhookUrl: 'http://127.0.0.1:1/hook', appSecret: 's', wabaId: '1', maxStatusesPerWebhook: 3 });
    poster.busy = true;
    sender.sendStatus(report('15550001000', 'wamid.a'));
    await nextTurn();
    for (const wamid of ['b', 'c', 'd']) sender.sendStatus(report('15550001000', `wamid.${wamid}`));
    sender.sendStatus(report('15550001000', 'wamid.a', 'delivered'));
    await nextTurn();
    expect(poster.posted).toEqual([]);
    expect(sender.heldStatuses()).toBe(5);
    poster.free();
    expect(sender.heldStatuses()).toBe(0);
    expect(poster.posted.map((d) => statusesOf(d).map((s) => `${s.id}:${s.status}`))).toEqual([
      ['wamid.a:sent', 'wamid.b:sent', 'wamid.c:sent'],
      ['wamid.d:sent', 'wamid.a:delivered'],
    ]);
  });
});
