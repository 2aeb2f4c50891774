import type { RequestHandler, Response } from 'express';
import { createConcurrencyLimit, type ConcurrencyLimit } from '@switchboard/runtime';
import { ApiError, ConflictError, newId, UnprocessableError } from '@switchboard/domain';
import { repointBatchItemError, type BatchRequest } from '@switchboard/schemas';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf, requestIdOf } from '../http/request-context';
import { readIdempotencyKey } from '../idempotency/idempotency-key';
import type { IdempotencyStore, StoredResponse } from '../idempotency/idempotency.store';
import { requestFingerprint } from '../idempotency/request-fingerprint';
import type { MessageAcceptance } from '../messages/message-acceptance';
import { batchAnswerJson, type Outcome } from './batch-answer';
import type { BatchSummary, BatchSummaryStore } from './batch-summary.store';

/** Keys are scoped to (account, route) (docs/api.md#idempotency-key); a batch has its own route. */
const IDEMPOTENCY_ROUTE = 'post-messages-batch';

export interface SendBatchDeps {
  validateBatch: (body: unknown) => BatchRequest;
  acceptance: MessageAcceptance;
  idempotency: IdempotencyStore;
  summaries: BatchSummaryStore;
  guard: DependencyGuard;
  newMessageId: () => string;
  clock?: () => number;
  /** Batches checked and priced at once; the rest wait (docs/performance/batch.md#batch-accept-benchbatchmjs). @defaultValue 1 */
  concurrentBatches?: number;
  /**
   * Prepared batches whose Redis calls (key reservation, jobs, summary) run at once; the rest wait. Separate
   * from the first limit so the next batch is prepared while Redis stores the jobs of the one before
   * (docs/performance/batch.md#batch-accept-benchbatchmjs). @defaultValue 2
   */
  batchesInRedis?: number;
  /** Both limits, built once for the apps of every queue partition (app.ts), instead of the two numbers above. */
  admission?: BatchAdmission;
}

/** The two admission limits of batch sends (see SendBatchDeps). */
export interface BatchAdmission {
  preparing: ConcurrencyLimit;
  storing: ConcurrencyLimit;
}

export function createBatchAdmission(concurrentBatches = 1, batchesInRedis = 2): BatchAdmission {
  return { preparing: createConcurrencyLimit(concurrentBatches), storing: createConcurrencyLimit(batchesInRedis) };
}

const inUse = () => new ConflictError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed.', { 'Retry-After': '1' });
const reused = () =>
  new UnprocessableError('idempotency_key_reused', 'This Idempotency-Key was used with a different request body.', [
    { field: 'header:Idempotency-Key', message: 'was used with a different body' },
  ]);

