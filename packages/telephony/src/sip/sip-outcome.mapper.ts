import type { CallEnd } from '../telephony.types';

/** Why we sent a CANCEL, if we did: it decides what the INVITE's final 487 means. */
export type LocalCancelReason = 'ring_timeout' | 'hangup';

/** What ended the leg, as seen by the SIP layer. */
export type CallEndCause =
  /** The INVITE got a final non-2xx response, or we ended a 2xx we had cancelled with ACK and BYE. */
  | { kind: 'final_response'; status: number; localCancel?: { reason: LocalCancelReason; endReason: string }; heardFromPeer: boolean }
  | { kind: 'remote_bye' }
  | { kind: 'local_bye'; endReason: string }
  /** The peer answered without an audio stream we can use (no PCMU on the m= line). */
  | { kind: 'unusable_answer' }
  /** The trunk shut down before the peer confirmed our BYE or CANCEL. */
  | { kind: 'abandoned'; answered: boolean; endReason: string };

/** Final responses with a meaning of their own; any other status of 300 or more is `failed` / `sip_<code>`. */
export const FINAL_STATUS_OUTCOMES: Readonly<Record<number, CallEnd>> = {
  486: { outcome: 'busy', endReason: 'busy' },
  600: { outcome: 'busy', endReason: 'busy' },
  603: { outcome: 'busy', endReason: 'declined' },
  408: { outcome: 'no-answer', endReason: 'no_answer' },
  480: { outcome: 'no-answer', endReason: 'no_answer' },
};

/**
 * The outcome of a call leg (see docs/voice-telephony.md, "SIP outcomes"). Order matters:
 * - our own CANCEL wins over the final status it provokes (normally 487): after a hangup the leg is `canceled`,
 *   after the ring timeout it is `no-answer`;
 * - a final status the stack made up because the peer never answered at all (timer B 408, 503 on a transport
 *   error) is a failure to reach the trunk, not a callee's no-answer;
 * - then the table above, then `failed` with `sip_<code>`.
 */
export function mapCallEnd(cause: CallEndCause): CallEnd {
  switch (cause.kind) {
    case 'remote_bye':
      return { outcome: 'completed', endReason: 'callee_hangup' };
    case 'local_bye':
      return { outcome: 'completed', endReason: cause.endReason };
    case 'unusable_answer':
      return { outcome: 'failed', endReason: 'sip_488', sipStatus: 488 };
    case 'abandoned':
      return { outcome: cause.answered ? 'completed' : 'canceled', endReason: cause.endReason };
    case 'final_response': {
      const sipStatus = cause.status;
      if (cause.localCancel?.reason === 'hangup') return { outcome: 'canceled', endReason: cause.localCancel.endReason, sipStatus };
      if (cause.localCancel?.reason === 'ring_timeout') return { outcome: 'no-answer', endReason: 'no_answer', sipStatus };
      const known = cause.heardFromPeer ? FINAL_STATUS_OUTCOMES[sipStatus] : undefined;
      return known ? { ...known, sipStatus } : { outcome: 'failed', endReason: `sip_${sipStatus}`, sipStatus };
    }
  }
}
