import type { TrunkSettings } from './config';

export const SIP_TRUNK_FORMAT = 'a SIP URI: sip:host, sip:host:port or sip:user:password@host:port (user and password percent-encoded)';
export const RTP_PORTS_FORMAT = 'a UDP port range such as 10000-20000';

/** 5060: the SIP port of RFC 3261 when the URI names none. */
const SIP_DEFAULT_PORT = 5060;
const SIP_URI = /^sip:(?:([^:@]+)(?::([^@]*))?@)?(\[[0-9a-fA-F:.]+\]|[^:@;/?\s[\]]+)(?::(\d{1,5}))?$/;

function port(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (value < 1 || value > 65_535) throw new Error(`port ${text} is not 1-65535`);
  return value;
}

/**
 * A trunk as one SIP URI, credentials included as in DATABASE_URL (docs/voice-telephony.md#connecting-a-sip-trunk):
 * `sip:alice:s3cret@trunk.example.net:5060`. Only UDP `sip:`; parameters and headers are refused, not ignored.
 */
export function parseSipTrunkUri(text: string): TrunkSettings {
  const match = SIP_URI.exec(text.trim());
  if (!match) throw new Error(`"${text.replace(/:[^:@]*@/, ':***@')}" is not sip:[user[:password]@]host[:port]`);
  const [, user, password, host, portText] = match;
  return {
    host: host.replace(/^\[(.*)\]$/, '$1'),
    port: port(portText, SIP_DEFAULT_PORT),
    username: user === undefined ? undefined : decodeURIComponent(user),
    password: password === undefined ? undefined : decodeURIComponent(password),
  };
}

/** `10000-20000`: the UDP ports the calls' RTP sockets take, one even port each (docs/voice-telephony.md#rtp-ports). */
export function parseRtpPortRange(text: string): { min: number; max: number } {
  const match = /^\s*(\d{1,5})\s*-\s*(\d{1,5})\s*$/.exec(text);
  if (!match) throw new Error(`"${text}" is not min-max`);
  const min = port(match[1], 0);
  const max = port(match[2], 0);
  if (min > max) throw new Error(`${min} is above ${max}`);
  return { min, max };
}
