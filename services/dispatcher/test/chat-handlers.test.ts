import { UnrecoverableError, type Job } from 'bullmq';
import type { UpstreamInbound } from '@switchboard/domain';
import { ProviderError, type ChatAdapter } from '@switchboard/providers';
import type { ProviderCallbackJob, SubmitTemplateJob } from '@switchboard/queues';
import type { InboundRecordResult, InboundRow, TemplateRow } from '@switchboard/store';
import { createInboundHandler } from '../src/processors/inbound.handler';
import { createTemplateSubmitProcessor, toGraphComponents } from '../src/processors/template-submit.processor';
import { createTemplateUpdateHandler } from '../src/processors/template-update.handler';
import type { AdaptersByMode } from '../src/upstreams/adapter-sets';

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
const job = { id: 'j1' } as Job<ProviderCallbackJob>;
const NOW = Date.parse('2030-01-01T00:00:00.000Z');

const item: UpstreamInbound = {
  channel: 'chat',
  upstreamId: 'wamid.1',
  from: '+447911123401',
  to: '+447911123400',
  type: 'reply',
  text: 'Yes',
  reply: { id: 'yes', title: 'Yes' },
  contextUpstreamId: 'wamid.0',
  receivedAt: '2030-01-01T00:00:00.000Z',
};
const row = { id: 'inb_1', account_id: 'acc_1', to_number: item.to, from_number: item.from, context_message_id: 'msg_1' } as InboundRow;

describe('inbound handler', () => {
  function setup(result: InboundRecordResult) {
    const recorded: unknown[] = [];
    const remembered: unknown[] = [];
    const published: unknown[] = [];
    const handler = createInboundHandler({
      inbound: { record: async (input) => (recorded.push(input), result) },
      windows: { remember: async (...args) => void remembered.push(args) },
      logger,
      clock: () => NOW,
      sandboxSender: '+14155550100',
      publishEvents: async (events) => void published.push(...events),
    });
    return { handler, recorded, remembered, published };
  }

  it('stores, refreshes the window key and publishes the event', async () => {
    const at = new Date(item.receivedAt);
    const event = { id: 'evt_1', account_id: 'acc_1', type: 'message.inbound', resource_id: 'inb_1', sequence: 0 };
    const { handler, recorded, remembered, published } = setup({ outcome: 'stored', row, windowLastInboundAt: at, events: [event] });
    await handler([item], job);
    expect(recorded).toEqual([expect.objectContaining({ upstreamId: 'wamid.1', contextUpstreamId: 'wamid.0', receivedAt: at })]);
    expect(remembered).toEqual([[{ accountId: 'acc_1', sender: item.to, customer: item.from }, at, NOW]]);
    expect(published).toEqual([event]);
  });

  it('repairs the window key for a duplicate but publishes nothing', async () => {
    const at = new Date(item.receivedAt);
    const { handler, remembered, published } = setup({ outcome: 'duplicate', row, windowLastInboundAt: at });
    await handler([item], job);
    expect(remembered).toHaveLength(1);
    expect(published).toHaveLength(0);
  });

  it('opens the shared sandbox window for a reply to the sandbox sender nobody owns', async () => {
    const { handler, remembered } = setup({ outcome: 'unowned' });
    await handler([{ ...item, to: '+14155550100' }], job);
    expect(remembered).toEqual([[{ accountId: 'sandbox', sender: '+14155550100', customer: item.from }, new Date(item.receivedAt), NOW]]);
  });

  it('drops replies nobody owns and unreadable items', async () => {
    const { handler, recorded, remembered } = setup({ outcome: 'unowned' });
    await handler([item, { ...item, upstreamId: '' }, { ...item, receivedAt: 'nope' }], job);
    expect(recorded).toHaveLength(1);
    expect(remembered).toHaveLength(0);
  });
});

