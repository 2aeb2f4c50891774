import type { SipRequest, SipResponse } from 'sip';
import type { RtpSession } from '../src/media/rtp-session';
import { createRtpOutboundStream } from '../src/media/rtp-outbound.stream';
import { createSipCallLeg } from '../src/sip/sip-call-leg';
import { buildInvite } from '../src/sip/sip-request.builder';
import type { SipUserAgent } from '../src/sip/sip-user-agent';

const SDP = 'v=0\r\nc=IN IP4 127.0.0.1\r\nm=audio 7000 RTP/AVP 0 101\r\na=rtpmap:101 telephone-event/8000\r\n';

/** A stub UA that records what the leg sends and lets the test play the peer. */
function harness(opts: { credentials?: { user: string; password: string } } = {}) {
  const sent: Array<{ request: SipRequest; onResponse?: (r: SipResponse) => void }> = [];
  const responses: Array<{ method: string; status: number }> = [];
  let dialogHandler: ((r: SipRequest) => void) | undefined;
  const ua: SipUserAgent = {
    request: (request, onResponse) => {
      // The stack fills the top Via of what it sends (CANCEL copies it from the INVITE).
      if (request.method !== 'CANCEL') request.headers.via = [{ host: '127.0.0.2', params: { branch: `z9hG4bK${sent.length}` } }];
      sent.push({ request, onResponse });
    },
    respond: (request, status) => void responses.push({ method: request.method, status }),
    register: (_id, handler) => void (dialogHandler = handler),
    forget: () => undefined,
    heardFrom: () => true,
    contactHost: '127.0.0.2',
    close: () => undefined,
  };
  const rtpStarts: unknown[] = [];
  let rtpClosed = false;
  const rtp: RtpSession = {
    localPort: 40000,
    start: (remote) => void rtpStarts.push(remote),
    outbound: createRtpOutboundStream({ ssrc: 1, initialSequence: 0, initialTimestamp: 0 }),
    stats: { framesSent: 0, framesLate: 0, latenessMs: {}, packetsReceived: 0, packetsDropped: 0 },
    close: () => void (rtpClosed = true),
  };
  const invite = buildInvite({
    requestUri: 'sip:+1555@127.0.0.1:5060',
    from: { uri: 'sip:+1000@127.0.0.1', params: { tag: 'ours' } },
    to: { uri: 'sip:+1555@127.0.0.1', params: {} },
    callId: 'c1@127.0.0.2',
    cseq: 1,
    contactUri: 'sip:switchboard@127.0.0.2:5062',
    sdp: 'v=0\r\n',
  });
  const leg = createSipCallLeg({ ua, rtp, invite, ringTimeoutMs: 60_000, credentials: opts.credentials, referHost: '127.0.0.1:5060' });
  const events: string[] = [];
  for (const name of ['ringing', 'answered', 'media-ready', 'ended'] as const) leg.on(name, () => events.push(name));
  const methods = () => sent.map((s) => s.request.method);
  const reply = (index: number, status: number, extra: Partial<SipResponse> = {}) => {
    const request = sent[index].request;
    sent[index].onResponse?.({
      status,
      reason: '',
      headers: { ...request.headers, to: { uri: 'sip:+1555@127.0.0.1', params: { tag: 'theirs' } }, contact: [{ uri: 'sip:peer@127.0.0.1:5080', params: {} }] },
      ...extra,
    });
  };
  leg.start();
  return { leg, sent, methods, reply, responses, events, rtpStarts, rtpClosed: () => rtpClosed, peer: (r: SipRequest) => dialogHandler!(r) };
}

