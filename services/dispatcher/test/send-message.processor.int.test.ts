import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import { newId } from '@switchboard/domain';
import { ProviderError, type OutboundMessage, type SendAccepted } from '@switchboard/providers';
import type { SendMessageJob } from '@switchboard/queues';
import type { MessageWritesRepository, StoredEvent } from '@switchboard/store';
import { createSendMessageProcessor } from '../src/processors/send-message.processor';
import type { AdaptersByMode, ChannelAdapters } from '../src/upstreams/adapter-sets';
import { openMessageStore, type MessageStore } from './support/message-store';

let world: MessageStore;
let store: MessageWritesRepository;
let accountId: string;

beforeAll(async () => {
  world = await openMessageStore('dispatch-test', 4);
  ({ store, accountId } = world);
});

afterAll(() => world.close());

type Answer = SendAccepted | ProviderError | Error;

/** Adapters that answer from a script per channel and record every send. */
function scriptedAdapters(script: Partial<Record<'chat' | 'rcs' | 'sms', Answer[]>>, reachable = true) {
  const sends: Array<{ channel: string; message: OutboundMessage }> = [];
  const next = (channel: 'chat' | 'rcs' | 'sms') => async (message: OutboundMessage) => {
    sends.push({ channel, message });
    const answer = script[channel]?.shift() ?? { upstreamMessageId: `${channel}-${sends.length}` };
    if (answer instanceof Error) throw answer;
    return answer;
  };
  const set = {
    chat: { send: next('chat'), createTemplate: jest.fn() },
    rcs: { send: next('rcs'), isReachable: async () => reachable },
    sms: { send: next('sms'), onReceipt: jest.fn(), onInbound: jest.fn(), ready: async () => undefined, close: async () => undefined },
  } as unknown as ChannelAdapters;
  const providers: AdaptersByMode = { test: set, live: set };
  return { providers, sends };
}

let now = Date.parse('2025-03-01T12:00:00.000Z');
const clock = () => now;
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function setup(script: Parameters<typeof scriptedAdapters>[0], opts: { reachable?: boolean; reconcileTimeoutMs?: number } = {}) {
  const adapters = scriptedAdapters(script, opts.reachable);
  const published: StoredEvent[] = [];
  const process = createSendMessageProcessor({
    store,
    providers: adapters.providers,
    clock,
    logger: silent,
    config: { reconcileTimeoutMs: opts.reconcileTimeoutMs ?? 30_000, throttleDelayMs: 1_000 },
    publishEvents: async (events) => {
      published.push(...events);
    },
    newAttemptRef: () => 321,
  });
  return { ...adapters, process, published };
}

function sendJob(over: Partial<SendMessageJob> = {}): SendMessageJob {
  const channel = over.channel ?? 'sms';
  return {
    message_id: newId('msg'),
    account_id: accountId,
    mode: 'test',
    channel,
    plan: channel === 'auto' ? ['chat', 'rcs', 'sms'] : [channel],
    senders: { chat: { e164: '+14155550100', chat_phone_number_id: '14155550100' }, rcs: { e164: '+14155550100' }, sms: { e164: '+14155550100' } },
    recipient: '+447911123456',
    content: { text: 'Your code is 1234' },
    cost_units: 1,
    created_at: new Date(now).toISOString(),
    ...over,
  };
}

function fakeJob(data: SendMessageJob, attemptsMade = 0, attempts = 3) {
  const job = {
    id: data.message_id,
    name: 'send-message',
    queueName: 'message-send',
    data,
    attemptsMade,
    opts: { attempts },
    moveToDelayed: jest.fn(async () => undefined),
  };
  return job as unknown as Job<SendMessageJob> & { moveToDelayed: jest.Mock };
}

const attemptsOf = async (id: string) => (await store.attempts(id)).map((a) => ({ channel: a.channel, status: a.status, error_code: a.error_code }));

