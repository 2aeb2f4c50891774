import { createBatchingEventPublisher, type EventPublisher } from '../src/event-publisher';

/** Events of jobs running together go out in one publish (docs/performance.md#dispatch); each caller learns its outcome. */
function recordingPublisher(fail = false) {
  const calls: string[][] = [];
  const publisher: EventPublisher = {
    async publish(events) {
      calls.push(events.map((e) => e.id));
      if (fail) throw new Error('redis down');
    },
  };
  return { calls, publisher };
}

it('publishes the events of callers in the same turn of the event loop together, in order', async () => {
  const { calls, publisher } = recordingPublisher();
  const batching = createBatchingEventPublisher(publisher);
  await Promise.all([batching.publish([{ id: 'evt_1' }]), batching.publish([{ id: 'evt_2' }, { id: 'evt_3' }]), batching.publish([{ id: 'evt_4' }])]);
  expect(calls).toEqual([['evt_1', 'evt_2', 'evt_3', 'evt_4']]);
  await batching.publish([{ id: 'evt_5' }]);
  expect(calls).toEqual([['evt_1', 'evt_2', 'evt_3', 'evt_4'], ['evt_5']]);
});

it('splits a large turn into batches of at most maxBatch events, never splitting one caller', async () => {
  const { calls, publisher } = recordingPublisher();
  const batching = createBatchingEventPublisher(publisher, 3);
  await Promise.all([batching.publish([{ id: 'a' }, { id: 'b' }]), batching.publish([{ id: 'c' }, { id: 'd' }]), batching.publish([{ id: 'e' }])]);
  expect(calls).toEqual([['a', 'b'], ['c', 'd', 'e']]);
});

it('rejects every caller of a batch that failed, so each can leave its events in the outbox', async () => {
  const { publisher } = recordingPublisher(true);
  const batching = createBatchingEventPublisher(publisher);
  const results = await Promise.allSettled([batching.publish([{ id: 'evt_1' }]), batching.publish([{ id: 'evt_2' }])]);
  expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  await expect(batching.publish([])).resolves.toBeUndefined();
});
