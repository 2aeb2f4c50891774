import { EventEmitter } from 'node:events';
import type { SipRequest, SipResponse } from 'sip';
import * as digest from 'sip/digest';
import type { RtpSession } from '../media/rtp-session';
import { parseSdpAnswer } from '../media/sdp.codec';
import type { CallEnd, CallLeg, CallLegState, TransferResult } from '../telephony.types';
import { mapCallEnd, type CallEndCause, type LocalCancelReason } from './sip-outcome.mapper';
import { buildAck, buildBye, buildCancel, buildRefer, dialogFromAnswer, nextInvite, type UacDialog } from './sip-request.builder';
import type { SipUserAgent } from './sip-user-agent';

export interface SipCallLegDeps {
  ua: SipUserAgent;
  /** Opened before the INVITE was built: its port is in the offer. */
  rtp: RtpSession;
  invite: SipRequest;
  ringTimeoutMs: number;
  credentials?: { user: string; password: string };
  /** `host:port` of the trunk: a transfer's Refer-To is `sip:<target>@` this. */
  referHost: string;
}

/** A leg whose media thread died ends as one cut by its orchestrator going away (docs/voice-telephony.md#sip-outcomes). */
export const MEDIA_LOST_END_REASON = 'orchestrator_lost';

/** How long a transfer waits for the REFER's answer and the NOTIFY reporting the new call, before deciding. */
const TRANSFER_WAIT_MS = 4_000;

/** The leg plus the hooks its trunk uses: `start` sends the INVITE, the RTP listener feeds `media`. */
export interface SipCallLeg extends CallLeg {
  start(): void;
  /** Ends the leg without waiting for the peer any longer (trunk shutdown). */
  abandon(endReason: string): void;
  readonly media: {
    onFirstPacket(): void;
    onAudioFrame(frame: Buffer): void;
    onDigit(digit: string): void;
    onPlaybackDrained(): void;
    onMediaLost(reason: string): void;
  };
}

/**
 * One outbound INVITE and the dialog it creates (RFC 3261 §13, §15), as a CallLeg. sip.js runs the INVITE client
 * transaction and ACKs non-2xx finals; this leg ACKs each 2xx itself, answers one 401/407 with digest credentials,
 * sends CANCEL only once a provisional response has arrived (§9.1), and ends exactly once.
 */