describe('template update handler', () => {
  it('applies approvals and rejections', async () => {
    const applied: unknown[] = [];
    const handler = createTemplateUpdateHandler({ templates: { applyReview: async (r) => (applied.push(r), []) }, logger, clock: () => NOW });
    await handler([{ upstreamTemplateId: '9', name: 'a', language: 'en', status: 'rejected', reason: 'INVALID_FORMAT' }], job);
    expect(applied).toEqual([{ upstreamTemplateId: '9', name: 'a', language: 'en', status: 'rejected', reason: 'INVALID_FORMAT', at: new Date(NOW) }]);
  });
});

describe('template submission', () => {
  // A well-formed id: the processor checks its job payload before anything else.
  const TEMPLATE_ID = 'tpl_01JD3Q4W6T9ZK1H8X2C5V7B3NM';
  const template = {
    id: TEMPLATE_ID,
    name: 'order_ready',
    language: 'en',
    category: 'utility',
    status: 'pending',
    upstream_template_id: null,
    components: [
      { type: 'header', text: 'Hi' },
      { type: 'body', text: 'Hi {{1}}' },
      { type: 'buttons', buttons: [{ type: 'quick_reply', text: 'OK' }] },
    ],
  } as unknown as TemplateRow;
  const submitJob = { id: TEMPLATE_ID, data: { template_id: TEMPLATE_ID, account_id: 'acc_1', mode: 'test' } } as Job<SubmitTemplateJob>;

  function setup(createTemplate: ChatAdapter['createTemplate'], row: TemplateRow | null = template) {
    const marks: unknown[] = [];
    const chat = { send: async () => ({ upstreamMessageId: 'x' }), createTemplate } as ChatAdapter;
    const processor = createTemplateSubmitProcessor({
      templates: {
        findById: async () => row,
        markSubmitted: async (...args) => void marks.push(['submitted', ...args]),
        markRejected: async (...args) => void marks.push(['rejected', ...args]),
      },
      providers: { test: { chat }, live: { chat } } as unknown as AdaptersByMode,
      logger,
      clock: () => NOW,
    });
    return { processor, marks };
  }

  it('speaks the Graph API spelling', () => {
    expect(toGraphComponents(template.components)).toEqual([
      { type: 'HEADER', format: 'TEXT', text: 'Hi' },
      { type: 'BODY', text: 'Hi {{1}}' },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'OK' }] },
    ]);
  });

  it('refuses a malformed payload for good, naming the field, before reading the store', async () => {
    const { processor, marks } = setup(async () => ({ upstreamTemplateId: '1', status: 'pending' }));
    const malformed = { id: 'j', data: { template_id: 'tpl_1', account_id: 'acc_1', mode: 'test' } } as Job<SubmitTemplateJob>;
    await expect(processor(malformed)).rejects.toThrow(new UnrecoverableError('invalid submit-template job: /template_id must be a tpl_ id'));
    expect(marks).toEqual([]);
  });

  it('records the upstream id', async () => {
    const { processor, marks } = setup(async (draft) => {
      expect(draft).toMatchObject({ name: 'order_ready', language: 'en', category: 'utility' });
      return { upstreamTemplateId: '123', status: 'pending' };
    });
    await processor(submitJob);
    expect(marks).toEqual([['submitted', TEMPLATE_ID, '123', 'pending', new Date(NOW)]]);
  });

  it('rejects on a permanent refusal, retries on a transient one, skips what needs no submission', async () => {
    const refused = setup(async () => {
      throw new ProviderError('permanent', '100', 'already exists');
    });
    await refused.processor(submitJob);
    expect(refused.marks).toEqual([['rejected', TEMPLATE_ID, '100: already exists', new Date(NOW)]]);
    const flaky = setup(async () => {
      throw new ProviderError('transient', 'ECONNRESET', 'reset');
    });
    await expect(flaky.processor(submitJob)).rejects.toThrow('reset');
    const gone = setup(async () => ({ upstreamTemplateId: 'x', status: 'pending' }), null);
    await gone.processor(submitJob);
    expect(gone.marks).toEqual([]);
  });
});
