import { costUnits, estimatedDelivery, renderAsText, type TrafficClass, type UnitPrices } from '@switchboard/domain';
import {
  chunksOf,
  enqueueSendMessage,
  enqueueSendMessages,
  laneOf,
  scheduledExpiryJob,
  type BulkJobAdder,
  type FairShare,
  type MessageTimerJob,
  type SendJobPlacement,
  type SendLanes,
  type SendMessageJob,
  type TrafficLane,
} from '@switchboard/queues';
import { createBatcher } from '@switchboard/runtime';
import { sendAtDelayMs, type MessageRequest } from '@switchboard/schemas';
import type { NumberRecord } from '@switchboard/store';
import { noReplicaAck, type ReplicaAck } from '@switchboard/queues';
import type { DependencyGuard } from '../http/dependency-guard';
import type { Caller } from '../http/request-context';
import type { StoredResponse } from '../idempotency/idempotency.store';
import { resolveSenders, type SenderPlan } from './sender-resolution';

/** At most this many concurrent single sends share one `addBulk`. */
const COALESCED_ENQUEUE_MAX_JOBS = 100;

export interface MessageAcceptanceDeps {
  lanes: SendLanes;
  /** Each account's turn within its lane (docs/messages.md#fairness-between-accounts). */
  fairShare: Pick<FairShare, 'priorities'>;
  /** The account's numbers, oldest first; cached by the caller. */
  accountNumbers: (accountId: string) => Promise<NumberRecord[]>;
  guard: DependencyGuard;
  prices: UnitPrices;
  sandboxSender: string;
  /** Template and 24 h window rules (docs/chat.md); may take chat out of an `auto` plan. */
  chatGate?: (accountId: string, request: MessageRequest, senders: SenderPlan) => Promise<SenderPlan>;
  /** The suppression list (docs/routing.md#opt-out); may take channels out of an `auto` plan. */
  suppressionGate?: (accountId: string, recipient: string, senders: SenderPlan) => Promise<SenderPlan>;
  /** Milliseconds from `at` until quiet hours end (docs/routing.md#quiet-hours); 0 to send at `at`. */
  quietHoursDelay?: (accountId: string, request: MessageRequest, at: number) => Promise<number>;
  /**
   * The message-timers queue: a scheduled message with ttl_seconds gets its expiry armed at acceptance,
   * so it ends at its TTL even while it still waits (docs/routing.md#ttl). @defaultValue none
   */
  timersQueue?: BulkJobAdder<MessageTimerJob>;
  /** Whether the dispatcher already persisted the message (its job may be gone from the queue by then). */
  messageStored: (messageId: string) => Promise<boolean>;
  /** Waits for REDIS_MIN_REPLICAS_ACK replicas after each group of writes (docs/operations.md#redis-failover). @defaultValue none */
  replicaAck?: ReplicaAck;
  clock?: () => number;
}

export interface MessageAcceptance {
  /**
   * Resolves senders and cost into the job; throws 422 (or 503 for the store) with nothing enqueued.
   * With `deferSuppression` the opt-out read is left to the caller, who checks every channel of
   * `job.plan` and calls `prepare` again without it if the recipient opted out of any.
   */
  prepare(
    caller: Caller,
    request: MessageRequest,
    messageId: string,
    options?: { deferSuppression?: boolean; trafficClass?: TrafficClass },
  ): Promise<SendMessageJob>;
  /**
   * Enqueues the job under its message id; BullMQ ignores a second add of the same id. Jobs enqueued by
   * concurrent requests share one `addBulk` and one replica acknowledgement; each call resolves once its own
   * job is in Redis (and on REDIS_MIN_REPLICAS_ACK replicas).
   */
  enqueue(job: SendMessageJob): Promise<void>;
  /**
   * Enqueues a batch's jobs (one account, bulk lane): the due ones as chunks (docs/messages.md#chunk-lifecycle), the
   * scheduled ones as delayed jobs of their own, in one `addBulk` each (plus one for the expiry timers of scheduled ones).
   * The chunk ids come from `batchId`, so a retried request adds nothing twice. The caller confirms the
   * replicas (`confirmReplicated`) once its own writes of the batch are done too.
   */
  enqueueBatch(batchId: string, accountId: string, jobs: readonly SendMessageJob[]): Promise<void>;
  /**
   * Resolves once REDIS_MIN_REPLICAS_ACK replicas hold every write made so far (503 `replication_unconfirmed`
   * otherwise): for a replayed answer, whose writes an earlier request made, and for a batch. No-op with 0.
   */
  confirmReplicated(): Promise<void>;
  /** Whether the message of this id reached the queue (it is there, or the dispatcher already stored it). */
  wasEnqueued(messageId: string): Promise<boolean>;
}

