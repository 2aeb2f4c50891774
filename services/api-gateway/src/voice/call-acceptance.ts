import { ApiError, ConflictError, isId, UnprocessableError, type KeyMode } from '@switchboard/domain';
import type { PublishEvents } from '@switchboard/queues';
import { CALL_LIMITS, type CallRequest } from '@switchboard/schemas';
import type { AgentsRepository, CallRow, CallsRepository, NumberRecord } from '@switchboard/store';
import type { DependencyGuard } from '../http/dependency-guard';

export interface CallAcceptanceDeps {
  calls: Pick<CallsRepository, 'create' | 'remove'>;
  agents: Pick<AgentsRepository, 'find'>;
  accountNumbers: (accountId: string) => Promise<NumberRecord[]>;
  /** Queues the place-call job; the call is accepted only once it is in Redis. */
  enqueue: (callId: string) => Promise<unknown>;
  /** Confirms the job on REDIS_MIN_REPLICAS_ACK replicas (docs/operations.md#redis-failover). @defaultValue none */
  replicaAck?: () => Promise<void>;
  publishEvents: PublishEvents;
  concurrentCallsPerAccount: number;
  guard: DependencyGuard;
  newCallId: () => string;
  clock?: () => number;
}

export interface CallCaller {
  accountId: string;
  mode: KeyMode;
}

/** What creating a call answers: 201 with the call, or the replay of an earlier request with the same key. */
export interface AcceptedCall {
  call: CallRow;
  replayed: boolean;
}

const concurrentCallLimit = (limit: number) =>
  new ApiError(429, 'concurrent_call_limit', 'Too many live calls', `The account already has ${limit} calls ringing or in progress; wait for one to end.`, [], {
    'Retry-After': '5',
  });

/**
 * `POST /v1/voice/calls` after validation (docs/voice.md#placing-a-call): the sender and agent checks, the row with
 * its `call.ringing` event under the concurrent-call limit, then the job.
 */
export function createCallAcceptance(deps: CallAcceptanceDeps) {
  const { guard, clock = Date.now } = deps;
  return async (caller: CallCaller, request: CallRequest, idempotency: { key: string; fingerprint: string } | null): Promise<AcceptedCall> => {
    const numbers = await deps.accountNumbers(caller.accountId);
    if (!numbers.some((n) => n.e164 === request.from && n.channels.includes('voice'))) {
      throw new UnprocessableError('from_number_not_provisioned', `${request.from} is not a voice number of this account.`, [
        { field: '/from', message: 'must be a number provisioned on the account with the voice channel' },
      ]);
    }
    if (request.agent_id !== undefined) {
      const agentId = request.agent_id;
      const agent = isId('agt', agentId) ? await guard('store', () => deps.agents.find(caller.accountId, agentId)) : null;
      if (!agent)
        throw new UnprocessableError('agent_not_found', `No agent ${agentId} on this account.`, [
          { field: '/agent_id', message: 'names no agent of this account' },
        ]);
    }
    const created = await guard('store', () =>
      deps.calls.create(
        {
          id: deps.newCallId(),
          accountId: caller.accountId,
          mode: caller.mode,
          to: request.to,
          from: request.from,
          agentId: request.agent_id ?? null,
          record: request.record ?? false,
          callbackUrl: request.callback_url ?? null,
          ringTimeoutSeconds: request.ring_timeout_seconds ?? CALL_LIMITS.ringTimeoutSeconds.default,
          maxDurationSeconds: request.max_duration_seconds ?? CALL_LIMITS.maxDurationSeconds.default,
          metadata: request.metadata ?? null,
          retry: request.retry ?? null,
          machineDetection: request.machine_detection ?? null,
          idempotencyKey: idempotency?.key ?? null,
          requestFingerprint: idempotency?.fingerprint ?? null,
          at: new Date(clock()),
        },
        deps.concurrentCallsPerAccount,
      ),
    );
    if (created.kind === 'limit_reached') throw concurrentCallLimit(deps.concurrentCallsPerAccount);
    if (created.kind === 'replayed') {
      if (created.call.request_fingerprint !== idempotency?.fingerprint) {
        throw new UnprocessableError('idempotency_key_reused', 'This Idempotency-Key was used with a different body.', [
          { field: 'header:Idempotency-Key', message: 'was used with a different body' },
        ]);
      }
      // The first request may have ended in 503 `replication_unconfirmed`: its job is confirmed before the replay.
      if (deps.replicaAck) await guard('redis', deps.replicaAck);
      return { call: created.call, replayed: true };
    }
    try {
      await guard('redis', () => deps.enqueue(created.call.id));
    } catch (error) {
      // A call no orchestrator will ever place would hold a slot of the limit; take it back so the client can retry.
      await deps.calls.remove(created.call.id).catch(() => undefined);
      throw error;
    }
    // Outside the removal above: unconfirmed, the job is still on the master and may place the call, so the row
    // stays, and a retry with the same Idempotency-Key answers this call.
    if (deps.replicaAck) await guard('redis', deps.replicaAck);
    await deps.publishEvents(created.events, { call_id: created.call.id });
    return { call: created.call, replayed: false };
  };
}

export const callAlreadyEnded = () => new ConflictError('call_already_ended', 'The call has already ended.');
