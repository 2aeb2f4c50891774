import { createBatchingEventPublisher, createEventPublisher, type EventPublisher } from '../src/event-publisher';

/** Events of jobs running together go out in one publish (docs/performance/dispatch.md#dispatch); each caller learns its outcome. */
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
  expect(calls).toEqual([
    ['a', 'b'],
    ['c', 'd', 'e'],
  ]);
});

it('rejects every caller of a batch that failed, so each can leave its events in the outbox', async () => {
  const { publisher } = recordingPublisher(true);
  const batching = createBatchingEventPublisher(publisher);
  const results = await Promise.allSettled([batching.publish([{ id: 'evt_1' }]), batching.publish([{ id: 'evt_2' }])]);
  expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  await expect(batching.publish([])).resolves.toBeUndefined();
});

it('queues no fan-out job and marks nothing for events inserted already published', async () => {
  const queued: string[][] = [];
  const judged: string[][] = [];
  const marked: string[][] = [];
  const publisher = createEventPublisher({
    queue: {
      addBulk: async (jobs) => {
        queued.push(jobs.map((job) => String(job.opts?.jobId)));
        return [];
      },
    } as unknown as Parameters<typeof createEventPublisher>[0]['queue'],
    outbox: {
      markPublished: async (ids) => void marked.push(ids),
      publishUntargeted: async (ids) => (judged.push([...ids]), [...ids]),
    },
  });
  await publisher.publish([{ id: 'evt_quiet', published: true }, { id: 'evt_open' }]);
  expect({ judged, marked, queued: queued.length }).toEqual({ judged: [['evt_open']], marked: [['evt_open']], queued: 1 });
  await publisher.publish([{ id: 'evt_quiet_2', published: true }]);
  expect({ judged: judged.length, marked: marked.length, queued: queued.length }).toEqual({ judged: 1, marked: 1, queued: 1 });
});

it('marks events published only after the replicas confirm their fan-out jobs, and leaves them to the sweeper otherwise', async () => {
  const steps: string[] = [];
  let confirmed = false;
  const publisher = createEventPublisher({
    queue: {
      addBulk: async () => (steps.push('queued'), []),
    } as unknown as Parameters<typeof createEventPublisher>[0]['queue'],
    outbox: { markPublished: async (ids) => void steps.push(`marked ${ids.join(',')}`) },
    replicaAck: async () => {
      steps.push('wait');
      if (!confirmed) throw new Error('replication_unconfirmed');
    },
  });
  await expect(publisher.publish([{ id: 'evt_a' }])).rejects.toThrow('replication_unconfirmed');
  expect(steps).toEqual(['queued', 'wait']);
  confirmed = true;
  await publisher.publish([{ id: 'evt_a' }]);
  expect(steps).toEqual(['queued', 'wait', 'queued', 'wait', 'marked evt_a']);
});
