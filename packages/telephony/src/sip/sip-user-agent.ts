import * as sip from 'sip';
import type { SipRequest, SipResponse } from 'sip';

/** Handles the requests the peer sends inside one of our dialogs (BYE, re-INVITE, OPTIONS...). */
export type DialogRequestHandler = (request: SipRequest) => void;

export interface SipUserAgentOptions {
  /** Interface the SIP socket binds to. */
  bindAddress: string;
  port: number;
  /** Host put in Via and Contact; defaults to bindAddress. */
  publicAddress?: string;
}

export interface SipUserAgent {
  /** Sends a request; `onResponse` receives every response to it (provisional and final). ACK gets none. */
  request(request: SipRequest, onResponse?: (response: SipResponse) => void): void;
  respond(request: SipRequest, status: number, reason: string, extra?: Partial<SipResponse>): void;
  /** Routes the peer's requests carrying this Call-ID to `handler` until `forget`. */
  register(callId: string, handler: DialogRequestHandler): void;
  forget(callId: string): void;
  /** Whether anything has been received from the network for this Call-ID (as opposed to made up by the stack). */
  heardFrom(callId: string): boolean;
  readonly contactHost: string;
  close(): void;
}

/**
 * One sip.js stack, UDP only, bound to one address and port, shared by the trunk's legs.
 *
 * sip.js quirk: it treats a next hop whose host equals its own hostname (the bind or public address) as one of its
 * own flow tokens and answers 404 itself, so the trunk must not share the UA's address (docs/voice.md).
 */
export function createSipUserAgent(opts: SipUserAgentOptions): SipUserAgent {
  const dialogs = new Map<string, DialogRequestHandler>();
  const heard = new Set<string>();
  const contactHost = opts.publicAddress ?? opts.bindAddress;

  const respond: SipUserAgent['respond'] = (request, status, reason, extra) => {
    const response = sip.makeResponse(request, status, reason);
    if (extra?.headers) Object.assign(response.headers, extra.headers);
    if (extra?.content !== undefined) response.content = extra.content;
    stack.send(response);
  };

  const stack = sip.create(
    {
      address: opts.bindAddress,
      port: opts.port,
      publicAddress: opts.publicAddress,
      udp: true,
      tcp: false,
      logger: {
        recv: (message) => {
          const callId = message.headers['call-id'];
          if (typeof callId === 'string' && dialogs.has(callId)) heard.add(callId);
        },
      },
    },
    (request) => {
      const handler = dialogs.get(request.headers['call-id'] as string);
      if (handler) return handler(request);
      if (request.method === 'ACK') return undefined;
      if (request.method === 'OPTIONS') return respond(request, 200, 'OK');
      // We place calls only: a request outside our dialogs (an INVITE to us, a stray BYE) has no transaction here.
      respond(request, 481, 'Call/Transaction Does Not Exist');
    },
  );

  return {
    request: (request, onResponse) => stack.send(request, onResponse),
    respond,
    register: (callId, handler) => void dialogs.set(callId, handler),
    forget: (callId) => {
      dialogs.delete(callId);
      heard.delete(callId);
    },
    heardFrom: (callId) => heard.has(callId),
    contactHost,
    close: () => stack.destroy(),
  };
}