export function createSipCallLeg(deps: SipCallLegDeps): SipCallLeg {
  const { ua, rtp } = deps;
  const emitter = new EventEmitter();
  const callId = deps.invite.headers['call-id'] as string;
  let invite = deps.invite;
  let state: CallLegState = 'calling';
  let provisionalSeen = false;
  let cancelSent = false;
  let authAnswered = false;
  let localCancel: { reason: LocalCancelReason; endReason: string } | undefined;
  let dialog: UacDialog | undefined;
  let localSeq = (invite.headers.cseq as { seq: number }).seq;
  let mediaReady = false;
  let ringTimer: NodeJS.Timeout | undefined;
  let resolveEnded!: (end: CallEnd) => void;
  const ended = new Promise<CallEnd>((resolve) => (resolveEnded = resolve));

  const finish = (cause: CallEndCause): void => {
    if (state === 'ended') return;
    state = 'ended';
    clearTimeout(ringTimer);
    rtp.close();
    ua.forget(callId);
    const end = mapCallEnd(cause);
    emitter.emit('ended', end);
    resolveEnded(end);
  };

  const sendBye = (onDone: () => void): void => {
    if (!dialog) return onDone();
    ua.request(buildBye(dialog, ++localSeq), (response) => {
      if (response.status >= 200) onDone();
    });
  };

  const sendCancelIfPossible = (): void => {
    if (!localCancel || cancelSent || !provisionalSeen || state === 'ended' || dialog) return;
    cancelSent = true;
    ua.request(buildCancel(invite), () => undefined);
  };

  const requestCancel = (reason: LocalCancelReason, endReason: string): void => {
    if (localCancel) return;
    localCancel = { reason, endReason };
    sendCancelIfPossible();
  };

  const onAnswer = (response: SipResponse): void => {
    const inviteSeq = (invite.headers.cseq as { seq: number }).seq;
    if (dialog) return ua.request(buildAck(dialog, inviteSeq)); // a retransmitted 2xx: our ACK was lost
    dialog = dialogFromAnswer(invite, response);
    ua.request(buildAck(dialog, inviteSeq));
    clearTimeout(ringTimer);
    const status = response.status;
    if (state === 'ended') return sendBye(() => undefined); // answered after we gave up on it
    if (localCancel) return sendBye(() => finish({ kind: 'final_response', status, localCancel, heardFromPeer: true }));
    const answer = parseSdpAnswer(response.content ?? '');
    if (!answer?.acceptsPcmu) return sendBye(() => finish({ kind: 'unusable_answer' }));
    state = 'answered';
    emitter.emit('answered');
    rtp.start(answer);
  };

  const onFinalFailure = (response: SipResponse): void => {
    const challenged = response.status === 401 || response.status === 407;
    if (challenged && deps.credentials && !authAnswered && !localCancel && state !== 'ended') {
      authAnswered = true;
      invite = nextInvite(invite);
      localSeq = (invite.headers.cseq as { seq: number }).seq;
      digest.signRequest({}, invite, response, deps.credentials);
      provisionalSeen = false;
      sendInvite();
      return;
    }
    finish({ kind: 'final_response', status: response.status, localCancel, heardFromPeer: ua.heardFrom(callId) });
  };

  const sendInvite = (): void => {
    const sent = invite;
    ua.request(sent, (response) => {
      if (sent !== invite && response.status < 200) return; // provisional from the challenged INVITE
      if (response.status < 200) {
        provisionalSeen = true;
        if (response.status >= 180 && state !== 'ended' && !dialog) {
          if (state === 'calling') state = 'ringing';
          emitter.emit('ringing');
        }
        sendCancelIfPossible();
      } else if (response.status < 300) onAnswer(response);
      else if (sent === invite) onFinalFailure(response);
    });
  };

  // The NOTIFY that reports how the REFER's new call went (RFC 3515 §2.4.5), for the transfer waiting for it.
  let onReferNotify: ((status: number) => void) | undefined;

  const transfer = (target: string): Promise<TransferResult> =>
    new Promise((resolve) => {
      const referTo = `sip:${target}@${deps.referHost}`;
      if (state !== 'answered' || !dialog) return resolve({ accepted: false, referStatus: 0, referTo });
      let referStatus = 0;
      let settled = false;
      const settle = (notifyStatus?: number) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        onReferNotify = undefined;
        // A NOTIFY may overtake the 202 on UDP; a final sipfrag status then decides alone.
        const referOk = referStatus >= 200 && referStatus < 300;
        const notifyOk = notifyStatus === undefined ? referOk : notifyStatus >= 200 && notifyStatus < 300 && (referOk || referStatus === 0);
        resolve({ accepted: notifyOk, referStatus, referTo, ...(notifyStatus === undefined ? {} : { notifyStatus }) });
      };
      // A peer that accepts without ever sending a NOTIFY (allowed with `Refer-Sub: false`) is taken at its 202.
      const timer = setTimeout(() => settle(), TRANSFER_WAIT_MS);
      onReferNotify = (status) => status >= 200 && settle(status);
      void ended.then(() => settle());
      const contactUri = String((invite.headers.contact as Array<{ uri: string }>)[0].uri);
      ua.request(buildRefer(dialog, ++localSeq, referTo, contactUri), (response) => {
        if (response.status < 200) return;
        referStatus = response.status;
        if (response.status >= 300) settle();
      });
    });

  const onDialogRequest = (request: SipRequest): void => {
    switch (request.method) {
      case 'NOTIFY': {
        ua.respond(request, 200, 'OK');
        const sipfrag = /^SIP\/2\.0 (\d{3})/.exec(request.content ?? '');
        if (sipfrag) onReferNotify?.(Number(sipfrag[1]));
        return;
      }
      case 'BYE':
        ua.respond(request, 200, 'OK');
        return finish({ kind: 'remote_bye' });
      case 'ACK':
        return;
      case 'OPTIONS':
        return ua.respond(request, 200, 'OK');
      case 'INVITE':
        // A re-INVITE (session refresh): keep the session as it is by answering with our original offer.
        return ua.respond(request, 200, 'OK', {
          headers: { contact: invite.headers.contact, 'content-type': 'application/sdp' },
          content: deps.invite.content,
        });
      default:
        return ua.respond(request, 501, 'Not Implemented');
    }
  };

  let byeSent = false;
  const hangup = (reason = 'hangup_api'): Promise<CallEnd> => {
    if (state === 'answered' && !byeSent) {
      byeSent = true;
      rtp.close();
      sendBye(() => finish({ kind: 'local_bye', endReason: reason }));
    } else if (state === 'calling' || state === 'ringing') requestCancel('hangup', reason);
    return ended;
  };

  const leg: SipCallLeg = {
    id: callId,
    get state() {
      return state;
    },
    on(event, listener) {
      emitter.on(event, listener as (...args: unknown[]) => void);
      return leg;
    },
    once(event, listener) {
      emitter.once(event, listener as (...args: unknown[]) => void);
      return leg;
    },
    off(event, listener) {
      emitter.off(event, listener as (...args: unknown[]) => void);
      return leg;
    },
    ended,
    hangup,
    cancel: hangup,
    play: (mulaw) => rtp.outbound.enqueue(mulaw),
    clearPlayback: () => rtp.outbound.clear(),
    get queuedFrames() {
      return rtp.outbound.queuedFrames;
    },
    sendDtmf: (digits) => rtp.outbound.queueDigits(digits),
    transfer,
    get mediaStats() {
      return rtp.stats;
    },
    abandon(endReason) {
      finish({ kind: 'abandoned', answered: dialog !== undefined, endReason });
    },
    start() {
      ua.register(callId, onDialogRequest);
      ringTimer = setTimeout(() => requestCancel('ring_timeout', 'no_answer'), deps.ringTimeoutMs);
      sendInvite();
    },
    media: {
      onFirstPacket() {
        if (state !== 'answered' || mediaReady) return;
        mediaReady = true;
        rtp.outbound.openPlayback();
        emitter.emit('media-ready');
      },
      onAudioFrame: (frame) => state === 'answered' && emitter.emit('audio', frame),
      onDigit: (digit) => state === 'answered' && emitter.emit('dtmf', digit),
      onPlaybackDrained: () => emitter.emit('playback-drained'),
      // Without media the call cannot go on (docs/voice-telephony.md#media-thread): hang up (BYE, or CANCEL while ringing) as a
      // call cut by its orchestrator is, rather than leave the callee in silence until the silence timeout.
      onMediaLost: () => void hangup(MEDIA_LOST_END_REASON),
    },
  };
  return leg;
}
