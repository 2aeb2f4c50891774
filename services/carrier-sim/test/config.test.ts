import { ConfigError, loadConfig } from '../src/config';
import { createSendLogStore, type SendRecord } from '../src/state/send-log.store';

describe('config', () => {
  it('applies sandbox defaults and freezes the result', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      httpPort: 8090,
      smppPort: 2775,
      templateReviewMs: 300,
    });
    expect(config.chat).toEqual({
      webhookUrl: 'http://127.0.0.1:8080/v1/providers/chat/webhook',
      appSecret: 'sandbox-chat-app-secret',
      accessToken: 'sandbox-chat-token',
      wabaId: '100000000000001',
    });
    expect(config.smpp).toMatchObject({ systemId: 'switchboard', password: 'sandbox' });
    expect(config.rbm.webhookUrl).toBe('http://127.0.0.1:8080/v1/providers/rcs/events');
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads overrides', () => {
    const config = loadConfig({ PORT: '0', SIM_GATEWAY_URL: 'https://gw.example/' });
    expect(config.httpPort).toBe(0);
    // The callback paths are the gateway's fixed routes.
    expect(config.chat.webhookUrl).toBe('https://gw.example/v1/providers/chat/webhook');
    expect(config.rbm.webhookUrl).toBe('https://gw.example/v1/providers/rcs/events');
    // The retry schedule is a constant now; webhook-poster.int.test.ts drives the poster with a schedule of its own.
    expect(config.webhook.retryDelaysMs).toEqual([250, 500, 1000, 2000, 4000, 8000]);
  });

  it.each([
    [{ PORT: '70000' }],
    [{ LOG_LEVEL: 'loud' }],
    [{ SIM_GATEWAY_URL: 'ftp://x' }],
    // Retired names are refused, naming the replacement, rather than silently ignored.
    [{ SIM_CHAT_WEBHOOK_URL: 'http://127.0.0.1:8080/v1/providers/chat/webhook' }],
    [{ SIM_SMPP_PASSWORD: 'secret' }],
  ])('refuses %p', (env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
  });

  it.each(['SIM_RECEIPT_DELAY_MS', 'SIM_ENFORCE_CHAT_WINDOW', 'SIM_RECEIPT_BACKLOG_MAX'])('refuses the retired %s, naming PUT /sim/behaviour', (name) => {
    expect(() => loadConfig({ [name]: '50' })).toThrow(new RegExp(`${name} is no longer read; use the carrier simulator's PUT /sim/behaviour`));
  });
});

describe('send log', () => {
  const record = (outcome: SendRecord['outcome'], to = '+15550000105'): SendRecord => ({
    channel: 'sms',
    to,
    from: '+15550001000',
    type: 'text',
    text: 'x',
    client_ref: null,
    upstream_message_id: null,
    outcome,
    error_code: null,
    parts: 1,
    at: '',
  });

  it('counts throttles since the last accepted send of the same channel and recipient', () => {
    const log = createSendLogStore();
    log.add(record('throttled'));
    log.add(record('throttled'));
    log.add(record('throttled', '+15550000205'));
    expect(log.throttledSinceAccepted('sms', '+15550000105')).toBe(2);
    log.add(record('accepted'));
    expect(log.throttledSinceAccepted('sms', '+15550000105')).toBe(0);
    expect(log.throttledSinceAccepted('chat', '+15550000105')).toBe(0);
  });

  it('filters by recipient with or without the plus sign', () => {
    const log = createSendLogStore();
    log.add(record('accepted'));
    expect(log.list({ to: '15550000105' })).toHaveLength(1);
    expect(log.list({ to: '+15550000105', channel: 'chat' })).toHaveLength(0);
  });
});
