import { Router, type RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { isId, isValidE164, NotFoundError, ValidationError, type FieldError } from '@switchboard/domain';
import { voiceHangupChannel, type PublishEvents } from '@switchboard/queues';
import type { CallRequest } from '@switchboard/schemas';
import { toCreatedCall, type CallRow, type CallsRepository, type CallStatus } from '@switchboard/store';
import type { DependencyGuard } from '../http/dependency-guard';
import { callerOf } from '../http/request-context';
import { readIdempotencyKey } from '../idempotency/idempotency-key';
import { requestFingerprint } from '../idempotency/request-fingerprint';
import { encodeCursor, readPageParams } from '../pagination/page-query';
import { callAlreadyEnded, type createCallAcceptance } from '../voice/call-acceptance';

const CALL_STATUSES: readonly CallStatus[] = ['ringing', 'in-progress', 'completed', 'busy', 'no-answer', 'failed', 'canceled'];

export interface VoiceCallHandlersDeps {
  validate: (body: unknown) => CallRequest;
  accept: ReturnType<typeof createCallAcceptance>;
  calls: Pick<CallsRepository, 'findRow' | 'findForAccount' | 'list' | 'cancelUnclaimed' | 'recording'>;
  publishEvents: PublishEvents;
  redis: Pick<Redis, 'publish'>;
  prefix: string;
  guard: DependencyGuard;
  /** How long a hangup waits for the orchestrator holding the call to end it before answering 202. */
  hangupWaitMs?: number;
  clock?: () => number;
}

/**
 * Why a call that exists has no recording to download (docs/voice.md#recording): only a call that is still live, or
 * one that was answered with `record` and whose recording is being stored, will have one later.
 */
export function noRecordingDetail(row: Pick<CallRow, 'status' | 'record' | 'answered_at'>): string {
  if (row.status === 'ringing' || row.status === 'in-progress') return `The call is ${row.status}: its recording exists once the call has ended.`;
  if (!row.answered_at) return `The call ended ${row.status} without being answered: it has no recording.`;
  if (!row.record) return 'The call was placed without `record`: it has no recording.';
  return 'The call has ended and its recording is still being stored: try again in a moment.';
}

/** `/v1/voice/calls` (docs/voice.md#calls). */
export function createVoiceCallHandlers(deps: VoiceCallHandlersDeps) {
  const { guard, clock = Date.now, hangupWaitMs = 5_000 } = deps;

  const createCall: RequestHandler = async (req, res) => {
    const caller = callerOf(res);
    const key = readIdempotencyKey(req.headers['idempotency-key']);
    const request = deps.validate(req.body);
    const { call } = await deps.accept(caller, request, key ? { key, fingerprint: requestFingerprint(req.body) } : null);
    res.status(201).setHeader('Location', `/v1/voice/calls/${call.id}`);
    res.json(toCreatedCall(call));
  };

  const listCalls: RequestHandler = async (req, res) => {
    const { accountId } = callerOf(res);
    const query = req.query as Record<string, unknown>;
    const errors: FieldError[] = [];
    const page = readPageParams(query, 'call', errors);
    const status = query.status;
    if (status !== undefined && !CALL_STATUSES.includes(status as CallStatus))
      errors.push({ field: 'query:status', message: `must be one of ${CALL_STATUSES.join(', ')}` });
    if (query.to !== undefined && !isValidE164(query.to)) errors.push({ field: 'query:to', message: 'must be an E.164 number' });
    if (query.agent_id !== undefined && !isId('agt', query.agent_id)) errors.push({ field: 'query:agent_id', message: 'must be an agent id' });
    if (errors.length > 0) throw new ValidationError(errors, 'The query string is invalid.');
    const rows = await guard('store', () =>
      deps.calls.list(accountId, {
        status: status as CallStatus | undefined,
        to: query.to as string | undefined,
        agentId: query.agent_id as string | undefined,
        beforeId: page.beforeId,
        limit: page.limit + 1,
      }),
    );
    const data = rows.slice(0, page.limit);
    res.json({ data, next_cursor: rows.length > page.limit ? encodeCursor(data[data.length - 1].call_id) : null });
  };

  const getCall: RequestHandler = async (req, res) => {
    const { accountId } = callerOf(res);
    const id = req.params.id as string;
    if (!isId('call', id)) throw new NotFoundError();
    const call = await guard('store', () => deps.calls.findForAccount(accountId, id));
    if (!call) throw new NotFoundError();
    res.json(call);
  };

  const hangupCall: RequestHandler = async (req, res) => {
    const { accountId } = callerOf(res);
    const id = req.params.id as string;
    if (!isId('call', id)) throw new NotFoundError();
    const row = await guard('store', () => deps.calls.findRow(accountId, id));
    if (!row) throw new NotFoundError();
    if (row.status !== 'ringing' && row.status !== 'in-progress') throw callAlreadyEnded();
    const canceled = await guard('store', () => deps.calls.cancelUnclaimed(accountId, id, new Date(clock())));
    if (canceled) {
      await deps.publishEvents(canceled.events, { call_id: id });
    } else {
      // An orchestrator holds the media session; only that process can send the CANCEL or BYE (docs/voice.md#hangup).
      await guard('redis', () => deps.redis.publish(voiceHangupChannel(deps.prefix), id));
      const deadline = clock() + hangupWaitMs;
      while (clock() < deadline) {
        const now = await guard('store', () => deps.calls.findRow(accountId, id));
        if (now && now.status !== 'ringing' && now.status !== 'in-progress') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const call = await guard('store', () => deps.calls.findForAccount(accountId, id));
    const ended = call && call.status !== 'ringing' && call.status !== 'in-progress';
    res.status(ended ? 200 : 202).json(call);
  };

  const getRecording: RequestHandler = async (req, res) => {
    const { accountId } = callerOf(res);
    const id = req.params.id as string;
    if (!isId('call', id)) throw new NotFoundError();
    const wav = await guard('store', () => deps.calls.recording(accountId, id));
    if (!wav) {
      const row = await guard('store', () => deps.calls.findRow(accountId, id));
      if (!row) throw new NotFoundError();
      throw new NotFoundError(noRecordingDetail(row));
    }
    res.status(200).type('audio/wav').setHeader('Content-Length', String(wav.length));
    res.end(wav);
  };

  return { createCall, listCalls, getCall, hangupCall, getRecording };
}

export interface VoiceCallsRouterDeps {
  authenticateWrite: RequestHandler[];
  authenticateRead: RequestHandler[];
  body: RequestHandler[];
  handlers: ReturnType<typeof createVoiceCallHandlers>;
}

export function voiceCallsRouter({ authenticateWrite, authenticateRead, body, handlers }: VoiceCallsRouterDeps): Router {
  const router = Router();
  router.post('/v1/voice/calls', ...authenticateWrite, ...body, handlers.createCall);
  router.get('/v1/voice/calls', ...authenticateRead, handlers.listCalls);
  router.get('/v1/voice/calls/:id', ...authenticateRead, handlers.getCall);
  router.post('/v1/voice/calls/:id/hangup', ...authenticateWrite, handlers.hangupCall);
  router.get('/v1/voice/calls/:id/recording', ...authenticateRead, handlers.getRecording);
  return router;
}
