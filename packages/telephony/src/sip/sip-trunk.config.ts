import { isIP } from 'node:net';
import type { RtpPortRange } from '../media/rtp-port.range';

/** How to reach a SIP trunk and present ourselves to it (see docs/voice-telephony.md, "Connecting a SIP trunk"). */
export interface SipTrunkConfig {
  /** The trunk's SIP host: an IP address or a DNS name. */
  host: string;
  /** @defaultValue 5060 */
  port?: number;
  /** Only UDP is supported. @defaultValue 'udp' */
  transport?: 'udp';
  /** Digest credentials, used when the trunk answers an INVITE with 401 or 407. */
  username?: string;
  password?: string;
  /** The caller id: the user part of From, unless a call gives its own. */
  callerId: string;
  /** Domain of the From and To URIs. @defaultValue host */
  domain?: string;
  /** Local IPv4 address the SIP and RTP sockets bind to. It must differ from `host` (docs/voice.md). */
  bindAddress: string;
  /** Local SIP port; 0 picks a free one. @defaultValue 5060 */
  localPort?: number;
  /** Address written in Via, Contact and the SDP. Required when `bindAddress` is 0.0.0.0. @defaultValue bindAddress */
  publicAddress?: string;
  /** @defaultValue 30000 */
  ringTimeoutMs?: number;
  /**
   * UDP ports for the calls' RTP sockets, one even port per call, so a firewall or NetworkPolicy can open exactly
   * this range (docs/voice-telephony.md#rtp-ports). @defaultValue any free port the OS picks
   */
  rtpPorts?: RtpPortRange;
  /**
   * Whether the legs' RTP sockets and pacing run in the process's media thread, away from the main thread's stalls
   * (docs/voice-telephony.md#media-thread), or on the main thread. @defaultValue true
   */
  mediaThread?: boolean;
  /** How long `close()` waits for the BYEs and CANCELs of live legs to be answered. @defaultValue 2000 */
  closeTimeoutMs?: number;
}

export type ResolvedSipTrunkConfig = Required<Omit<SipTrunkConfig, 'username' | 'password' | 'rtpPorts'>> &
  Pick<SipTrunkConfig, 'username' | 'password' | 'rtpPorts'>;

const isPort = (value: number, allowZero: boolean) => Number.isInteger(value) && value >= (allowZero ? 0 : 1) && value <= 65535;

/** Applies defaults and checks every field; throws a TypeError naming the first bad field. */
export function resolveSipTrunkConfig(config: SipTrunkConfig): ResolvedSipTrunkConfig {
  const fail = (field: string, why: string): never => {
    throw new TypeError(`SIP trunk config: ${field} ${why}`);
  };
  if (!config.host || /\s/.test(config.host)) fail('host', 'must be an IP address or host name');
  const port = config.port ?? 5060;
  if (!isPort(port, false)) fail('port', 'must be 1-65535');
  if ((config.transport ?? 'udp') !== 'udp') fail('transport', 'must be "udp"');
  if (config.password !== undefined && !config.username) fail('username', 'is required with a password');
  if (!config.callerId || !/^[+\w.*-]+$/.test(config.callerId)) fail('callerId', 'must be a number or SIP user');
  if (isIP(config.bindAddress) !== 4) fail('bindAddress', 'must be an IPv4 address');
  const publicAddress = config.publicAddress ?? config.bindAddress;
  if (publicAddress === '0.0.0.0') fail('publicAddress', 'is required when bindAddress is 0.0.0.0');
  if (publicAddress === config.host) fail('publicAddress', 'must differ from host (sip.js would treat the trunk as itself)');
  const localPort = config.localPort ?? 5060;
  if (!isPort(localPort, true)) fail('localPort', 'must be 0-65535');
  const ringTimeoutMs = config.ringTimeoutMs ?? 30_000;
  if (!(ringTimeoutMs > 0)) fail('ringTimeoutMs', 'must be positive');
  if (config.rtpPorts && !(isPort(config.rtpPorts.min, false) && isPort(config.rtpPorts.max, false) && config.rtpPorts.min <= config.rtpPorts.max))
    fail('rtpPorts', 'must be 1-65535 with min <= max');
  const closeTimeoutMs = config.closeTimeoutMs ?? 2_000;
  if (!(closeTimeoutMs >= 0)) fail('closeTimeoutMs', 'must not be negative');
  return {
    host: config.host,
    port,
    transport: 'udp',
    username: config.username,
    password: config.password,
    callerId: config.callerId,
    domain: config.domain ?? config.host,
    bindAddress: config.bindAddress,
    localPort,
    publicAddress,
    ringTimeoutMs,
    closeTimeoutMs,
    mediaThread: config.mediaThread ?? true,
    rtpPorts: config.rtpPorts,
  };
}
