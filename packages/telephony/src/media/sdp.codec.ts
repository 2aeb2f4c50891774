// The SDP we offer and the parts of the answer we use (RFC 4566; offer/answer RFC 3264).

export interface SdpOfferOptions {
  /** The address the peer sends RTP to (c= line). */
  address: string;
  /** Our RTP port (m= line). */
  port: number;
  /** Numeric session id and version for the o= line. */
  sessionId: number;
  /** @defaultValue 101 */
  telephoneEventPayloadType?: number;
}

/** Offers PCMU only, plus RFC 4733 events 0-16, in 20 ms packets. */
export function buildSdpOffer(opts: SdpOfferOptions): string {
  const eventPt = opts.telephoneEventPayloadType ?? 101;
  return [
    'v=0',
    `o=switchboard ${opts.sessionId} ${opts.sessionId} IN IP4 ${opts.address}`,
    's=switchboard',
    `c=IN IP4 ${opts.address}`,
    't=0 0',
    `m=audio ${opts.port} RTP/AVP 0 ${eventPt}`,
    'a=rtpmap:0 PCMU/8000',
    `a=rtpmap:${eventPt} telephone-event/8000`,
    `a=fmtp:${eventPt} 0-16`,
    'a=ptime:20',
    'a=sendrecv',
    '',
  ].join('\r\n');
}

export interface SdpAudioAnswer {
  address: string;
  port: number;
  /** Payload types on the m= line, in the peer's order of preference. */
  payloadTypes: number[];
  /** The peer's telephone-event payload type, if it accepted RFC 4733. */
  telephoneEventPayloadType?: number;
  /** Whether the peer accepted PCMU (payload type 0). */
  acceptsPcmu: boolean;
}

/**
 * The audio address, port and payload types of an answer, or undefined when it has no usable audio stream
 * (no m=audio line, port 0 = rejected, or no connection address). A media-level c= overrides the session one.
 */
export function parseSdpAnswer(sdp: string): SdpAudioAnswer | undefined {
  const lines = sdp.split(/\r?\n/).map((line) => line.trim());
  let sessionAddress: string | undefined;
  let media: { port: number; payloadTypes: number[]; address?: string; rtpmap: Map<number, string> } | undefined;
  let inAudio = false;
  let inMedia = false;
  for (const line of lines) {
    if (line.startsWith('m=')) {
      if (media) break;
      inMedia = true;
      const match = /^m=audio (\d+)(?:\/\d+)? RTP\/AVP((?: \d+)*)$/.exec(line);
      inAudio = Boolean(match);
      if (match) media = { port: Number(match[1]), payloadTypes: match[2].trim().split(/\s+/).filter(Boolean).map(Number), rtpmap: new Map() };
    } else if (line.startsWith('c=')) {
      const address = /^c=IN IP[46] ([^\s/]+)/.exec(line)?.[1];
      if (inAudio && media) media.address = address;
      else if (!inMedia) sessionAddress = address;
    } else if (inAudio && media && line.startsWith('a=rtpmap:')) {
      const match = /^a=rtpmap:(\d+) ([^/\s]+)/.exec(line);
      if (match) media.rtpmap.set(Number(match[1]), match[2].toLowerCase());
    }
  }
  const address = media?.address ?? sessionAddress;
  if (!media || media.port === 0 || !address) return undefined;
  const telephoneEventPayloadType = [...media.rtpmap].find(([pt, name]) => name === 'telephone-event' && media.payloadTypes.includes(pt))?.[0];
  return { address, port: media.port, payloadTypes: media.payloadTypes, telephoneEventPayloadType, acceptsPcmu: media.payloadTypes.includes(0) };
}
