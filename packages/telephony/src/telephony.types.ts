// The telephony adapter's interface: what a voice orchestrator needs from a call leg, whatever carries it
// (see docs/voice-telephony.md, "Telephony layer"). The SIP trunk in ./sip is one implementation.

/** How a leg ended. `completed` means it was answered; the others end from ringing. */
export type CallOutcome = 'completed' | 'busy' | 'no-answer' | 'canceled' | 'failed';

export interface CallEnd {
  outcome: CallOutcome;
  /**
   * `callee_hangup`, the reason given to `hangup()` (default `hangup_api`), `busy`, `declined`, `no_answer`,
   * or `sip_<code>` for any other final SIP status.
   */
  endReason: string;
  /** The INVITE's final SIP status, when the leg ended before being answered. */
  sipStatus?: number;
}

export type CallLegState = 'calling' | 'ringing' | 'answered' | 'ended';

export interface CallLegEvents {
  /** The callee's phone rings (SIP 180 or 183); may come more than once. */
  ringing: [];
  /** The callee answered and we acknowledged (200 + ACK). Audio may not flow yet. */
  answered: [];
  /**
   * The first RTP packet from the callee arrived after the answer: from now on what is played can be heard.
   * Audio queued with `play()` before this waits for it.
   */
  'media-ready': [];
  /** Exactly once. */
  ended: [CallEnd];
  /** One 20 ms frame (160 bytes of 8 kHz G.711 μ-law) of the callee's audio. */
  audio: [Buffer];
  /** A DTMF digit from the callee (RFC 4733): `0-9`, `*`, `#` or `A-D`. */
  dtmf: [string];
  /** The playback queue ran empty after playing something. */
  'playback-drained': [];
}

export interface MediaStats {
  /** 20 ms ticks sent to the callee, audio or silence or DTMF. */
  framesSent: number;
  /** Ticks sent more than 20 ms after their due time. */
  framesLate: number;
  /** Whole milliseconds after its due time → ticks sent that late. */
  latenessMs: Record<number, number>;
  packetsReceived: number;
  packetsDropped: number;
}

export interface CallLeg {
  /** The SIP Call-ID: unique per leg, useful in logs. */
  readonly id: string;
  readonly state: CallLegState;
  on<E extends keyof CallLegEvents>(event: E, listener: (...args: CallLegEvents[E]) => void): this;
  once<E extends keyof CallLegEvents>(event: E, listener: (...args: CallLegEvents[E]) => void): this;
  off<E extends keyof CallLegEvents>(event: E, listener: (...args: CallLegEvents[E]) => void): this;
  /** Resolves with the outcome when the leg ends, however it ends. */
  readonly ended: Promise<CallEnd>;
  /**
   * Ends the leg: CANCEL while ringing (outcome `canceled`), BYE once answered (outcome `completed`). The reason is
   * reported as `endReason`. Resolves when the peer confirmed or gave up; a no-op once ended.
   * @defaultValue reason `hangup_api`
   */
  hangup(reason?: string): Promise<CallEnd>;
  /** `hangup()` for a leg that is still ringing; once answered it hangs up too. */
  cancel(reason?: string): Promise<CallEnd>;
  /** Queues 8 kHz μ-law audio; it is sent in 20 ms frames, paced, after `media-ready`. */
  play(mulaw: Buffer): void;
  /** Drops the audio not yet sent (barge-in). Returns the number of 20 ms frames dropped. */
  clearPlayback(): number;
  /** Number of 20 ms frames waiting to be sent. */
  readonly queuedFrames: number;
  /** Sends digits as RFC 4733 events. Throws RangeError for a character that is not a DTMF digit. */
  sendDtmf(digits: string): void;
  readonly mediaStats: MediaStats;
  /**
   * Asks the callee's side to call `target` instead (a blind transfer: SIP REFER, RFC 3515). Resolves once the
   * peer accepted or refused; the leg stays up, the caller hangs up after an accepted transfer.
   */
  transfer(target: string): Promise<TransferResult>;
}

/** `accepted`: the REFER got a 2xx and no NOTIFY reported the new call failing (docs/voice-agents.md#transfer). */
export interface TransferResult {
  accepted: boolean;
  /** The REFER's final status; 0 when none came. */
  referStatus: number;
  /** The status line of the NOTIFY's sipfrag body, when the peer sent one in time. */
  notifyStatus?: number;
  referTo: string;
}

export interface OriginateRequest {
  /** The number or user dialled (the user part of the request URI), e.g. `+15550100`. */
  to: string;
  /** Caller id for this leg; defaults to the trunk's. */
  from?: string;
  /** CANCEL the INVITE if nobody answers within this time; the leg then ends `no-answer`. @defaultValue 30000 */
  ringTimeoutMs?: number;
  /**
   * Extension headers for the INVITE, lower-case `x-` names; each value must already be a safe single-line token
   * (the caller checks it: see packages/telephony/src/sip/sim-caller-voice.ts for the one in use).
   */
  headers?: Record<`x-${string}`, string>;
}

export interface TelephonyTrunk {
  /** Sends the INVITE and returns the leg at once; progress arrives as events. */
  originate(request: OriginateRequest): Promise<CallLeg>;
  /**
   * Hangs up every live leg with `endReason` and releases the sockets. The default names why a trunk closes under
   * live calls: the process carrying them is going away (docs/voice.md#shutdown).
   * @defaultValue `orchestrator_lost`
   */
  close(endReason?: string): Promise<void>;
}