function send(res: Response, response: StoredResponse, replayed: boolean): void {
  res.statusCode = response.status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Location', response.location);
  if (replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.end(response.body);
}

/** The 202 answer, stored with an Idempotency-Key and replayed byte for byte. */
function batchResponse(batchId: string, createdAt: string, outcomes: Outcome[], requestId: string): StoredResponse {
  return { status: 202, body: batchAnswerJson(batchId, createdAt, outcomes, requestId), location: `/v1/batches/${batchId}` };
}

function summaryOf(batchId: string, accountId: string, createdAt: string, outcomes: Outcome[]): BatchSummary {
  const jobs = outcomes.flatMap((o) => ('job' in o ? [o.job] : []));
  return {
    id: batchId,
    account_id: accountId,
    created_at: createdAt,
    total: outcomes.length,
    rejected: outcomes.length - jobs.length,
    messages: jobs.map((j) => [j.message_id, j.scheduled_until ?? null]),
  };
}

/**
 * A retry that takes over an abandoned reservation enqueues under the ids the stored answer promised,
 * item by item, so that no message is accepted twice (the same body validates the same way).
 */
function adoptStoredIds(outcomes: Outcome[], stored: StoredResponse): Outcome[] {
  const results = (JSON.parse(stored.body) as { results: Array<{ id?: string; created_at?: string; cost_units?: number }> }).results;
  return outcomes.map((o, i) => {
    const answer = results[i];
    if (!('job' in o) || !answer?.id) return o;
    return { job: { ...o.job, message_id: answer.id, created_at: answer.created_at ?? o.job.created_at, cost_units: answer.cost_units ?? o.job.cost_units } };
  });
}

/**
 * `POST /v1/messages/batch` → 202 (docs/messages.md#batch-sends). Items are checked and priced one by
 * one (their Redis lookups coalesced), then every accepted job goes to Redis in one script call; with an
 * Idempotency-Key the key is reserved with the whole answer first, in one more round trip. The summary
 * written last marks the batch as enqueued, which a replay checks before answering.
 */
export function createSendBatchHandler({
  validateBatch,
  acceptance,
  idempotency,
  summaries,
  guard,
  newMessageId,
  clock = Date.now,
  concurrentBatches = 1,
  batchesInRedis = 2,
  admission,
}: SendBatchDeps): RequestHandler {
  const { preparing, storing } = admission ?? createBatchAdmission(concurrentBatches, batchesInRedis);
  async function prepareAll(res: Response, batch: BatchRequest, body: unknown): Promise<Outcome[]> {
    const caller = callerOf(res);
    return Promise.all(
      batch.items.map(async (item, index): Promise<Outcome> => {
        if ('error' in item) return item;
        try {
          // Every batch item travels in the bulk lane (docs/messages.md#traffic-lanes).
          return { job: await acceptance.prepare(caller, item.request, newMessageId(), { trafficClass: 'bulk' }) };
        } catch (error) {
          // A 4xx refuses this item only; a 5xx (store or Redis down) refuses the whole batch, with nothing enqueued.
          if (error instanceof ApiError && error.status < 500) return { error: repointBatchItemError(error, index, body) };
          throw error;
        }
      }),
    );
  }

  async function enqueue(batchId: string, accountId: string, createdAt: string, outcomes: Outcome[]): Promise<void> {
    await acceptance.enqueueBatch(
      batchId,
      accountId,
      outcomes.flatMap((o) => ('job' in o ? [o.job] : [])),
    );
    await guard('redis', () => summaries.save(summaryOf(batchId, accountId, createdAt, outcomes)));
    // One acknowledgement for the reservation, the jobs and the summary, which a replay looks for.
    await acceptance.confirmReplicated();
  }

  interface Prepared {
    body: unknown;
    outcomes: Outcome[];
    batchId: string;
    createdAt: string;
    response: StoredResponse;
  }

  /** The CPU-bound part: check, price and answer every item; nothing reaches Redis yet but the opt-out MGET. */
  async function prepare(body: unknown, res: Response): Promise<Prepared> {
    const batch = validateBatch(body);
    const outcomes = await prepareAll(res, batch, body);
    const batchId = newId('bat');
    const createdAt = new Date(clock()).toISOString();
    return { body, outcomes, batchId, createdAt, response: batchResponse(batchId, createdAt, outcomes, requestIdOf(res)) };
  }

  return async (req, res) => {
    const key = readIdempotencyKey(req.headers['idempotency-key']);
    // The Redis phase takes its own slot after the preparing slot is free: the next batch is checked and
    // priced while Redis runs this one's jobs, and neither limit waits on the other.
    const prepared = await preparing(() => prepare(req.body as unknown, res));
    await storing(() => accept(prepared, key, res));
  };

  async function accept({ body, outcomes, batchId, createdAt, response }: Prepared, key: string | null, res: Response): Promise<void> {
    const caller = callerOf(res);
    if (key === null) {
      await enqueue(batchId, caller.accountId, createdAt, outcomes);
      return send(res, response, false);
    }
    const scope = { accountId: caller.accountId, route: IDEMPOTENCY_ROUTE, key };
    const reservation = await guard('redis', () => idempotency.reserve(scope, requestFingerprint(body), batchId, response));
    if (reservation.outcome === 'reserved') {
      await enqueue(batchId, caller.accountId, createdAt, outcomes);
      return send(res, response, false);
    }
    if (reservation.outcome === 'reused') throw reused();
    if (reservation.outcome === 'in_use') throw inUse();
    const { record } = reservation;
    if (await guard('redis', () => summaries.exists(record.message_id))) {
      await acceptance.confirmReplicated();
      return send(res, record.response, true);
    }
    if (!reservation.leaseExpired || !(await guard('redis', () => reservation.takeOver()))) throw inUse();
    const stored = JSON.parse(record.response.body) as { created_at: string };
    await enqueue(record.message_id, caller.accountId, stored.created_at, adoptStoredIds(outcomes, record.response));
    send(res, record.response, false);
  }
}
