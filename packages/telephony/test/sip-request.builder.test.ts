import type { SipRequest, SipResponse } from 'sip';
import { buildAck, buildBye, buildCancel, buildInvite, dialogFromAnswer, nextInvite } from '../src/sip/sip-request.builder';

const invite = (): SipRequest =>
  buildInvite({
    requestUri: 'sip:+15550100@trunk.test:5060',
    from: { uri: 'sip:+15550001@trunk.test', params: { tag: 'abc' } },
    to: { uri: 'sip:+15550100@trunk.test', params: {} },
    callId: 'call-1@127.0.0.2',
    cseq: 1,
    contactUri: 'sip:switchboard@127.0.0.2:5062',
    sdp: 'v=0\r\n',
  });

describe('SIP request builders', () => {
  it('builds an INVITE with an SDP body and an empty Via for the stack to fill', () => {
    const request = invite();
    expect(request).toMatchObject({ method: 'INVITE', uri: 'sip:+15550100@trunk.test:5060', content: 'v=0\r\n' });
    expect(request.headers).toMatchObject({ via: [], cseq: { seq: 1, method: 'INVITE' }, 'content-type': 'application/sdp', 'call-id': 'call-1@127.0.0.2' });
  });

  it('re-sends a challenged INVITE with the next CSeq, the same dialog ids and no Via', () => {
    const first = invite();
    first.headers.via = [{ host: '127.0.0.2', params: { branch: 'z9hG4bK1' } }];
    const second = nextInvite(first);
    expect(second.headers.cseq).toEqual({ seq: 2, method: 'INVITE' });
    expect(second.headers.via).toEqual([]);
    expect(second.headers.from).toBe(first.headers.from);
    expect(second.headers['call-id']).toBe(first.headers['call-id']);
    expect(first.headers.cseq).toEqual({ seq: 1, method: 'INVITE' });
  });

  it('builds CANCEL from the INVITE: its Via branch, Request-URI and CSeq number, method CANCEL', () => {
    const request = invite();
    expect(() => buildCancel(request)).toThrow(/branch/);
    request.headers.via = [{ version: '2.0', protocol: 'UDP', host: '127.0.0.2', port: 5062, params: { branch: 'z9hG4bK77', rport: null } }];
    const cancel = buildCancel(request);
    expect(cancel).toMatchObject({ method: 'CANCEL', uri: request.uri });
    expect(cancel.headers.via).toEqual(request.headers.via);
    expect(cancel.headers.via![0]).not.toBe(request.headers.via[0]);
    expect(cancel.headers.cseq).toEqual({ seq: 1, method: 'CANCEL' });
    expect(cancel.headers.to).toEqual({ uri: 'sip:+15550100@trunk.test', params: {} });
  });

  it('takes the dialog from a 2xx: remote tag, Contact as target, Record-Route reversed; ACK and BYE use it', () => {
    const answer: SipResponse = {
      status: 200,
      reason: 'OK',
      headers: {
        to: { uri: 'sip:+15550100@trunk.test', params: { tag: 'xyz' } },
        contact: [{ uri: 'sip:callee@192.0.2.9:5070', params: {} }],
        'record-route': [
          { uri: 'sip:p2.test;lr', params: {} },
          { uri: 'sip:p1.test;lr', params: {} },
        ],
      },
    };
    const dialog = dialogFromAnswer(invite(), answer);
    expect(dialog.remoteTarget).toBe('sip:callee@192.0.2.9:5070');
    expect(dialog.routeSet.map((r) => r.uri)).toEqual(['sip:p1.test;lr', 'sip:p2.test;lr']);
    const ack = buildAck(dialog, 1);
    expect(ack).toMatchObject({ method: 'ACK', uri: 'sip:callee@192.0.2.9:5070' });
    expect(ack.headers).toMatchObject({ cseq: { seq: 1, method: 'ACK' }, via: [], to: { params: { tag: 'xyz' } }, from: { params: { tag: 'abc' } } });
    expect(buildBye(dialog, 2).headers).toMatchObject({ cseq: { seq: 2, method: 'BYE' }, route: dialog.routeSet });
  });

  it('targets the Request-URI when the 2xx has no Contact, and sends no Route without Record-Route', () => {
    const dialog = dialogFromAnswer(invite(), { status: 200, reason: 'OK', headers: { to: { uri: 'sip:x@y', params: { tag: 't' } } } });
    expect(dialog.remoteTarget).toBe('sip:+15550100@trunk.test:5060');
    expect(buildBye(dialog, 2).headers.route).toBeUndefined();
  });
});
