import { randomInt } from 'node:crypto';
import { openRtpSession } from '../media/rtp-session';
import { openThreadedRtpSession } from '../media/threaded-rtp-session';
import { buildSdpOffer } from '../media/sdp.codec';
import type { CallLeg, OriginateRequest, TelephonyTrunk } from '../telephony.types';
import { createSipCallLeg, type SipCallLeg } from './sip-call-leg';
import { buildInvite, randomToken } from './sip-request.builder';
import { resolveSipTrunkConfig, type SipTrunkConfig } from './sip-trunk.config';
import { createSipUserAgent } from './sip-user-agent';
import { probeUdpPort } from './udp-port.probe';

const DIALLABLE = /^[+\w.*-]+$/;

export interface SipTrunk extends TelephonyTrunk {
  /** The SIP port actually bound (useful with `localPort: 0`). */
  readonly localPort: number;
}

/** A TelephonyTrunk that places calls through one SIP trunk over UDP, with G.711 μ-law RTP. */
export async function createSipTrunk(input: SipTrunkConfig): Promise<SipTrunk> {
  const config = resolveSipTrunkConfig(input);
  const localPort = await probeUdpPort(config.bindAddress, config.localPort);
  const ua = createSipUserAgent({ bindAddress: config.bindAddress, port: localPort, publicAddress: config.publicAddress });
  const credentials = config.username ? { user: config.username, password: config.password ?? '' } : undefined;
  const legs = new Set<SipCallLeg>();
  let closed = false;

  const originate = async (request: OriginateRequest): Promise<CallLeg> => {
    if (closed) throw new Error('SIP trunk is closed');
    if (!DIALLABLE.test(request.to)) throw new RangeError(`to: not a diallable number or SIP user: ${JSON.stringify(request.to)}`);
    const callerId = request.from ?? config.callerId;
    if (!DIALLABLE.test(callerId)) throw new RangeError(`from: not a valid caller id: ${JSON.stringify(callerId)}`);
    let leg: SipCallLeg | undefined;
    // The media may be lost between the session opening and the leg existing: the leg hears of it once created.
    let mediaLost: string | undefined;
    const openSession = config.mediaThread ? openThreadedRtpSession : openRtpSession;
    const rtp = await openSession(
      config.bindAddress,
      {
        onFirstPacket: () => leg?.media.onFirstPacket(),
        onAudioFrame: (frame) => leg?.media.onAudioFrame(frame),
        onDigit: (digit) => leg?.media.onDigit(digit),
        onPlaybackDrained: () => leg?.media.onPlaybackDrained(),
        onMediaLost: (reason) => (leg ? leg.media.onMediaLost(reason) : (mediaLost = reason)),
      },
      config.rtpPorts,
    );
    const requestUri = `sip:${request.to}@${config.host}:${config.port}`;
    const invite = buildInvite({
      requestUri,
      from: { uri: `sip:${callerId}@${config.domain}`, params: { tag: randomToken() } },
      to: { uri: `sip:${request.to}@${config.domain}`, params: {} },
      callId: `${randomToken(12)}@${config.publicAddress}`,
      cseq: 1,
      contactUri: `sip:switchboard@${config.publicAddress}:${localPort}`,
      sdp: buildSdpOffer({ address: config.publicAddress, port: rtp.localPort, sessionId: randomInt(1, 2 ** 31) }),
      extraHeaders: request.headers,
    });
    leg = createSipCallLeg({
      ua,
      rtp,
      invite,
      ringTimeoutMs: request.ringTimeoutMs ?? config.ringTimeoutMs,
      credentials,
      referHost: `${config.host}:${config.port}`,
    });
    const created = leg;
    legs.add(created);
    void created.ended.then(() => legs.delete(created));
    created.start();
    if (mediaLost !== undefined) created.media.onMediaLost(mediaLost);
    return created;
  };

  return {
    localPort,
    originate,
    async close(endReason = 'orchestrator_lost') {
      if (closed) return;
      closed = true;
      const hangups = Promise.all([...legs].map((leg) => leg.hangup(endReason)));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([hangups, new Promise((resolve) => (timer = setTimeout(resolve, config.closeTimeoutMs)))]);
      clearTimeout(timer);
      for (const leg of legs) leg.abandon(endReason);
      ua.close();
    },
  };
}