describe('send-message processor', () => {
  it('sends on the named channel and records the acceptance', async () => {
    const { process, sends, published } = setup({ sms: [{ upstreamMessageId: 'smsc-1', parts: 1, partIds: ['smsc-1'] }] });
    const data = sendJob();
    await process(fakeJob(data), 'token');

    expect(await store.findRow(data.message_id)).toMatchObject({ status: 'sent', channel_used: 'sms' });
    expect(sends).toEqual([
      {
        channel: 'sms',
        message: {
          clientRef: data.message_id,
          attemptRef: 321,
          to: '+447911123456',
          from: '+14155550100',
          chatPhoneNumberId: undefined,
          content: { kind: 'text', text: 'Your code is 1234' },
        },
      },
    ]);
    expect((await store.attempts(data.message_id))[0]).toMatchObject({ attempt_ref: 321, upstream_message_id: 'smsc-1', status: 'sent' });
    expect(published.map((e) => e.type)).toEqual(['message.sent']);
  });

  it('auto falls back chat → rcs → sms in one run, recording each attempt', async () => {
    const { process, sends, published } = setup({ chat: [new ProviderError('unreachable', '131026', 'not a chat user')] }, { reachable: false });
    const data = sendJob({ channel: 'auto' });
    await process(fakeJob(data));

    expect(sends.map((s) => s.channel)).toEqual(['chat', 'sms']);
    expect(await attemptsOf(data.message_id)).toEqual([
      { channel: 'chat', status: 'failed', error_code: 'recipient_unreachable' },
      { channel: 'rcs', status: 'failed', error_code: 'recipient_unreachable' },
      { channel: 'sms', status: 'sent', error_code: null },
    ]);
    expect(await store.findRow(data.message_id)).toMatchObject({ status: 'sent', channel_used: 'sms' });
    expect(published.map((e) => e.type)).toEqual(['message.fallback', 'message.fallback', 'message.sent']);
  });

  it('sends a template to chat as the Cloud API template object', async () => {
    const { process, sends } = setup({});
    const template = { name: 'order_update', language: 'en_US', parameters: [{ type: 'text' as const, text: 'A-17' }] };
    await process(fakeJob(sendJob({ channel: 'chat', content: undefined, template })));
    expect(sends[0].message).toMatchObject({
      chatPhoneNumberId: '14155550100',
      content: {
        kind: 'chat',
        type: 'template',
        payload: { name: 'order_update', language: { code: 'en_US' }, components: [{ type: 'body', parameters: template.parameters }] },
      },
    });
  });

  it('a refusing content check ends the channel before anything is sent', async () => {
    const { providers, sends } = scriptedAdapters({});
    const process = createSendMessageProcessor({
      store,
      providers,
      clock,
      logger: silent,
      config: { reconcileTimeoutMs: 30_000, throttleDelayMs: 1_000 },
      publishEvents: async () => undefined,
      checkContent: async () => {
        throw new ProviderError('permanent', 'media_too_large', 'image may be at most 5242880 bytes');
      },
    });
    const data = sendJob({ channel: 'chat', content: { type: 'image', image: { link: 'https://example.com/big.png' } } });
    await process(fakeJob(data));
    expect(sends).toHaveLength(0);
    expect(await store.findRow(data.message_id)).toMatchObject({ status: 'failed', error_code: 'media_too_large' });
  });

  it('a permanent refusal on a named channel fails the message and completes the job', async () => {
    const { process } = setup({ chat: [new ProviderError('window_closed', '131047', 'Re-engagement message')] });
    const data = sendJob({ channel: 'chat' });
    await expect(process(fakeJob(data))).resolves.toBeUndefined();
    expect(await store.findRow(data.message_id)).toMatchObject({
      status: 'failed',
      error_code: 'outside_customer_service_window',
      carrier_status_code: '131047',
      error_message: expect.stringContaining('131047'),
    });
  });

  it('throttling delays the job without using an attempt, then sends on the next run', async () => {
    const { process, sends } = setup({ rcs: [new ProviderError('throttled', 'RESOURCE_EXHAUSTED', 'quota', 2_500)] });
    const data = sendJob({ channel: 'rcs' });
    const job = fakeJob(data);
    await expect(process(job, 'tok')).rejects.toBeInstanceOf(DelayedError);
    expect(job.moveToDelayed).toHaveBeenCalledWith(now + 2_500, 'tok');
    expect(await attemptsOf(data.message_id)).toEqual([{ channel: 'rcs', status: 'pending', error_code: 'throttled' }]);

    await process(job, 'tok');
    expect(sends).toHaveLength(2);
    expect(await attemptsOf(data.message_id)).toEqual([{ channel: 'rcs', status: 'sent', error_code: null }]);
  });

  it('a transient failure throws for backoff; on the last attempt it fails with upstream_unavailable', async () => {
    const { process } = setup({ sms: [new ProviderError('transient', '0x14', 'queue full'), new ProviderError('transient', '0x14', 'queue full')] });
    const data = sendJob();
    await expect(process(fakeJob(data, 0, 2))).rejects.toThrow('0x14');
    expect(await attemptsOf(data.message_id)).toEqual([{ channel: 'sms', status: 'pending', error_code: 'upstream_unavailable' }]);

    await expect(process(fakeJob(data, 1, 2))).resolves.toBeUndefined();
    expect(await store.findRow(data.message_id)).toMatchObject({ status: 'failed', error_code: 'upstream_unavailable' });
  });

  it('expires a message whose ttl passed before it was sent', async () => {
    const { process, sends } = setup({});
    const data = sendJob({ ttl_seconds: 60, created_at: new Date(now - 61_000).toISOString() });
    await process(fakeJob(data));
    expect(sends).toHaveLength(0);
    expect(await store.findRow(data.message_id)).toMatchObject({ status: 'undelivered', error_code: 'expired' });
  });

  it('rejects a malformed payload as unrecoverable without persisting it', async () => {
    const { process } = setup({});
    const data = { ...sendJob(), plan: [] } as SendMessageJob;
    await expect(process(fakeJob(data))).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(process(fakeJob(data))).rejects.toThrow('invalid send-message job: /plan must be ["sms"]');
    expect(await store.findRow(data.message_id)).toBeNull();
  });

  describe('after a crash mid-send (an attempt left `sending`)', () => {
    async function crashedMidSend(data: SendMessageJob) {
      await store.persistAccepted({ ...data, id: data.message_id });
      const started = await store.startAttempt({
        messageId: data.message_id,
        channel: data.plan[0],
        sender: '+14155550100',
        attemptRef: 99,
        at: new Date(now),
      });
      if (started.outcome !== 'started') throw new Error('expected a started attempt');
      return started.attempt;
    }

    it('chat waits for a receipt; a matched receipt ends the job without a second send', async () => {
      const { process, sends } = setup({}, { reconcileTimeoutMs: 5_000 });
      const data = sendJob({ channel: 'chat' });
      await crashedMidSend(data);
      const job = fakeJob(data);

      await expect(process(job, 'tok')).rejects.toBeInstanceOf(DelayedError);
      expect(job.moveToDelayed).toHaveBeenCalledWith(now + 5_000, 'tok');

      await store.applyReceipt({
        channel: 'chat',
        upstreamMessageId: 'wamid.crash',
        clientRef: data.message_id,
        status: 'sent',
        carrierStatusCode: 'sent',
        occurredAt: new Date(now).toISOString(),
      });
      now += 5_000;
      await process(job, 'tok');
      expect(sends).toHaveLength(0);
      expect(await store.findRow(data.message_id)).toMatchObject({ status: 'sent', channel_used: 'chat' });
    });

    it('sms without a receipt by the deadline is abandoned and sent exactly once more', async () => {
      const { process, sends } = setup({}, { reconcileTimeoutMs: 5_000 });
      const data = sendJob();
      await crashedMidSend(data);
      now += 5_000;
      await process(fakeJob(data));
      expect(sends).toHaveLength(1);
      expect(await attemptsOf(data.message_id)).toEqual([{ channel: 'sms', status: 'sent', error_code: null }]);
    });

    it('a dispatcher started after the send gives receipts queued while it was down the full timeout from its start', async () => {
      const data = sendJob({ channel: 'chat' });
      await crashedMidSend(data);
      now += 60_000; // the old deadline passed while no dispatcher ran
      const { process, sends } = setup({}, { reconcileTimeoutMs: 5_000 });
      const job = fakeJob(data);
      await expect(process(job, 'tok')).rejects.toBeInstanceOf(DelayedError);
      expect(job.moveToDelayed).toHaveBeenCalledWith(now + 5_000, 'tok');
      expect(sends).toHaveLength(0);

      await store.applyReceipt({
        channel: 'chat',
        upstreamMessageId: 'wamid.late',
        clientRef: data.message_id,
        status: 'delivered',
        carrierStatusCode: 'delivered',
        occurredAt: new Date(now).toISOString(),
      });
      now += 5_000;
      await process(job, 'tok');
      expect(sends).toHaveLength(0);
      expect(await store.findRow(data.message_id)).toMatchObject({ status: 'delivered' });
    });

    it('a run retaken while the same process still waits on the upstream does not send again', async () => {
      let answer: (accepted: SendAccepted) => void = () => undefined;
      const pending = new Promise<SendAccepted>((resolve) => (answer = resolve));
      const { process, sends } = setup({ sms: [pending as unknown as SendAccepted] }, { reconcileTimeoutMs: 5_000 });
      const data = sendJob();
      const first = process(fakeJob(data), 'lock-1');
      while (sends.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));

      // The lock expired (a starved event loop) and the stalled check handed the job out again, past the deadline.
      now += 60_000;
      const retaken = fakeJob(data);
      await expect(process(retaken, 'lock-2')).rejects.toBeInstanceOf(DelayedError);
      expect(retaken.moveToDelayed).toHaveBeenCalledWith(now + 1_000, 'lock-2');
      expect(sends).toHaveLength(1);

      answer({ upstreamMessageId: 'smsc-slow' });
      await first;
      now += 1_000;
      await process(retaken, 'lock-2');
      expect(sends).toHaveLength(1);
      expect(await attemptsOf(data.message_id)).toEqual([{ channel: 'sms', status: 'sent', error_code: null }]);
    });

    it('rcs resends at once with the same messageId and counts ALREADY_EXISTS as accepted', async () => {
      const { process, sends } = setup({ rcs: [{ upstreamMessageId: 'x', alreadyAccepted: true }] });
      const data = sendJob({ channel: 'rcs' });
      await crashedMidSend(data);
      await process(fakeJob(data));
      expect(sends.map((s) => s.message.clientRef)).toEqual([data.message_id]);
      expect(await store.findRow(data.message_id)).toMatchObject({ status: 'sent' });
    });

    it('a send that timed out leaves the attempt open, so the next run reconciles instead of resending', async () => {
      const { process, sends } = setup({ chat: [new ProviderError('transient', 'ECONNABORTED', 'timeout')] }, { reconcileTimeoutMs: 5_000 });
      const data = sendJob({ channel: 'chat' });
      await expect(process(fakeJob(data))).rejects.toThrow('ECONNABORTED');
      expect(await attemptsOf(data.message_id)).toEqual([{ channel: 'chat', status: 'sending', error_code: null }]);
      await expect(process(fakeJob(data, 1))).rejects.toBeInstanceOf(DelayedError);
      expect(sends).toHaveLength(1);
    });
  });
});
