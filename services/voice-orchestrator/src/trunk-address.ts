import { isIP } from 'node:net';
import type { TrunkSettings } from './config';

export const SIP_TRUNK_FORMAT = 'a SIP URI: sip:host, sip:host:port or sip:user:password@host:port (user and password percent-encoded)';
export const RTP_PORTS_FORMAT = 'a UDP port range such as 10000-20000';
export const SIP_LISTEN_FORMAT = 'address:port such as 0.0.0.0:5060, an IPv4 address (port 0 picks a free one)';

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

/**
 * `127.0.0.2:0`: the local address and SIP port of the SIP and RTP sockets, one value as an address is. The bracketed
 * IPv6 form is understood so that it gets a clear answer: the SIP stack binds IPv4 only (docs/voice-telephony.md).
 */
export function parseSipListenAddress(text: string): { address: string; port: number } {
  const match = /^(?:\[([^\]]*)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not address:port`);
  const [, v6, v4, portText] = match;
  if (v6 !== undefined) throw new Error(`${v6} is an IPv6 address; the SIP and RTP sockets bind IPv4 only`);
  if (isIP(v4) !== 4) throw new Error(`${v4} is not an IPv4 address`);
  const port = Number(portText);
  if (port > 65_535) throw new Error(`port ${portText} is not 0-65535`);
  return { address: v4, port };
}
