/** A call as GET /v1/voice/calls/{id} answers it (docs/voice.md#call-resource). */
export interface Call {
  call_id: string;
  status: string;
  to: string;
  from: string;
  agent_id: string | null;
  created_at: string;
  answered_at: string | null;
  ended_at: string | null;
  duration_seconds: number | null;
  end_reason: string | null;
  answered_by?: string | null;
  recording: { url: string; duration_seconds: number } | null;
  /** `interrupted`: an agent turn the callee cut short by speaking (docs/voice-agents.md#full-duplex-listening). */
  transcript: Array<{ speaker: 'agent' | 'callee'; text: string; at: string; interrupted?: boolean }>;
}

export const LIVE_STATUSES = new Set(['ringing', 'in-progress']);
