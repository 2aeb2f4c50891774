import { randomBytes } from 'node:crypto';
import { stringifyUri, type NameAddr, type SipRequest, type SipResponse } from 'sip';

// Builders for the requests a UAC sends in an outbound call (RFC 3261 §8.1.1, §9.1, §12.2, §13.2.2.4, §15.1.1).
// Via is left empty: the stack adds the top Via with a fresh branch, except for CANCEL, which carries the INVITE's.

const MAX_FORWARDS = 70;
const USER_AGENT = 'switchboard-telephony';

/** A random token for tags and Call-IDs. */
export function randomToken(bytes = 8): string {
  return randomBytes(bytes).toString('hex');
}

export interface InviteParams {
  requestUri: string;
  from: NameAddr;
  to: NameAddr;
  callId: string;
  cseq: number;
  contactUri: string;
  sdp: string;
  /** Extension headers (`x-…`), added as they are. */
  extraHeaders?: Record<string, string>;
}

export function buildInvite(p: InviteParams): SipRequest {
  return {
    method: 'INVITE',
    uri: p.requestUri,
    headers: {
      via: [],
      'max-forwards': MAX_FORWARDS,
      from: p.from,
      to: p.to,
      'call-id': p.callId,
      cseq: { seq: p.cseq, method: 'INVITE' },
      contact: [{ uri: p.contactUri, params: {} }],
      allow: 'INVITE, ACK, CANCEL, BYE, OPTIONS',
      'user-agent': USER_AGENT,
      'content-type': 'application/sdp',
      ...p.extraHeaders,
    },
    content: p.sdp,
  };
}

/** The INVITE again after a 401/407 (§22.2): same dialog identifiers, the next CSeq, a new branch. */
export function nextInvite(previous: SipRequest): SipRequest {
  const cseq = previous.headers.cseq as { seq: number; method: string };
  return { ...previous, headers: { ...previous.headers, via: [], cseq: { seq: cseq.seq + 1, method: 'INVITE' } } };
}

/** The dialog a 2xx to our INVITE creates (§12.1.2): its route set is the Record-Route list reversed. */
export interface UacDialog {
  callId: string;
  local: NameAddr;
  remote: NameAddr;
  remoteTarget: string;
  routeSet: NameAddr[];
}

export function dialogFromAnswer(invite: SipRequest, answer: SipResponse): UacDialog {
  const contact = Array.isArray(answer.headers.contact) ? answer.headers.contact[0] : undefined;
  return {
    callId: invite.headers['call-id'] as string,
    local: invite.headers.from as NameAddr,
    remote: answer.headers.to as NameAddr,
    remoteTarget: stringifyUri(contact ? contact.uri : invite.uri),
    routeSet: [...(answer.headers['record-route'] ?? [])].reverse(),
  };
}

function inDialog(dialog: UacDialog, method: string, seq: number): SipRequest {
  return {
    method,
    uri: dialog.remoteTarget,
    headers: {
      via: [],
      'max-forwards': MAX_FORWARDS,
      from: dialog.local,
      to: dialog.remote,
      'call-id': dialog.callId,
      cseq: { seq, method },
      ...(dialog.routeSet.length > 0 ? { route: dialog.routeSet } : {}),
    },
  };
}

/** The ACK for a 2xx is its own transaction, sent by the UAC core with the INVITE's CSeq number (§13.2.2.4). */
export function buildAck(dialog: UacDialog, inviteSeq: number): SipRequest {
  return inDialog(dialog, 'ACK', inviteSeq);
}

export function buildBye(dialog: UacDialog, seq: number): SipRequest {
  return inDialog(dialog, 'BYE', seq);
}

/**
 * CANCEL matches the INVITE's transaction: same Request-URI, Call-ID, From, To (no tag), CSeq number and the
 * INVITE's top Via with its branch (§9.1). The stack keeps the Via of a CANCEL as given.
 */
export function buildCancel(invite: SipRequest): SipRequest {
  const via = invite.headers.via?.[0];
  if (!via?.params.branch) throw new Error('CANCEL before the INVITE left: its Via branch is not known yet');
  const cseq = invite.headers.cseq as { seq: number; method: string };
  return {
    method: 'CANCEL',
    uri: invite.uri,
    headers: {
      via: [{ ...via, params: { ...via.params } }],
      'max-forwards': MAX_FORWARDS,
      from: invite.headers.from,
      to: invite.headers.to,
      'call-id': invite.headers['call-id'],
      cseq: { seq: cseq.seq, method: 'CANCEL' },
      ...(invite.headers.route ? { route: invite.headers.route } : {}),
    },
  };
}

/** A blind transfer (RFC 3515 §2.4): REFER in our dialog, naming the new target in Refer-To; Referred-By is us. */
export function buildRefer(dialog: UacDialog, seq: number, referTo: string, contactUri: string): SipRequest {
  const refer = inDialog(dialog, 'REFER', seq);
  Object.assign(refer.headers, {
    'refer-to': `<${referTo}>`,
    'referred-by': `<${stringifyUri(dialog.local.uri)}>`,
    contact: [{ uri: contactUri, params: {} }],
  });
  return refer;
}
