import type { Job } from 'bullmq';
import type { DeliveryToEnqueue, FanOutEventJob } from '@switchboard/queues';
import type { EventsRepository, FanOutPlan, PendingDelivery, WebhookDeliveriesRepository } from '@switchboard/store';
import type { AttemptInput, AttemptResult } from '../src/processors/delivery-attempt';
import { createFanOutEventProcessor } from '../src/processors/fan-out-event.processor';

const event = { id: 'evt_01J0000000000000000000000A', account_id: 'acc_1', published_at: null } as unknown as FanOutPlan['event'];
const plan = (endpointIds: string[]): FanOutPlan =>
  ({ event, callbackUrl: null, endpoints: endpointIds.map((id) => ({ id, url: `https://${id}.example.com/h` })) }) as unknown as FanOutPlan;
const job = { id: event.id, data: { event_id: event.id } } as Job<FanOutEventJob>;

function fanOutWith({
  pending,
  attempt,
  schedule = [0, 5_000, 300_000],
}: {
  pending: PendingDelivery[];
  attempt: (input: AttemptInput) => Promise<AttemptResult>;
  schedule?: number[];
}) {
  const enqueued: DeliveryToEnqueue[] = [];
  const attempted: AttemptInput[] = [];
  const published: string[] = [];
  const process = createFanOutEventProcessor({
    events: {} as EventsRepository,
    deliveries: {} as WebhookDeliveriesRepository,
    deliveryQueue: { addBulk: async () => [] },
    loadPlan: async () => plan(pending.map((d) => d.id)),
    createDeliveries: async () => pending,
    enqueue: async (jobs) => void enqueued.push(...jobs),
    markPublished: async ({ id }) => void published.push(id),
    attemptFirst: async (input) => {
      attempted.push(input);
      return attempt(input);
    },
    saturationDelayMs: 250,
    retryScheduleMs: schedule,
    clock: () => new Date(),
  });
  return { run: () => process(job, 'token'), enqueued, attempted, published };
}

const pendingDelivery = (id: string, attempt_count = 0): PendingDelivery => ({ id, generation: 0, attempt_count });

describe('fan-out with the first attempt inside', () => {
  it('enqueues nothing for a delivery its first attempt settled', async () => {
    const f = fanOutWith({ pending: [pendingDelivery('dlv_a'), pendingDelivery('dlv_b')], attempt: async () => ({ ended: 'delivered' }) });
    expect(await f.run()).toEqual({ deliveries: 2 });
    expect(f.attempted.map((a) => [a.deliveryId, a.attemptsBefore])).toEqual([
      ['dlv_a', 0],
      ['dlv_b', 0],
    ]);
    expect(new Set(f.attempted.map((a) => a.holder)).size).toBe(2);
    expect(f.enqueued).toEqual([]);
    expect(f.published).toEqual([event.id]);
  });

  it('enqueues a retry on the schedule after a failed first attempt, a later try for a saturated target, and a job for an attempt that threw', async () => {
    const outcomes: Record<string, () => Promise<AttemptResult>> = {
      dlv_failed: async () => ({ retryInMs: 4_321, error: 'http_status: 503' }),
      dlv_saturated: async () => ({ saturated: true }),
      dlv_store_down: async () => {
        throw new Error('connection refused');
      },
    };
    const f = fanOutWith({ pending: Object.keys(outcomes).map((id) => pendingDelivery(id)), attempt: (input) => outcomes[input.deliveryId]() });
    await f.run();
    expect(f.enqueued).toEqual([
      { id: 'dlv_failed', generation: 0, attemptsMade: 1, delayMs: 4_321 },
      { id: 'dlv_saturated', generation: 0, delayMs: 250 },
      { id: 'dlv_store_down', generation: 0, delayMs: 1_000 },
    ]);
  });

  it('leaves a delivery tried before (a fan-out running again) to a delivery job that goes on with the schedule', async () => {
    const f = fanOutWith({ pending: [pendingDelivery('dlv_tried', 2), pendingDelivery('dlv_new')], attempt: async () => ({ ended: 'delivered' }) });
    await f.run();
    expect(f.attempted.map((a) => a.deliveryId)).toEqual(['dlv_new']);
    expect(f.enqueued).toEqual([{ id: 'dlv_tried', generation: 0, attemptsMade: 2 }]);
  });

  it('makes no attempt of its own when the schedule delays the first attempt', async () => {
    const f = fanOutWith({ pending: [pendingDelivery('dlv_a')], attempt: async () => ({ ended: 'delivered' }), schedule: [1_000, 5_000] });
    await f.run();
    expect(f.attempted).toEqual([]);
    expect(f.enqueued).toEqual([{ id: 'dlv_a', generation: 0, attemptsMade: 0 }]);
  });
});
