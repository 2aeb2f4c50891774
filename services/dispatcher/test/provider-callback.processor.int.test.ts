import { UnrecoverableError, type Job } from 'bullmq';
import { newId, type UpstreamReceipt } from '@switchboard/domain';
import type { ProviderCallbackJob } from '@switchboard/queues';
import type { MessageWritesRepository, StoredEvent } from '@switchboard/store';
import { createProviderCallbackProcessor, type CallbackHandlers } from '../src/processors/provider-callback.processor';
import { createReceiptBatcher } from '../src/processors/receipt-batcher';
import { openMessageStore, type MessageStore } from './support/message-store';

let world: MessageStore;
let store: MessageWritesRepository;
let accountId: string;

beforeAll(async () => {
  world = await openMessageStore('callback-test', 4);
  ({ store, accountId } = world);
});

afterAll(() => world.close());

const silent = { debug: () => undefined, info: () => undefined, warn: jest.fn(), error: () => undefined };

function setup() {
  const published: StoredEvent[] = [];
  const handlers: CallbackHandlers = { inbound: jest.fn(async () => undefined), templateUpdates: jest.fn(async () => undefined) };
  const process = createProviderCallbackProcessor({
    receipts: createReceiptBatcher({ store }),
    logger: silent,
    config: { receiptMatchAttempts: 3 },
    handlers,
    publishEvents: async (events) => {
      published.push(...events);
    },
  });
  return { process, published, handlers };
}

function callbackJob(data: Partial<ProviderCallbackJob>, attemptsMade = 0) {
  const payload: ProviderCallbackJob = { source: 'chat', received_at: new Date().toISOString(), receipts: [], inbound: [], template_updates: [], ...data };
  return { id: 'cb-1', name: 'provider-callback', data: payload, attemptsMade, opts: { attempts: 8 } } as unknown as Job<ProviderCallbackJob>;
}

/** A chat message persisted by the dispatcher; with its attempt started (in flight) unless `started` is false. */
async function chatMessageInFlight({ started = true } = {}) {
  const id = newId('msg');
  await store.persistAccepted({
    id,
    account_id: accountId,
    mode: 'test',
    channel: 'chat',
    plan: ['chat'],
    senders: { chat: { e164: '+14155550100' } },
    recipient: '+447911123456',
    content: { text: 'hi' },
    cost_units: 1,
    created_at: new Date().toISOString(),
  });
  if (started) await store.startAttempt({ messageId: id, channel: 'chat', sender: '+14155550100', at: new Date() });
  return id;
}

const delivered = (clientRef: string): UpstreamReceipt => ({
  channel: 'chat',
  upstreamMessageId: `wamid.${clientRef}`,
  clientRef,
  status: 'delivered',
  carrierStatusCode: 'delivered',
  occurredAt: new Date().toISOString(),
});

describe('provider-callback processor', () => {
  it('applies receipts and publishes the events they produced', async () => {
    const { process, published } = setup();
    const id = await chatMessageInFlight();
    await process(callbackJob({ receipts: [delivered(id)] }));
    expect(await store.findRow(id)).toMatchObject({ status: 'delivered' });
    expect(published.map((e) => [e.type, e.resource_id])).toEqual([['message.delivered', id]]);
  });

  it('retries a receipt that matches nothing yet, then drops it on the last allowed run', async () => {
    const { process } = setup();
    const early = delivered(await chatMessageInFlight({ started: false }));
    await expect(process(callbackJob({ receipts: [early] }, 0))).rejects.toThrow('match no attempt');
    await expect(process(callbackJob({ receipts: [early] }, 1))).rejects.toThrow('match no attempt');
    await expect(process(callbackJob({ receipts: [early] }, 2))).resolves.toBeUndefined();
    expect(silent.warn).toHaveBeenCalledWith('receipts match no attempt; dropped', expect.objectContaining({ runs: 3 }));
  });

  it('drops a receipt naming no message of ours on its first run, without a retry', async () => {
    const { process, published } = setup();
    const id = await chatMessageInFlight();
    const foreign = delivered(`bench-${newId('msg')}`);
    await expect(process(callbackJob({ receipts: [foreign, delivered(id)] }, 0))).resolves.toBeUndefined();
    expect(silent.warn).toHaveBeenCalledWith(
      'receipts name no message of ours; dropped',
      expect.objectContaining({ receipts: [`chat:${foreign.upstreamMessageId}:delivered`] }),
    );
    expect(published.map((e) => [e.type, e.resource_id])).toEqual([['message.delivered', id]]);
  });

  it('still retries a job whose other receipt may match later', async () => {
    const { process } = setup();
    const foreign = delivered(`bench-${newId('msg')}`);
    const early = delivered(await chatMessageInFlight({ started: false }));
    await expect(process(callbackJob({ receipts: [foreign, early] }, 0))).rejects.toThrow(`match no attempt yet: chat:${early.upstreamMessageId}:delivered`);
  });

  it('hands inbound replies and template updates to their handlers', async () => {
    const { process, handlers } = setup();
    const inbound = [
      {
        channel: 'chat' as const,
        upstreamId: 'wamid.in',
        from: '+447911123456',
        to: '+14155550100',
        type: 'text',
        text: 'hi',
        receivedAt: new Date().toISOString(),
      },
    ];
    const templateUpdates = [{ upstreamTemplateId: '1', name: 'otp', language: 'en', status: 'approved' as const }];
    await process(callbackJob({ inbound, template_updates: templateUpdates }));
    expect(handlers.inbound).toHaveBeenCalledWith(inbound, expect.anything());
    expect(handlers.templateUpdates).toHaveBeenCalledWith(templateUpdates, expect.anything());
  });

  it('rejects a malformed payload as unrecoverable', async () => {
    const { process } = setup();
    await expect(process(callbackJob({ receipts: [{ status: 'delivered' } as UpstreamReceipt] }))).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(process(callbackJob({ receipts: [{ status: 'delivered' } as UpstreamReceipt] }))).rejects.toThrow(
      /^invalid provider-callback job: \/receipts\/0\/channel is required/,
    );
  });
});
