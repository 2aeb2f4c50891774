import { EventEmitter } from 'node:events';
import { randomInt } from 'node:crypto';
import * as sip from 'sip';
import type { NameAddr, SipRequest } from 'sip';
import { openRtpSession, type RtpSession } from '../media/rtp-session';
import { buildSdpOffer, parseSdpAnswer } from '../media/sdp.codec';
import { randomToken } from './sip-request.builder';
import { probeUdpPort } from './udp-port.probe';

/**
 * A SIP user agent server on UDP that answers calls (RFC 3261 §13.3): what the carrier simulator's callees and
 * tests use to stand in for a phone. The offer's PCMU and telephone-event are accepted as offered; the answer's
 * SDP has the same shape as our offer.
 */
export interface IncomingCall {
  /** The user part of the request URI: the number dialled. */
  readonly to: string;
  readonly from: string;
  /** An INVITE header by lower-case name, when it has a single value. */
  header(name: string): string | undefined;
  ring(): void;
  reject(status: number, reason: string): void;
  answer(): Promise<CalleeLeg>;
  /** Resolves when the caller CANCELs before the answer. */
  readonly canceled: Promise<void>;
}

export interface CalleeLegEvents {
  audio: [Buffer];
  dtmf: [string];
  'playback-drained': [];
  ended: ['caller_hangup' | 'callee_hangup'];
  /** The caller asked this phone to call the Refer-To URI instead (SIP REFER); already answered 202 + NOTIFY 200. */
  refer: [string];
}

export interface CalleeLeg {
  play(mulaw: Buffer): void;
  sendDtmf(digits: string): void;
  readonly queuedFrames: number;
  on<E extends keyof CalleeLegEvents>(event: E, listener: (...args: CalleeLegEvents[E]) => void): this;
  /** Sends BYE. */
  hangup(): void;
  readonly ended: Promise<'caller_hangup' | 'callee_hangup'>;
}

export interface SipCalleeServer {
  readonly port: number;
  close(): void;
}

