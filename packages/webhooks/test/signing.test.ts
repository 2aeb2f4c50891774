import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret, signedHeaders } from '../src';

const body = JSON.stringify({ id: 'evt_01J0000000000000000000000', type: 'message.delivered', created_at: '2025-01-01T00:00:00.000Z', data: { id: 'msg_1' } });
const id = 'evt_01J0000000000000000000000';
const now = () => Math.floor(Date.now() / 1000);

describe('Standard Webhooks signing', () => {
  it('produces headers the standardwebhooks library verifies', () => {
    const secret = generateWebhookSecret();
    const headers = signedHeaders({ id, timestampSeconds: now(), body, secrets: [secret] });
    expect(headers['webhook-id']).toBe(id);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('does not verify a tampered body', () => {
    const secret = generateWebhookSecret();
    const headers = signedHeaders({ id, timestampSeconds: now(), body, secrets: [secret] });
    expect(() => new Webhook(secret).verify(body.replace('delivered', 'read'), { ...headers })).toThrow();
  });

  it('does not verify with another secret', () => {
    const headers = signedHeaders({ id, timestampSeconds: now(), body, secrets: [generateWebhookSecret()] });
    expect(() => new Webhook(generateWebhookSecret()).verify(body, { ...headers })).toThrow();
  });

  it('sends two signatures after a rotation, each verifying with its own secret', () => {
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = signedHeaders({ id, timestampSeconds: now(), body, secrets: [current, previous] });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(previous).verify(body, { ...headers })).not.toThrow();
  });

  it('matches the Standard Webhooks reference vector', () => {
    // From the Standard Webhooks reference libraries: secret, id, timestamp and payload give this signature.
    const headers = signedHeaders({
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestampSeconds: 1614265330,
      body: '{"test": 2432232314}',
      secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    });
    expect(headers['webhook-signature']).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});
