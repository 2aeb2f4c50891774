/**
 * The part of the untyped npm `sip` package (sip.js 0.0.6, https://github.com/kirm/sip.js) this package uses:
 * one stack per trunk from `create`, its message objects, and the digest helper in `sip/digest`.
 */
declare module 'sip' {
  export interface SipUri {
    schema?: string;
    user?: string;
    password?: string;
    host: string;
    port?: number;
    params: Record<string, string | null>;
    headers?: Record<string, string>;
  }

  /** A name-addr header value (From, To, Contact, Route): the URI is a string after parsing, except in Route lists. */
  export interface NameAddr {
    name?: string;
    uri: string | SipUri;
    params: Record<string, string | null | undefined>;
  }

  export interface Via {
    version?: string;
    protocol?: string;
    host?: string;
    port?: number;
    params: Record<string, string | number | null | undefined>;
  }

  export interface SipHeaders {
    via?: Via[];
    from?: NameAddr;
    to?: NameAddr;
    'call-id'?: string;
    cseq?: { seq: number; method: string };
    contact?: NameAddr[] | '*';
    route?: NameAddr[];
    'record-route'?: NameAddr[];
    'max-forwards'?: number | string;
    'content-type'?: string;
    'www-authenticate'?: Array<Record<string, string>>;
    'proxy-authenticate'?: Array<Record<string, string>>;
    [name: string]: unknown;
  }

  export interface SipRequest {
    method: string;
    uri: string | SipUri;
    version?: string;
    headers: SipHeaders;
    content?: string;
  }

  export interface SipResponse {
    status: number;
    reason: string;
    version?: string;
    headers: SipHeaders;
    content?: string;
  }

  export interface SipRemote {
    protocol: string;
    address: string;
    port: number;
  }

  export interface SipStackOptions {
    /** Interface to bind; also the Via host unless publicAddress is set. */
    address?: string;
    /** Bound for UDP and TCP; 0 or undefined means 5060. */
    port?: number;
    publicAddress?: string;
    udp?: boolean;
    tcp?: boolean;
    logger?: {
      send?(message: SipRequest | SipResponse, target: unknown): void;
      recv?(message: SipRequest | SipResponse, remote: SipRemote): void;
      error?(error: unknown): void;
    };
  }

  export interface SipStack {
    /**
     * A request starts a client transaction (ACK is sent as is); `onResponse` gets every response, including ones
     * the stack makes up (408 on timer B, 503 on a transport error, 404 when no next hop resolves).
     * A response is handed to its server transaction.
     */
    send(message: SipRequest | SipResponse, onResponse?: (response: SipResponse) => void): void;
    destroy(): void;
    hostname(): string;
  }

  export function create(options: SipStackOptions, onRequest: (request: SipRequest, remote: SipRemote) => void): SipStack;
  export function makeResponse(request: SipRequest, status: number, reason?: string): SipResponse;
  export function parseUri(uri: string | SipUri): SipUri | undefined;
  export function stringifyUri(uri: string | SipUri): string;
}

declare module 'sip/digest' {
  import type { SipRequest, SipResponse } from 'sip';

  /** Opaque client state: nonce, nonce count, cnonce. */
  export type DigestSession = Record<string, unknown>;

  /** Adds Authorization (or Proxy-Authorization for a 407) answering the challenge in `response`; mutates `session`. */
  export function signRequest(
    session: DigestSession,
    request: SipRequest,
    response?: SipResponse,
    credentials?: { user: string; password: string; realm?: string },
  ): DigestSession | null;
}