/** `port` 0 picks a free one; `port` on the result says which. */
export async function createSipCalleeServer(opts: { bindAddress: string; port: number; onInvite: (call: IncomingCall) => void }): Promise<SipCalleeServer> {
  const dialogs = new Map<string, { onRequest: (request: SipRequest) => void }>();
  const pendingInvites = new Map<string, { invite: SipRequest; cancel: () => void }>();
  let stack!: sip.SipStack;
  const respond = (request: SipRequest, status: number, reason: string, extra: Partial<sip.SipResponse> = {}) => {
    const response = sip.makeResponse(request, status, reason);
    if (extra.headers) Object.assign(response.headers, extra.headers);
    if (extra.content !== undefined) response.content = extra.content;
    stack.send(response);
  };
  const userOf = (uri: unknown) => sip.parseUri(uri as string)?.user ?? '';

  const onInvite = (invite: SipRequest) => {
    const callId = invite.headers['call-id'] as string;
    const localTag = randomToken();
    const to: NameAddr = { ...(invite.headers.to as NameAddr), params: { ...(invite.headers.to as NameAddr).params, tag: localTag } };
    const contact = [{ uri: `sip:callee@${opts.bindAddress}:${port}`, params: {} }];
    let finalSent = false;
    let resolveCanceled!: () => void;
    const canceled = new Promise<void>((resolve) => (resolveCanceled = resolve));
    pendingInvites.set(callId, {
      invite,
      cancel: () => {
        if (finalSent) return;
        finalSent = true;
        respond(invite, 487, 'Request Terminated', { headers: { to } });
        pendingInvites.delete(callId);
        resolveCanceled();
      },
    });
    const call: IncomingCall = {
      to: userOf(invite.uri),
      from: userOf((invite.headers.from as NameAddr).uri),
      header: (name) => {
        const value = invite.headers[name];
        return typeof value === 'string' ? value : undefined;
      },
      canceled,
      ring: () => !finalSent && respond(invite, 180, 'Ringing', { headers: { to, contact } }),
      reject: (status, reason) => {
        if (finalSent) return;
        finalSent = true;
        pendingInvites.delete(callId);
        respond(invite, status, reason, { headers: { to } });
      },
      async answer() {
        const offer = parseSdpAnswer(invite.content ?? '');
        if (!offer || finalSent) throw new Error('cannot answer: no usable offer, or the call already ended');
        const emitter = new EventEmitter();
        let rtp: RtpSession | undefined;
        let ended = false;
        let resolveEnded!: (how: 'caller_hangup' | 'callee_hangup') => void;
        const endedPromise = new Promise<'caller_hangup' | 'callee_hangup'>((resolve) => (resolveEnded = resolve));
        const finish = (how: 'caller_hangup' | 'callee_hangup') => {
          if (ended) return;
          ended = true;
          rtp?.close();
          dialogs.delete(callId);
          emitter.emit('ended', how);
          resolveEnded(how);
        };
        rtp = await openRtpSession(opts.bindAddress, {
          onFirstPacket: () => undefined,
          onAudioFrame: (frame) => emitter.emit('audio', frame),
          onDigit: (digit) => emitter.emit('dtmf', digit),
          onPlaybackDrained: () => emitter.emit('playback-drained'),
        });
        finalSent = true;
        pendingInvites.delete(callId);
        const remoteTarget =
          (invite.headers.contact as Array<{ uri: string }> | undefined)?.[0]?.uri ?? `sip:${sip.stringifyUri((invite.headers.from as NameAddr).uri)}`;
        let cseq = 1;
        dialogs.set(callId, {
          onRequest: (request) => {
            if (request.method === 'BYE') {
              respond(request, 200, 'OK');
              finish('caller_hangup');
            } else if (request.method === 'REFER') {
              acceptRefer(request);
            } else if (request.method === 'INVITE') {
              respond(request, 200, 'OK', { headers: { to, contact, 'content-type': 'application/sdp' }, content: answerSdp });
            } else if (request.method !== 'ACK') respond(request, 200, 'OK');
          },
        });
        // A blind transfer (RFC 3515): accepted at once, and the NOTIFY's sipfrag reports the new call as
        // answered: this phone stands in for the transfer target too, so there is no second call to report on.
        const acceptRefer = (refer: SipRequest) => {
          respond(refer, 202, 'Accepted', { headers: { to, contact } });
          const referToHeader = refer.headers['refer-to'];
          const referTo = /<?([^<>\s]+)>?/.exec(typeof referToHeader === 'string' ? referToHeader : '')?.[1] ?? '';
          stack.send(
            {
              method: 'NOTIFY',
              uri: remoteTarget,
              headers: {
                via: [],
                'max-forwards': 70,
                to: invite.headers.from,
                from: to,
                'call-id': callId,
                cseq: { seq: ++cseq, method: 'NOTIFY' },
                contact,
                event: 'refer',
                'subscription-state': 'terminated;reason=noresource',
                'content-type': 'message/sipfrag;version=2.0',
              },
              content: 'SIP/2.0 200 OK\r\n',
            },
            () => undefined,
          );
          emitter.emit('refer', referTo);
        };
        const answerSdp = buildSdpOffer({
          address: opts.bindAddress,
          port: rtp.localPort,
          sessionId: randomInt(1, 2 ** 31),
          telephoneEventPayloadType: offer.telephoneEventPayloadType ?? 101,
        });
        respond(invite, 200, 'OK', { headers: { to, contact, 'content-type': 'application/sdp' }, content: answerSdp });
        rtp.start(offer);
        rtp.outbound.openPlayback();
        const leg: CalleeLeg = {
          play: (mulaw) => rtp?.outbound.enqueue(mulaw),
          sendDtmf: (digits) => rtp?.outbound.queueDigits(digits),
          get queuedFrames() {
            return rtp?.outbound.queuedFrames ?? 0;
          },
          on(event, listener) {
            emitter.on(event, listener as (...args: unknown[]) => void);
            return leg;
          },
          hangup() {
            if (ended) return;
            stack.send(
              {
                method: 'BYE',
                uri: remoteTarget,
                headers: { via: [], 'max-forwards': 70, to: invite.headers.from, from: to, 'call-id': callId, cseq: { seq: ++cseq, method: 'BYE' } },
              },
              () => undefined,
            );
            finish('callee_hangup');
          },
          ended: endedPromise,
        };
        return leg;
      },
    };
    opts.onInvite(call);
  };

  const port = await probeUdpPort(opts.bindAddress, opts.port);
  stack = sip.create({ address: opts.bindAddress, port, udp: true, tcp: false }, (request) => {
    const callId = request.headers['call-id'] as string;
    const dialog = dialogs.get(callId);
    if (dialog) return dialog.onRequest(request);
    switch (request.method) {
      case 'INVITE':
        return onInvite(request);
      case 'CANCEL': {
        respond(request, 200, 'OK');
        return pendingInvites.get(callId)?.cancel();
      }
      case 'ACK':
        return undefined;
      case 'OPTIONS':
        return respond(request, 200, 'OK');
      default:
        return respond(request, 481, 'Call/Transaction Does Not Exist');
    }
  });
  return { port, close: () => stack.destroy() };
}
