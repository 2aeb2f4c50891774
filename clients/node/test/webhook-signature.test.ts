import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { sign, verify } from '../src/webhook-signature';
import { WebhookVerificationError } from '../src/errors';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const other = `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({ id: 'evt_1', type: 'message.delivered', created_at: '2026-11-23T10:00:00.000Z', data: { id: 'msg_1', sequence: 3 } });
const now = 1_790_000_000_000;
const seconds = now / 1000;

/** Headers signed by the reference implementation (npm `standardwebhooks`), not by the code under test. */
function signedByReference(withSecret: string, at = seconds, payload = body): Record<string, string> {
  const signature = new Webhook(withSecret).sign('evt_1', new Date(at * 1000), payload);
  return { 'webhook-id': 'evt_1', 'webhook-timestamp': String(at), 'webhook-signature': signature };
}

test('a delivery signed by the reference implementation verifies, as a string, a Buffer or a Uint8Array', () => {
  const headers = signedByReference(secret);
  for (const payload of [body, Buffer.from(body), new Uint8Array(Buffer.from(body))]) {
    const event = verify(payload, headers, secret, { now });
    assert.equal(event.type, 'message.delivered');
    assert.equal(event.data.id, 'msg_1');
  }
  assert.equal(sign(secret, 'evt_1', seconds, body), headers['webhook-signature']);
});

test('headers may be a fetch Headers, Node request headers or any casing', () => {
  const signed = signedByReference(secret);
  assert.equal(verify(body, new Headers(signed), secret, { now }).id, 'evt_1');
  const shouting = Object.fromEntries(Object.entries(signed).map(([k, v]) => [k.toUpperCase(), v]));
  assert.equal(verify(body, shouting, secret, { now }).id, 'evt_1');
  assert.equal(verify(body, { ...signed, 'webhook-signature': [signed['webhook-signature']] }, secret, { now }).id, 'evt_1');
});

test('after a rotation any one of several signatures is enough, and unknown versions are skipped', () => {
  const fresh = signedByReference(secret)['webhook-signature'];
  const old = signedByReference(other)['webhook-signature'];
  const headers = { ...signedByReference(secret), 'webhook-signature': `v2,abc ${old} ${fresh}` };
  assert.equal(verify(body, headers, secret, { now }).id, 'evt_1');
  assert.equal(verify(body, headers, other, { now }).id, 'evt_1');
});

test('a secret without the whsec_ prefix is its base64 key', () => {
  assert.equal(verify(body, signedByReference(secret), secret.slice('whsec_'.length), { now }).id, 'evt_1');
});

test('a tampered body, another secret, or a signature under another id fails', () => {
  const headers = signedByReference(secret);
  assert.throws(() => verify(body.replace('msg_1', 'msg_2'), headers, secret, { now }), WebhookVerificationError);
  assert.throws(() => verify(body, headers, other, { now }), /no v1 signature matches/);
  assert.throws(() => verify(body, { ...headers, 'webhook-id': 'evt_2' }, secret, { now }), /no v1 signature matches/);
  const signature = headers['webhook-signature'];
  assert.throws(() => verify(body, { ...headers, 'webhook-signature': `v2,${signature.slice(3)}` }, secret, { now }), /no v1/);
  assert.throws(() => verify(body, { ...headers, 'webhook-signature': `${signature}=` }, secret, { now }), /no v1/);
});

test('a timestamp more than the tolerance away, in either direction, fails; within it passes', () => {
  assert.throws(() => verify(body, signedByReference(secret, seconds - 301), secret, { now }), /more than 300 seconds/);
  assert.throws(() => verify(body, signedByReference(secret, seconds + 301), secret, { now }), /more than 300 seconds/);
  assert.equal(verify(body, signedByReference(secret, seconds - 299), secret, { now }).id, 'evt_1');
  assert.equal(verify(body, signedByReference(secret, seconds - 600), secret, { now, toleranceSeconds: 900 }).id, 'evt_1');
});

test('missing or malformed headers, a malformed secret and parsed JSON are refused with a reason', () => {
  const headers = signedByReference(secret);
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    const { [name]: _, ...rest } = headers;
    assert.throws(() => verify(body, rest, secret, { now }), new RegExp(`missing header ${name}`));
  }
  assert.throws(() => verify(body, { ...headers, 'webhook-timestamp': '17e8' }, secret, { now }), /not an integer/);
  assert.throws(() => verify(body, headers, 'whsec_not base64!', { now }), /not whsec_ followed by base64/);
  assert.throws(() => verify(JSON.parse(body) as unknown as string, headers, secret, { now }), /raw request body/);
});