/** Exactly the documented 202 fields, in their documented order (docs/messages.md#sending-a-message). */
type AcceptedJob = Pick<SendMessageJob, 'message_id' | 'channel' | 'recipient' | 'created_at' | 'cost_units' | 'scheduled_until'>;

/** The 202 body as an object (a batch nests one per accepted item, docs/messages.md#batch-sends). */
export function acceptedBody(job: AcceptedJob) {
  return {
    id: job.message_id,
    status: job.scheduled_until ? 'scheduled' : 'queued',
    channel: job.channel,
    recipient: job.recipient,
    created_at: job.created_at,
    estimated_delivery: estimatedDelivery(job.channel),
    cost_units: job.cost_units,
  };
}

export function acceptedResponse(job: AcceptedJob): StoredResponse {
  return { status: 202, body: JSON.stringify(acceptedBody(job)), location: `/v1/messages/${job.message_id}` };
}

/**
 * Places jobs in their lanes, each due job at its account's next turn: one tagging call per (lane, account).
 * A scheduled job takes no turn now (it would push the account's sends of today behind tomorrow's); it
 * runs as soon as it is due (docs/messages.md#fairness-between-accounts).
 */
function append<K, V>(map: Map<K, V[]>, key: K, values: V[]): void {
  const list = map.get(key);
  if (list) list.push(...values);
  else map.set(key, values);
}

async function placeInTurn(fairShare: Pick<FairShare, 'priorities'>, placements: readonly SendJobPlacement[]): Promise<Map<TrafficLane, SendJobPlacement[]>> {
  const groups = new Map<string, SendJobPlacement[]>();
  const byLane = new Map<TrafficLane, SendJobPlacement[]>();
  for (const placement of placements) {
    if (placement.delayMs > 0) {
      append(byLane, laneOf(placement.job), [placement]);
      continue;
    }
    const key = `${laneOf(placement.job)}\n${placement.job.account_id}`;
    append(groups, key, [placement]);
  }
  await Promise.all(
    [...groups.values()].map(async (group) => {
      const lane = laneOf(group[0].job);
      const priorities = await fairShare.priorities(lane, group[0].job.account_id, group.length);
      const placed = group.map((placement, i) => ({ ...placement, priority: priorities[i] }));
      append(byLane, lane, placed);
    }),
  );
  return byLane;
}

