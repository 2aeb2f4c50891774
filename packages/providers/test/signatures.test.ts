import { createHmac } from 'node:crypto';
import { verifyChatSignature } from '../src/chat/chat-signature.verifier';
import { verifyRbmSignature } from '../src/rcs/rbm-signature.verifier';

describe('verifyChatSignature', () => {
  const secret = 'app-secret';
  const body = Buffer.from('{"object":"whatsapp_business_account","entry":[]}');
  const sign = (payload: Buffer, key = secret) => `sha256=${createHmac('sha256', key).update(payload).digest('hex')}`;

  it('accepts the signature of the raw body', () => {
    expect(verifyChatSignature(secret, body, sign(body))).toBe(true);
  });

  it('accepts upper-case hex', () => {
    expect(verifyChatSignature(secret, body, `sha256=${sign(body).slice('sha256='.length).toUpperCase()}`)).toBe(true);
  });

  it('rejects a tampered body', () => {
    expect(verifyChatSignature(secret, Buffer.from(body.toString().replace('[]', '[{}]')), sign(body))).toBe(false);
  });

  it('rejects a signature made with another secret', () => {
    expect(verifyChatSignature(secret, body, sign(body, 'other'))).toBe(false);
  });

  it('rejects a missing or empty header', () => {
    expect(verifyChatSignature(secret, body, undefined)).toBe(false);
    expect(verifyChatSignature(secret, body, '')).toBe(false);
  });

  it('rejects hex of the wrong length and other schemes', () => {
    const good = sign(body);
    expect(verifyChatSignature(secret, body, good.slice(0, -2))).toBe(false);
    expect(verifyChatSignature(secret, body, `${good}00`)).toBe(false);
    expect(verifyChatSignature(secret, body, good.replace('sha256=', 'sha1='))).toBe(false);
    expect(verifyChatSignature(secret, body, good.replace('sha256=', ''))).toBe(false);
    expect(verifyChatSignature(secret, body, 'sha256=zz' + good.slice(9))).toBe(false);
  });

  it('rejects everything when no secret is configured', () => {
    expect(verifyChatSignature('', body, sign(body, ''))).toBe(false);
  });
});

describe('verifyRbmSignature', () => {
  const token = 'client-token';
  const event = {
    senderPhoneNumber: '+15550001111',
    eventType: 'DELIVERED',
    eventId: 'e1',
    messageId: 'msg_1',
    sendTime: '2025-01-01T00:00:00Z',
    agentId: 'agent',
  };
  const data = Buffer.from(JSON.stringify(event)).toString('base64');
  const push = { message: { data, messageId: 'p1', publishTime: '2025-01-01T00:00:00Z' }, subscription: 'projects/x/subscriptions/y' };
  const sign = (bytes: Buffer, key = token) => createHmac('sha512', key).update(bytes).digest('base64');

  it('accepts the HMAC of the decoded data (Google RBM guide)', () => {
    expect(verifyRbmSignature(token, push, sign(Buffer.from(data, 'base64')))).toBe(true);
  });

  it('accepts the HMAC of the base64 text as sent', () => {
    expect(verifyRbmSignature(token, push, sign(Buffer.from(data)))).toBe(true);
  });

  it('rejects another token, a tampered payload and a missing header', () => {
    const signature = sign(Buffer.from(data, 'base64'));
    expect(verifyRbmSignature(token, push, sign(Buffer.from(data, 'base64'), 'other'))).toBe(false);
    const tampered = { ...push, message: { ...push.message, data: Buffer.from(JSON.stringify({ ...event, eventType: 'READ' })).toString('base64') } };
    expect(verifyRbmSignature(token, tampered, signature)).toBe(false);
    expect(verifyRbmSignature(token, push, undefined)).toBe(false);
    expect(verifyRbmSignature(token, push, '')).toBe(false);
  });

  it('rejects bodies without message.data and signatures of the wrong length', () => {
    expect(verifyRbmSignature(token, { message: {} }, sign(Buffer.from('')))).toBe(false);
    expect(verifyRbmSignature(token, 'garbage', sign(Buffer.from('')))).toBe(false);
    expect(verifyRbmSignature(token, push, Buffer.from('short').toString('base64'))).toBe(false);
  });
});
