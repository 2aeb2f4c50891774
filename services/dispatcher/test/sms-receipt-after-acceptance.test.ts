import type { UpstreamReceipt } from '@switchboard/domain';
import type { SmsAdapter } from '@switchboard/providers';
import type { JobAdder, ProviderCallbackJob } from '@switchboard/queues';
import { createPendingAcceptances } from '../src/dispatch/pending-acceptances';
import { forwardSmsCallbacks } from '../src/upstreams/sms-callbacks.forwarder';

/** An SMPP session that hands the test its receipt handler, and a queue that records what was queued. */
function harness(maxAcceptanceWaitMs = 60_000, replicaAck?: () => Promise<void>) {
  let onReceipt: (receipt: UpstreamReceipt) => Promise<void> = async () => undefined;
  const sms = { onReceipt: (handler: typeof onReceipt) => (onReceipt = handler), onInbound: () => undefined } as unknown as SmsAdapter;
  const queued: string[] = [];
  const queue = {
    add: async (_name: string, job: ProviderCallbackJob) => void queued.push(...job.receipts.map((r) => r.upstreamMessageId)),
  } as unknown as JobAdder<ProviderCallbackJob>;
  const pendingAcceptances = createPendingAcceptances();
  forwardSmsCallbacks({ sms, queue, clock: () => 0, retry: { attempts: 5 }, pendingAcceptances, maxAcceptanceWaitMs, replicaAck });
  return { receive: (receipt: UpstreamReceipt) => onReceipt(receipt), queued, pendingAcceptances };
}

const receipt = (upstreamMessageId: string, partId?: string): UpstreamReceipt =>
  ({ channel: 'sms', upstreamMessageId, status: 'delivered', at: new Date(0).toISOString(), ...(partId ? { partId } : {}) }) as UpstreamReceipt;

function deferred() {
  let resolve: () => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

it('queues a receipt whose acceptance is being written only once that write is committed', async () => {
  const { receive, queued, pendingAcceptances } = harness();
  const write = deferred();
  void pendingAcceptances.track(['smsc-1', 'smsc-1b'], write.promise);
  const forwarded = receive(receipt('smsc-1', 'smsc-1b'));
  await turn();
  expect(queued).toEqual([]);
  write.resolve();
  await forwarded;
  expect(queued).toEqual(['smsc-1']);
  expect(pendingAcceptances.size).toBe(0);
});

it('queues a receipt at once when no acceptance names it, and after a failed write as well', async () => {
  const { receive, queued, pendingAcceptances } = harness();
  await receive(receipt('smsc-other'));
  expect(queued).toEqual(['smsc-other']);
  const write = deferred();
  void pendingAcceptances.track(['smsc-2'], write.promise).catch(() => undefined);
  const forwarded = receive(receipt('smsc-2'));
  write.reject(new Error('store down'));
  await forwarded;
  expect(queued).toEqual(['smsc-other', 'smsc-2']);
});

it('waits no longer than maxAcceptanceWaitMs for a write that does not settle', async () => {
  const { receive, queued, pendingAcceptances } = harness(20);
  void pendingAcceptances.track(['smsc-3'], new Promise<void>(() => undefined));
  await receive(receipt('smsc-3'));
  expect(queued).toEqual(['smsc-3']);
});

it('answers the SMSC only once the replicas hold the job, and as a failure when they do not', async () => {
  const ack = deferred();
  const { receive, queued } = harness(60_000, () => ack.promise);
  let answered = false;
  const forwarded = receive(receipt('smsc-4')).then(() => (answered = true));
  await turn();
  expect({ queued, answered }).toEqual({ queued: ['smsc-4'], answered: false });
  ack.resolve();
  await forwarded;
  expect(answered).toBe(true);

  const refused = harness(60_000, () => Promise.reject(new Error('replication_unconfirmed')));
  // The adapter turns a rejected handler into a failed deliver_sm_resp, and the SMSC redelivers the receipt.
  await expect(refused.receive(receipt('smsc-5'))).rejects.toThrow('replication_unconfirmed');
});
