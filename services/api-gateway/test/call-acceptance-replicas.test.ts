import { ReplicationUnconfirmedError } from '@switchboard/domain';
import type { CallRequest } from '@switchboard/schemas';
import type { CallRow, CallsRepository, NumberRecord } from '@switchboard/store';
import { createCallAcceptance } from '../src/voice/call-acceptance';

// A call's job confirmed on the replicas (docs/operations.md#redis-failover): unconfirmed, the call is kept (its
// job is on the master and may place it), and the replay confirms again before answering.
function acceptanceWith(replicaAck: () => Promise<void>, created: 'created' | 'replayed') {
  const events: string[] = [];
  const call = { id: 'call_1', request_fingerprint: 'fp' } as unknown as CallRow;
  const calls = {
    create: () => Promise.resolve(created === 'created' ? { kind: 'created', call, events: [] } : { kind: 'replayed', call }),
    remove: (id: string) => (events.push(`remove ${id}`), Promise.resolve()),
  } as unknown as Pick<CallsRepository, 'create' | 'remove'>;
  const accept = createCallAcceptance({
    calls,
    agents: { find: () => Promise.resolve(null) },
    accountNumbers: () => Promise.resolve([{ e164: '+14155550100', channels: ['voice'] } as unknown as NumberRecord]),
    enqueue: (id) => (events.push(`enqueue ${id}`), Promise.resolve()),
    replicaAck: () => (events.push('ack'), replicaAck()),
    publishEvents: () => Promise.resolve(),
    concurrentCallsPerAccount: 10,
    guard: (_dependency, call) => call(),
    newCallId: () => 'call_1',
  });
  return { accept, events };
}

const request = { to: '+14155552671', from: '+14155550100' } as CallRequest;
const caller = { accountId: 'acc_1', mode: 'test' as const };

describe('call acceptance with replica acknowledgement', () => {
  it('confirms the job after enqueueing it', async () => {
    const { accept, events } = acceptanceWith(() => Promise.resolve(), 'created');
    await expect(accept(caller, request, null)).resolves.toMatchObject({ replayed: false });
    expect(events).toEqual(['enqueue call_1', 'ack']);
  });

  it('keeps the call when the replicas do not confirm, and answers 503 replication_unconfirmed', async () => {
    const { accept, events } = acceptanceWith(() => Promise.reject(new ReplicationUnconfirmedError()), 'created');
    await expect(accept(caller, request, null)).rejects.toMatchObject({ status: 503, code: 'replication_unconfirmed' });
    expect(events).toEqual(['enqueue call_1', 'ack']);
  });

  it('confirms again before a replay', async () => {
    const { accept, events } = acceptanceWith(() => Promise.resolve(), 'replayed');
    await expect(accept(caller, request, { key: 'k', fingerprint: 'fp' })).resolves.toMatchObject({ replayed: true });
    expect(events).toEqual(['ack']);
  });
});
