/**
 * The simulator's only reader of the environment. Every value has a sandbox default so that
 * `node dist/main.js` works with no setup; the defaults match the gateway's sandbox defaults.
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface SimConfig {
  readonly host: string;
  /** 0 asks the OS for an ephemeral port; the ready line reports the real one. */
  readonly httpPort: number;
  readonly smppPort: number;
  /** The simulated phones' SIP port (UDP; docs/voice.md#carrier-simulator); 0 picks a free one. */
  readonly sipPort: number;
  readonly chat: {
    readonly webhookUrl: string;
    readonly appSecret: string;
    readonly accessToken: string;
    readonly wabaId: string;
  };
  readonly rbm: {
    readonly webhookUrl: string;
    readonly clientToken: string;
    readonly accessToken: string;
    /** Used for user messages pushed before any agent has sent to that customer. */
    readonly defaultAgentId: string;
  };
  readonly smpp: {
    readonly systemId: string;
    readonly password: string;
    /** How often the SMSC probes each bound ESME with enquire_link; 0 disables it. */
    readonly enquireLinkMs: number;
  };
  readonly deliveryDelayMs: number;
  readonly readDelayMs: number;
  readonly templateReviewMs: number;
  readonly enforceChatWindow: boolean;
  readonly webhook: {
    /** Delays before each retry of a failed webhook POST; its length is the retry count. */
    readonly retryDelaysMs: readonly number[];
    readonly timeoutMs: number;
  };
  /**
   * Reports owed and not yet taken (webhooks waiting for a connection, unanswered deliver_sm) past which new
   * sends are answered only once the backlog is under it again (docs/sandbox.md#receipts-under-load).
   */
  readonly receiptBacklogMax: number;
  readonly logLevel: LogLevel;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function text(env: Env, name: string, fallback: string): string {
  const value = env[name];
  return value === undefined || value.trim() === '' ? fallback : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name, String(fallback));
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name, String(fallback)).toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function url(env: Env, name: string, fallback: string): string {
  const raw = text(env, name, fallback);
  try {
    const parsed = new URL(raw);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
  return raw;
}

function delayList(env: Env, name: string, fallback: readonly number[]): readonly number[] {
  const raw = text(env, name, fallback.join(','));
  const values = raw.split(',').map((part) => Number(part.trim()));
  if (values.some((v) => !Number.isInteger(v) || v < 0 || v > 600_000)) {
    throw new ConfigError(`${name} must be a comma-separated list of milliseconds, got "${raw}"`);
  }
  return Object.freeze(values);
}

function logLevel(env: Env): LogLevel {
  const raw = text(env, 'SIM_LOG_LEVEL', 'info');
  if (raw === 'debug' || raw === 'info' || raw === 'warn' || raw === 'error') return raw;
  throw new ConfigError(`SIM_LOG_LEVEL must be debug, info, warn or error, got "${raw}"`);
}

export function loadConfig(env: Env = process.env): SimConfig {
  const config: SimConfig = {
    host: text(env, 'SIM_HOST', '127.0.0.1'),
    httpPort: integer(env, 'SIM_PORT', 8090, 0, 65535),
    smppPort: integer(env, 'SIM_SMPP_PORT', 2775, 0, 65535),
    sipPort: integer(env, 'SIM_SIP_PORT', 5070, 0, 65535),
    chat: Object.freeze({
      webhookUrl: url(env, 'SIM_CHAT_WEBHOOK_URL', 'http://127.0.0.1:8080/v1/providers/chat/webhook'),
      appSecret: text(env, 'SIM_CHAT_APP_SECRET', 'sandbox-chat-app-secret'),
      accessToken: text(env, 'SIM_CHAT_ACCESS_TOKEN', 'sandbox-chat-token'),
      wabaId: text(env, 'SIM_CHAT_WABA_ID', '100000000000001'),
    }),
    rbm: Object.freeze({
      webhookUrl: url(env, 'SIM_RBM_WEBHOOK_URL', 'http://127.0.0.1:8080/v1/providers/rcs/events'),
      clientToken: text(env, 'SIM_RBM_CLIENT_TOKEN', 'sandbox-rbm-client-token'),
      accessToken: text(env, 'SIM_RBM_ACCESS_TOKEN', 'sandbox-rbm-token'),
      defaultAgentId: text(env, 'SIM_RBM_AGENT_ID', 'switchboard-sandbox-agent'),
    }),
    smpp: Object.freeze({
      systemId: text(env, 'SIM_SMPP_SYSTEM_ID', 'switchboard'),
      password: text(env, 'SIM_SMPP_PASSWORD', 'sandbox'),
      enquireLinkMs: integer(env, 'SIM_SMPP_ENQUIRE_LINK_MS', 30_000, 0, 3_600_000),
    }),
    deliveryDelayMs: integer(env, 'SIM_DELIVERY_DELAY_MS', 200, 0, 3_600_000),
    readDelayMs: integer(env, 'SIM_READ_DELAY_MS', 200, 0, 3_600_000),
    templateReviewMs: integer(env, 'SIM_TEMPLATE_REVIEW_MS', 300, 0, 3_600_000),
    enforceChatWindow: flag(env, 'SIM_ENFORCE_CHAT_WINDOW', true),
    webhook: Object.freeze({
      retryDelaysMs: delayList(env, 'SIM_WEBHOOK_RETRY_DELAYS_MS', [250, 500, 1000, 2000, 4000, 8000]),
      timeoutMs: integer(env, 'SIM_WEBHOOK_TIMEOUT_MS', 5000, 100, 120_000),
    }),
    receiptBacklogMax: integer(env, 'SIM_RECEIPT_BACKLOG_MAX', 1_000, 2, 10_000_000),
    logLevel: logLevel(env),
  };
  return Object.freeze(config);
}

/** The values safe to log at start-up: no secrets or tokens. */
export function describeConfig(config: SimConfig): Record<string, unknown> {
  return {
    host: config.host,
    http_port: config.httpPort,
    smpp_port: config.smppPort,
    sip_port: config.sipPort,
    chat_webhook_url: config.chat.webhookUrl,
    chat_waba_id: config.chat.wabaId,
    rbm_webhook_url: config.rbm.webhookUrl,
    smpp_system_id: config.smpp.systemId,
    delivery_delay_ms: config.deliveryDelayMs,
    read_delay_ms: config.readDelayMs,
    template_review_ms: config.templateReviewMs,
    enforce_chat_window: config.enforceChatWindow,
    webhook_retry_delays_ms: config.webhook.retryDelaysMs,
    receipt_backlog_max: config.receiptBacklogMax,
  };
}
