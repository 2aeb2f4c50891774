import { buildSdpOffer, parseSdpAnswer } from '../src/media/sdp.codec';

describe('SDP offer and answer', () => {
  it('offers PCMU and telephone-event 0-16 in 20 ms packets', () => {
    const offer = buildSdpOffer({ address: '127.0.0.2', port: 40000, sessionId: 42 });
    expect(offer.split('\r\n')).toEqual(
      expect.arrayContaining([
        'c=IN IP4 127.0.0.2',
        'm=audio 40000 RTP/AVP 0 101',
        'a=rtpmap:0 PCMU/8000',
        'a=rtpmap:101 telephone-event/8000',
        'a=fmtp:101 0-16',
        'a=ptime:20',
      ]),
    );
    expect(offer.endsWith('\r\n')).toBe(true);
  });

  it('reads the remote address, port and telephone-event payload type of an answer', () => {
    const answer =
      'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n' +
      'm=audio 10004 RTP/AVP 0 96\r\na=rtpmap:0 PCMU/8000\r\na=rtpmap:96 telephone-event/8000\r\na=fmtp:96 0-15\r\n';
    expect(parseSdpAnswer(answer)).toEqual({ address: '127.0.0.1', port: 10004, payloadTypes: [0, 96], telephoneEventPayloadType: 96, acceptsPcmu: true });
  });

  it('prefers a media-level c= line and skips a video stream before the audio one', () => {
    const answer = 'v=0\nc=IN IP4 10.0.0.1\nm=video 0 RTP/AVP 31\nc=IN IP4 10.0.0.9\nm=audio 6000 RTP/AVP 0\nc=IN IP4 192.0.2.5\n';
    expect(parseSdpAnswer(answer)).toMatchObject({ address: '192.0.2.5', port: 6000, telephoneEventPayloadType: undefined });
    expect(parseSdpAnswer('v=0\nm=audio 6000 RTP/AVP 0\nc=IN IP4 192.0.2.7\n')?.address).toBe('192.0.2.7');
  });

  it('finds no usable stream in a rejected, address-less or audio-less answer', () => {
    expect(parseSdpAnswer('v=0\nc=IN IP4 127.0.0.1\nm=audio 0 RTP/AVP 0\n')).toBeUndefined();
    expect(parseSdpAnswer('v=0\nm=audio 6000 RTP/AVP 0\n')).toBeUndefined();
    expect(parseSdpAnswer('v=0\nc=IN IP4 127.0.0.1\nm=video 6000 RTP/AVP 31\n')).toBeUndefined();
    expect(parseSdpAnswer('')).toBeUndefined();
  });
});