export function createMessageAcceptance({
  lanes,
  fairShare,
  accountNumbers,
  guard,
  prices,
  sandboxSender,
  chatGate,
  suppressionGate,
  quietHoursDelay,
  timersQueue,
  messageStored,
  replicaAck = noReplicaAck,
  clock = Date.now,
}: MessageAcceptanceDeps): MessageAcceptance {
  // The delay is counted from now, so a takeover after the gateway died still waits only until scheduled_until.
  const delayOf = (job: SendMessageJob) => (job.scheduled_until ? Math.max(0, Date.parse(job.scheduled_until) - clock()) : 0);

  /** Expiry timers of the scheduled jobs with a TTL, due at created_at + ttl_seconds. */
  async function armExpiries(jobs: readonly SendMessageJob[]): Promise<boolean> {
    if (!timersQueue) return false;
    const timers = jobs
      .filter((job): job is SendMessageJob & { ttl_seconds: number } => job.scheduled_until !== undefined && job.ttl_seconds !== undefined)
      .map((job) => scheduledExpiryJob(job, Date.parse(job.created_at) + job.ttl_seconds * 1000 - clock()));
    if (timers.length > 0) await guard('redis', () => timersQueue.addBulk(timers));
    return timers.length > 0;
  }

  /** Tags every job with its account's turn, then one add per lane (a plain add for a job alone). */
  async function addInTurn(placements: readonly SendJobPlacement[]): Promise<void> {
    const byLane = await placeInTurn(fairShare, placements);
    await Promise.all(
      [...byLane].map(([lane, placed]) => (placed.length === 1 ? enqueueSendMessage(lanes.of(lane), placed[0]) : enqueueSendMessages(lanes.of(lane), placed))),
    );
  }

  // The jobs that concurrent requests enqueue in the same turn of the event loop go to Redis in one `addBulk`
  // (docs/performance/accept.md#cost-per-request-of-one-gateway-process); a job alone goes by a plain add, as
  // addBulk wraps its jobs in MULTI/EXEC. A caller's promise settles once the call carrying its job settled, so a
  // 202 still means "the job is in Redis"; a failed call rejects exactly the callers whose jobs it carried.
  // One replica acknowledgement covers the group's writes, and the Idempotency-Key records made before them.
  const enqueueCoalesced = createBatcher<SendJobPlacement, void>({
    runOne: async (placement) => {
      await addInTurn([placement]);
      await replicaAck();
    },
    runMany: async (placements) => {
      await addInTurn(placements);
      await replicaAck();
      return placements.map(() => undefined);
    },
    flush: 'next-turn',
    maxSize: COALESCED_ENQUEUE_MAX_JOBS,
    onGroupFailure: 'fail-group',
  });

  return {
    async prepare(caller, request, messageId, options) {
      const numbers = await accountNumbers(caller.accountId);
      const resolved = resolveSenders({
        channel: request.channel,
        fallback: request.fallback,
        from: request.from,
        mode: caller.mode,
        numbers,
        sandboxSender,
      });
      const gated = chatGate ? await chatGate(caller.accountId, request, resolved) : resolved;
      const { plan, senders, skipped } =
        suppressionGate && !options?.deferSuppression ? await suppressionGate(caller.accountId, request.recipient, gated) : gated;
      // Priced on the first channel that will really be tried.
      const firstChannel = plan.find((c) => !skipped?.[c]) ?? plan[0];
      const job: SendMessageJob = {
        message_id: messageId,
        account_id: caller.accountId,
        mode: caller.mode,
        channel: request.channel,
        plan,
        senders,
        recipient: request.recipient,
        cost_units: costUnits(firstChannel, renderAsText(request.content, request.template), prices),
        created_at: new Date(clock()).toISOString(),
        traffic_class: options?.trafficClass ?? request.traffic_class ?? 'transactional',
      };
      if (request.content !== undefined) job.content = request.content;
      if (request.template !== undefined) job.template = request.template;
      if (request.callback_url !== undefined) job.callback_url = request.callback_url;
      if (request.ttl_seconds !== undefined) job.ttl_seconds = request.ttl_seconds;
      if (request.fallback_timeout_seconds !== undefined) job.fallback_timeout_seconds = request.fallback_timeout_seconds;
      if (request.metadata !== undefined) job.metadata = request.metadata;
      if (skipped && Object.keys(skipped).length > 0) job.skipped_channels = skipped;
      // send_at first (docs/messages.md#scheduled-sends); quiet hours then count from that moment.
      const now = clock();
      const sendAt = now + sendAtDelayMs(request.send_at, now);
      const quietMs = quietHoursDelay ? await quietHoursDelay(caller.accountId, request, sendAt) : 0;
      if (sendAt + quietMs > now) job.scheduled_until = new Date(sendAt + quietMs).toISOString();
      return job;
    },

    async enqueue(job) {
      await guard('redis', () => enqueueCoalesced({ job, delayMs: delayOf(job) }));
      // After the send job: a timer for a message that never reached the queue would end a message nobody accepted.
      if (await armExpiries([job])) await guard('redis', replicaAck);
    },

    async enqueueBatch(batchId, accountId, jobs) {
      if (jobs.length === 0) return;
      const due = jobs.filter((job) => delayOf(job) === 0);
      const scheduled = jobs.filter((job) => delayOf(job) > 0);
      // A scheduled item keeps a delayed job of its own: it can be canceled, and it takes no turn until it is due.
      await guard('redis', () =>
        Promise.all([
          lanes.addChunks(chunksOf(batchId, accountId, due)),
          scheduled.length > 0 ? addInTurn(scheduled.map((job) => ({ job, delayMs: delayOf(job) }))) : undefined,
        ]),
      );
      await armExpiries(scheduled);
    },

    confirmReplicated: () => guard('redis', replicaAck),

    async wasEnqueued(messageId) {
      if (await guard('redis', () => lanes.findWaiting(messageId))) return true;
      return guard('store', () => messageStored(messageId));
    },
  };
}
