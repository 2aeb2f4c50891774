import { toIso } from '@switchboard/domain';

export type CallStatus = 'ringing' | 'in-progress' | 'completed' | 'busy' | 'no-answer' | 'failed' | 'canceled';
export const LIVE_CALL_STATUSES: readonly CallStatus[] = ['ringing', 'in-progress'];

export interface CallRow {
  id: string;
  account_id: string;
  mode: 'live' | 'test';
  status: CallStatus;
  to: string;
  from: string;
  agent_id: string | null;
  record: boolean;
  callback_url: string | null;
  ring_timeout_seconds: number;
  max_duration_seconds: number;
  metadata: Record<string, string> | null;
  retry: { attempts: number; delay_seconds: number; on: Array<'busy' | 'no-answer'> } | null;
  attempt: number;
  machine_detection: 'detect' | 'hangup' | null;
  answered_by: 'human' | 'machine' | 'unknown' | null;
  idempotency_key: string | null;
  request_fingerprint: string | null;
  end_reason: string | null;
  sequence: number;
  orchestrator_id: string | null;
  heartbeat_at: Date | null;
  created_at: Date;
  answered_at: Date | null;
  ended_at: Date | null;
}

export interface TranscriptTurn {
  speaker: 'agent' | 'callee';
  text: string;
  at: string;
  /** Present on an agent turn the callee cut short by speaking (docs/voice-agents.md#full-duplex-listening). */
  interrupted?: true;
}

/** `GET /v1/voice/calls/{id}` (docs/voice.md#call-resource). */
export interface CallResource {
  call_id: string;
  status: CallStatus;
  to: string;
  from: string;
  agent_id: string | null;
  created_at: string;
  answered_at: string | null;
  ended_at: string | null;
  duration_seconds: number | null;
  end_reason: string | null;
  /** Set when the call asked for `machine_detection`. */
  answered_by: 'human' | 'machine' | 'unknown' | null;
  /** 1, then 2… when a busy or unanswered call was redialled (docs/voice.md#retries). */
  attempt: number;
  recording: { url: string; duration_seconds: number } | null;
  transcript: TranscriptTurn[];
  /** `{}` when the call was placed without metadata, as on a message (docs/conventions.md). */
  metadata: Record<string, string>;
}

/** The answer to `POST /v1/voice/calls`: the spec's fields only. */
export function toCreatedCall(row: CallRow) {
  return { call_id: row.id, status: row.status, to: row.to, from: row.from, agent_id: row.agent_id, created_at: toIso(row.created_at) as string };
}

/** Seconds from answer to end; null until both are known. */
function durationSeconds(row: CallRow): number | null {
  if (!row.answered_at || !row.ended_at) return null;
  return Math.max(0, Math.round((row.ended_at.getTime() - row.answered_at.getTime()) / 1000));
}

export function toCallResource(row: CallRow, transcript: TranscriptTurn[], recordingSeconds: number | null): CallResource {
  return {
    ...toCreatedCall(row),
    answered_at: toIso(row.answered_at),
    ended_at: toIso(row.ended_at),
    duration_seconds: durationSeconds(row),
    end_reason: row.end_reason,
    answered_by: row.answered_by,
    attempt: row.attempt,
    recording: recordingSeconds === null ? null : { url: `/v1/voice/calls/${row.id}/recording`, duration_seconds: recordingSeconds },
    transcript,
    metadata: row.metadata ?? {},
  };
}
