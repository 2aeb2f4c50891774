import { ReplicationUnconfirmedError } from '@switchboard/domain';
import type { FairShare, SendLanes, SendMessageJob } from '@switchboard/queues';
import { createMessageAcceptance } from '../src/messages/message-acceptance';

// One replica acknowledgement per group of concurrent enqueues, after the group's add (docs/operations.md#redis-failover).
function acceptanceWith(replicaAck: () => Promise<void>) {
  const events: string[] = [];
  const queue = {
    add: (_name: string, data: SendMessageJob) => (events.push(`add ${data.message_id}`), Promise.resolve()),
    addBulk: (jobs: Array<{ data: SendMessageJob }>) => (events.push(`addBulk ${jobs.map((j) => j.data.message_id).join(',')}`), Promise.resolve([])),
  };
  const acceptance = createMessageAcceptance({
    lanes: { of: () => queue } as unknown as SendLanes,
    fairShare: { priorities: (_lane, _account, n) => Promise.resolve(Array.from({ length: n }, (_, i) => i + 1)) } as Pick<FairShare, 'priorities'>,
    accountNumbers: () => Promise.resolve([]),
    guard: (_dependency, call) => call(),
    prices: { chat: 1, rcs: 1, sms: 1 },
    sandboxSender: '+14155550100',
    messageStored: () => Promise.resolve(false),
    replicaAck: () => {
      events.push('ack');
      return replicaAck();
    },
  });
  return { acceptance, events };
}

const job = (id: string): SendMessageJob =>
  ({
    message_id: id,
    account_id: 'acc_1',
    mode: 'test',
    channel: 'sms',
    plan: ['sms'],
    senders: { sms: { e164: '+14155550100' } },
    recipient: '+14155552671',
    cost_units: 1,
    created_at: new Date().toISOString(),
    traffic_class: 'transactional',
  }) as SendMessageJob;

describe('message acceptance with replica acknowledgement', () => {
  it('acknowledges once per group, after its add', async () => {
    const { acceptance, events } = acceptanceWith(() => Promise.resolve());
    await Promise.all(['m1', 'm2', 'm3'].map((id) => acceptance.enqueue(job(id))));
    expect(events).toEqual(['addBulk m1,m2,m3', 'ack']);
    await acceptance.enqueue(job('m4'));
    expect(events.slice(2)).toEqual(['add m4', 'ack']);
  });

  it('rejects every caller of the group when the replicas do not confirm', async () => {
    const { acceptance } = acceptanceWith(() => Promise.reject(new ReplicationUnconfirmedError()));
    const results = await Promise.allSettled(['m1', 'm2'].map((id) => acceptance.enqueue(job(id))));
    for (const result of results) expect(result).toMatchObject({ status: 'rejected', reason: { code: 'replication_unconfirmed', status: 503 } });
  });
});