describe('SIP call leg', () => {
  afterEach(() => jest.useRealTimers());

  it('holds a hangup CANCEL until a provisional response arrives (RFC 3261 §9.1), then ends canceled on 487', async () => {
    const h = harness();
    const ended = h.leg.hangup('hangup_api');
    expect(h.methods()).toEqual(['INVITE']);
    h.reply(0, 100);
    expect(h.methods()).toEqual(['INVITE', 'CANCEL']);
    expect(h.sent[1].request.headers.via).toEqual(h.sent[0].request.headers.via);
    h.reply(0, 487);
    await expect(ended).resolves.toEqual({ outcome: 'canceled', endReason: 'hangup_api', sipStatus: 487 });
    expect(h.events).toEqual(['ended']);
  });

  it('on answer: ACKs, starts RTP toward the SDP answer, and reports media ready only on the first RTP packet', () => {
    const h = harness();
    h.leg.media.onFirstPacket(); // stray early packet: not an answer yet
    h.reply(0, 180);
    h.reply(0, 200, { content: SDP });
    expect(h.methods()).toEqual(['INVITE', 'ACK']);
    expect(h.sent[1].request.uri).toBe('sip:peer@127.0.0.1:5080');
    expect(h.rtpStarts).toEqual([expect.objectContaining({ address: '127.0.0.1', port: 7000, telephoneEventPayloadType: 101 })]);
    expect(h.events).toEqual(['ringing', 'answered']);
    h.leg.media.onFirstPacket();
    h.leg.media.onFirstPacket();
    expect(h.events).toEqual(['ringing', 'answered', 'media-ready']);
  });

  it('ACKs a retransmitted 2xx again without answering twice', () => {
    const h = harness();
    h.reply(0, 200, { content: SDP });
    h.reply(0, 200, { content: SDP });
    expect(h.methods()).toEqual(['INVITE', 'ACK', 'ACK']);
    expect(h.events).toEqual(['answered']);
  });

  it('a 2xx that crosses our CANCEL is ACKed and hung up with BYE, and the leg still ends canceled', async () => {
    const h = harness();
    h.reply(0, 180);
    const ended = h.leg.hangup('hangup_api');
    h.reply(0, 200, { content: SDP });
    expect(h.methods()).toEqual(['INVITE', 'CANCEL', 'ACK', 'BYE']);
    h.reply(3, 200);
    await expect(ended).resolves.toMatchObject({ outcome: 'canceled', endReason: 'hangup_api' });
    expect(h.events).not.toContain('answered');
  });

  it('an answer without PCMU is hung up and fails as sip_488', async () => {
    const h = harness();
    h.reply(0, 200, { content: 'v=0\r\nc=IN IP4 127.0.0.1\r\nm=audio 7000 RTP/AVP 8\r\n' });
    expect(h.methods()).toEqual(['INVITE', 'ACK', 'BYE']);
    h.reply(2, 200);
    await expect(h.leg.ended).resolves.toEqual({ outcome: 'failed', endReason: 'sip_488', sipStatus: 488 });
  });

  it('answers one 407 with Proxy-Authorization on a new INVITE with the next CSeq, and gives up on a second', async () => {
    const h = harness({ credentials: { user: 'alice', password: 's3cret' } });
    h.reply(0, 407, { headers: { 'proxy-authenticate': [{ scheme: 'Digest', realm: '"trunk"', nonce: '"n1"' }] } as never });
    expect(h.methods()).toEqual(['INVITE', 'INVITE']);
    const retry = h.sent[1].request;
    expect(retry.headers.cseq).toEqual({ seq: 2, method: 'INVITE' });
    expect(retry.headers['proxy-authorization']).toEqual([expect.objectContaining({ scheme: 'Digest', username: '"alice"', realm: '"trunk"' })]);
    h.reply(1, 407, { headers: { 'proxy-authenticate': [{ scheme: 'Digest', realm: '"trunk"', nonce: '"n2"' }] } as never });
    await expect(h.leg.ended).resolves.toEqual({ outcome: 'failed', endReason: 'sip_407', sipStatus: 407 });
  });

  it('answers in-dialog requests: re-INVITE 200 with our SDP, OPTIONS 200, others 501, BYE 200 and ends', async () => {
    const h = harness();
    h.reply(0, 200, { content: SDP });
    const inDialog = (method: string): SipRequest => ({
      method,
      uri: 'sip:switchboard@127.0.0.2',
      headers: { 'call-id': 'c1@127.0.0.2', cseq: { seq: 5, method } },
    });
    for (const method of ['INVITE', 'OPTIONS', 'INFO', 'ACK', 'BYE']) h.peer(inDialog(method));
    expect(h.responses).toEqual([
      { method: 'INVITE', status: 200 },
      { method: 'OPTIONS', status: 200 },
      { method: 'INFO', status: 501 },
      { method: 'BYE', status: 200 },
    ]);
    await expect(h.leg.ended).resolves.toEqual({ outcome: 'completed', endReason: 'callee_hangup' });
    expect(h.rtpClosed()).toBe(true);
  });

  const notify = (sipfrag: string): SipRequest => ({
    method: 'NOTIFY',
    uri: 'sip:switchboard@127.0.0.2',
    headers: { 'call-id': 'c1@127.0.0.2', cseq: { seq: 6, method: 'NOTIFY' }, event: 'refer', 'content-type': 'message/sipfrag' },
    content: sipfrag,
  });

  it('transfers with REFER in the dialog (Refer-To the target at the trunk); 202 and a NOTIFY sipfrag 200 accept it', async () => {
    const h = harness();
    h.reply(0, 200, { content: SDP });
    const result = h.leg.transfer('+4479111234');
    expect(h.methods()).toEqual(['INVITE', 'ACK', 'REFER']);
    const refer = h.sent[2].request;
    expect(refer.uri).toBe('sip:peer@127.0.0.1:5080');
    expect(refer.headers['refer-to']).toBe('<sip:+4479111234@127.0.0.1:5060>');
    expect((refer.headers.cseq as { seq: number }).seq).toBeGreaterThan(1);
    h.reply(2, 202);
    h.peer(notify('SIP/2.0 100 Trying\r\n'));
    h.peer(notify('SIP/2.0 200 OK\r\n'));
    await expect(result).resolves.toEqual({ accepted: true, referStatus: 202, notifyStatus: 200, referTo: 'sip:+4479111234@127.0.0.1:5060' });
    expect(h.responses).toEqual([
      { method: 'NOTIFY', status: 200 },
      { method: 'NOTIFY', status: 200 },
    ]);
  });

  it('a transfer fails on a refused REFER, and on a NOTIFY reporting that the new call failed', async () => {
    const refused = harness();
    refused.reply(0, 200, { content: SDP });
    const first = refused.leg.transfer('sales');
    refused.reply(2, 603);
    await expect(first).resolves.toMatchObject({ accepted: false, referStatus: 603 });

    const failed = harness();
    failed.reply(0, 200, { content: SDP });
    const second = failed.leg.transfer('sales');
    failed.reply(2, 202);
    failed.peer(notify('SIP/2.0 486 Busy Here\r\n'));
    await expect(second).resolves.toMatchObject({ accepted: false, referStatus: 202, notifyStatus: 486 });
  });

  it('a transfer before the answer is refused without sending anything', async () => {
    const h = harness();
    await expect(h.leg.transfer('sales')).resolves.toMatchObject({ accepted: false, referStatus: 0 });
    expect(h.methods()).toEqual(['INVITE']);
    h.leg.abandon('test_over'); // its ring timer would keep jest waiting
  });

  it('the ring timeout cancels after a provisional and ends no-answer', async () => {
    jest.useFakeTimers();
    const h = harness();
    h.reply(0, 180);
    jest.advanceTimersByTime(60_000);
    expect(h.methods()).toEqual(['INVITE', 'CANCEL']);
    h.reply(0, 487);
    await expect(h.leg.ended).resolves.toEqual({ outcome: 'no-answer', endReason: 'no_answer', sipStatus: 487 });
  });

  it('abandon ends a leg whose CANCEL was never answered', async () => {
    const h = harness();
    void h.leg.hangup('orchestrator_lost');
    h.leg.abandon('orchestrator_lost');
    await expect(h.leg.ended).resolves.toEqual({ outcome: 'canceled', endReason: 'orchestrator_lost' });
    expect(h.leg.state).toBe('ended');
  });
});
