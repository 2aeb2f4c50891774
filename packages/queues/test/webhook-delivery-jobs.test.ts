import { enqueueDeliveries, type DeliverWebhookJob } from '../src/contracts/webhook-delivery.queue';

type Added = { name: string; data: DeliverWebhookJob; opts?: { delay?: number; attempts?: number; jobId?: string } };

async function enqueued(deliveries: Parameters<typeof enqueueDeliveries>[1], schedule: number[]): Promise<Added[]> {
  const added: Added[] = [];
  await enqueueDeliveries({ addBulk: async (jobs) => void added.push(...(jobs as Added[])) }, deliveries, schedule);
  return added;
}

const schedule = [0, 5_000, 300_000, 1_800_000];

it('waits the schedule step of the next attempt and keeps the spare attempts for a delivery never tried', async () => {
  const [job] = await enqueued([{ id: 'dlv_a', generation: 2 }], schedule);
  expect(job.data).toEqual({ delivery_id: 'dlv_a', generation: 2 });
  expect(job.opts).toMatchObject({ delay: 0, attempts: 4 + 5, jobId: 'dlv_a-g2' });
});

it('carries the attempts already made, so the retry job goes on with the schedule and has that many attempts fewer', async () => {
  const [retry, recovered] = await enqueued(
    [
      { id: 'dlv_b', generation: 0, attemptsMade: 1, delayMs: 4_321 },
      { id: 'dlv_c', generation: 0, attemptsMade: 2 },
    ],
    schedule,
  );
  expect(retry.data).toEqual({ delivery_id: 'dlv_b', generation: 0, attempts_made: 1 });
  expect(retry.opts).toMatchObject({ delay: 4_321, attempts: 3 + 5, jobId: 'dlv_b-g0' });
  // Without a wait of its own (a fan-out running again), the job waits the step before attempt 3.
  expect(recovered.opts).toMatchObject({ delay: 300_000, attempts: 2 + 5 });
});

it('gives a delivery tried as often as the schedule allows one more attempt, at the last step', async () => {
  const [job] = await enqueued([{ id: 'dlv_d', generation: 0, attemptsMade: 6 }], schedule);
  expect(job.opts).toMatchObject({ delay: 1_800_000, attempts: 1 + 5 });
});
