import { DelayedError, type Job } from 'bullmq';
import { newId } from '@switchboard/domain';
import type { OutboundMessage, SendAccepted } from '@switchboard/providers';
import type { MessageTimerJob, SendMessageJob } from '@switchboard/queues';
import { createMessageTimersRepository, type AttemptRow, type Db, type MessageWritesRepository, type StoredEvent } from '@switchboard/store';
import type { MessageTimers } from '../src/dispatch/message-timers';
import { createMessageTimerProcessor } from '../src/processors/message-timer.processor';
import { createSendMessageProcessor } from '../src/processors/send-message.processor';
import type { AdaptersByMode, ChannelAdapters } from '../src/upstreams/adapter-sets';
import { openMessageStore, type MessageStore } from './support/message-store';

/** Time-based fallback and expiry against the real store (docs/routing.md), with scripted upstreams. */
let world: MessageStore;
let db: Db;
let store: MessageWritesRepository;
let accountId: string;

beforeAll(async () => {
  world = await openMessageStore('timer-test', 6);
  ({ db, store, accountId } = world);
});

afterAll(() => world.close());

let now = Date.parse('2025-03-01T12:00:00.000Z');
const clock = () => now;
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function setup(smsAnswers: Array<SendAccepted | Error> = []) {
  const sends: Array<{ channel: string; message: OutboundMessage }> = [];
  const send = (channel: string) => async (message: OutboundMessage) => {
    sends.push({ channel, message });
    const answer = channel === 'sms' ? smsAnswers.shift() : undefined;
    if (answer instanceof Error) throw answer;
    return answer ?? { upstreamMessageId: `${channel}-${sends.length}` };
  };
  const set = {
    chat: { send: send('chat') },
    rcs: { send: send('rcs'), isReachable: async () => true },
    sms: { send: send('sms') },
  } as unknown as ChannelAdapters;
  const providers: AdaptersByMode = { test: set, live: set };
  const armed: Array<{ attemptId: string; timeoutSeconds: number }> = [];
  const timers: MessageTimers = {
    async armFallbackCheck(data: SendMessageJob, attempts: readonly AttemptRow[]) {
      const latest = attempts[attempts.length - 1];
      if (data.channel === 'auto' && latest.status === 'sent' && !latest.abandoned_at && latest.channel !== 'sms')
        armed.push({ attemptId: latest.id, timeoutSeconds: data.fallback_timeout_seconds ?? 60 });
    },
    async armExpiry() {},
  };
  const published: StoredEvent[] = [];
  const publishEvents = async (events: StoredEvent[]) => {
    published.push(...events);
  };
  const sendMessage = createSendMessageProcessor({
    store,
    providers,
    clock,
    logger: silent,
    config: { reconcileTimeoutMs: 30_000, throttleDelayMs: 1_000 },
    publishEvents,
    timers,
    newAttemptRef: () => 77,
  });
  const timer = createMessageTimerProcessor({
    timers: createMessageTimersRepository(db),
    store,
    continueSend: sendMessage.continueSend,
    clock,
    logger: silent,
    publishEvents,
  });
  return { sends, armed, published, sendMessage, timer };
}

function autoJob(): SendMessageJob {
  return {
    message_id: newId('msg'),
    account_id: accountId,
    mode: 'test',
    channel: 'auto',
    plan: ['chat', 'sms'],
    senders: { chat: { e164: '+14155550100', chat_phone_number_id: '14155550100' }, sms: { e164: '+14155550100' } },
    recipient: '+447911123404',
    content: { text: 'Your code is 1234' },
    fallback_timeout_seconds: 5,
    cost_units: 1,
    created_at: new Date(now).toISOString(),
  };
}

function fakeJob<T>(data: T, id: string) {
  return { id, name: 'x', queueName: 'q', data, attemptsMade: 0, opts: { attempts: 3 }, moveToDelayed: jest.fn(async () => undefined) } as unknown as Job<T>;
}

const summary = async (id: string) => (await store.attempts(id)).map((a) => `${a.channel}:${a.status}${a.error_code ? `:${a.error_code}` : ''}`);

describe('fallback check', () => {
  it('moves an undelivered message on once, however often the check runs', async () => {
    const { sends, armed, published, sendMessage, timer } = setup();
    const data = autoJob();
    await sendMessage(fakeJob(data, data.message_id));
    expect(armed).toHaveLength(1);

    now += 5_000;
    const check: MessageTimerJob = { kind: 'fallback-check', message_id: data.message_id, attempt_id: armed[0].attemptId, timeout_seconds: 5, send: data };
    // Two runs at once (a stalled job picked up again): one sends, the other finds the send in flight and waits.
    const both = await Promise.allSettled([timer(fakeJob(check, 'c1')), timer(fakeJob(check, 'c1'))]);
    const refusals = both.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(refusals.every((reason) => reason instanceof DelayedError)).toBe(true);
    await timer(fakeJob(check, 'c1'));

    expect(sends.map((s) => s.channel)).toEqual(['chat', 'sms']);
    expect(await summary(data.message_id)).toEqual(['chat:sent:fallback_timeout', 'sms:sent']);
    expect(await store.findRow(data.message_id)).toMatchObject({ status: 'sent', channel_used: 'sms' });
    expect(published.map((e) => e.type)).toEqual(['message.sent', 'message.fallback', 'message.sent']);
  });

  it('after a send of unknown outcome on the next channel, a rerun waits for a receipt instead of sending again', async () => {
    const { sends, armed, sendMessage, timer } = setup([Object.assign(new Error('socket hang up'), { name: 'ECONNRESET' })]);
    const data = autoJob();
    await sendMessage(fakeJob(data, data.message_id));
    now += 5_000;
    const check: MessageTimerJob = { kind: 'fallback-check', message_id: data.message_id, attempt_id: armed[0].attemptId, timeout_seconds: 5, send: data };
    await expect(timer(fakeJob(check, 'c2'))).rejects.toThrow();
    await expect(timer(fakeJob(check, 'c2'))).rejects.toBeInstanceOf(DelayedError);
    expect(sends.map((s) => s.channel)).toEqual(['chat', 'sms']);
    expect(await summary(data.message_id)).toEqual(['chat:sent:fallback_timeout', 'sms:sending']);
  });
});

describe('expiry timer', () => {
  it('ends the message undelivered / expired', async () => {
    const { sendMessage, timer, published } = setup();
    const data = { ...autoJob(), ttl_seconds: 3 };
    await sendMessage(fakeJob(data, data.message_id));
    now += 3_000;
    await timer(fakeJob<MessageTimerJob>({ kind: 'expire', message_id: data.message_id, ttl_seconds: 3 }, 'e1'));
    expect(await store.findRow(data.message_id)).toMatchObject({ status: 'undelivered', error_code: 'expired' });
    expect(published.map((e) => e.type)).toEqual(['message.sent', 'message.failed']);
  });
});
