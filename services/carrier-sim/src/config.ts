import { EnvReader, retiredSettingProblems, SANDBOX_CREDENTIALS, type Env } from '@switchboard/runtime';
import { ENQUIRE_LINK_MS } from './smpp/smsc-server';
import type { LogLevel } from './support/json-logger';
import { WEBHOOK_RETRY_DELAYS_MS, WEBHOOK_TIMEOUT_MS } from './webhooks/webhook-poster';

/**
 * The simulator's only reader of the environment. Every value has a default so that `node dist/main.js` works with
 * no setup; its credentials are not settings but SANDBOX_CREDENTIALS, which the services' sandbox defaults share. How
 * the upstreams behave (receipt delay, chat window, receipt backlog) is no setting either: a test sets it at run
 * time through PUT /sim/behaviour (docs/sandbox.md#behaviour-at-run-time).
 */

export type { LogLevel };

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
  readonly templateReviewMs: number;
  readonly webhook: {
    /** Delays before each retry of a failed webhook POST; its length is the retry count. */
    readonly retryDelaysMs: readonly number[];
    readonly timeoutMs: number;
  };
  readonly logLevel: LogLevel;
}

export class ConfigError extends Error {}

/** The agent of user messages pushed before any agent has sent to that customer. */
const SANDBOX_RBM_AGENT_ID = 'switchboard-sandbox-agent';
/** 300 ms: a template's verdict comes after its submission has been answered, as Meta's review does, without a test waiting long. */
export const TEMPLATE_REVIEW_MS = 300;
/** The gateway's fixed callback routes (docs/upstream-wire.md), appended to SIM_GATEWAY_URL. */
export const GATEWAY_CALLBACK_PATHS = { chat: '/v1/providers/chat/webhook', rbm: '/v1/providers/rcs/events' } as const;
const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** SIM_GATEWAY_URL: the gateway base URL, without a trailing slash; anything but http(s) is a problem of `r`. */
function gatewayUrl(r: EnvReader): string {
  const raw = r.string('SIM_GATEWAY_URL', 'http://127.0.0.1:8080');
  try {
    const parsed = new URL(raw);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return raw.replace(/\/+$/, '');
  } catch {
    // reported below
  }
  r.problems.push(`SIM_GATEWAY_URL must be an http(s) URL, got "${raw}"`);
  return raw;
}

/** The services' LOG_LEVEL; the simulator's own logger knows four of winston's levels and takes the nearest. */
function logLevel(r: EnvReader): LogLevel {
  const raw = r.string('LOG_LEVEL', 'info');
  if ((LOG_LEVELS as readonly string[]).includes(raw)) return raw as LogLevel;
  if (['http', 'verbose', 'silly'].includes(raw)) return 'debug';
  r.problems.push(`LOG_LEVEL must be debug, info, warn or error, got "${raw}"`);
  return 'info';
}

/** Reads the simulator's variables through the services' EnvReader; throws a ConfigError naming every problem at once. */
export function loadConfig(env: Env = process.env): SimConfig {
  const r = new EnvReader(env);
  const gateway = gatewayUrl(r);
  const config: SimConfig = {
    host: r.string('HOST', '127.0.0.1'),
    httpPort: r.int('PORT', 8090, { min: 0, max: 65535 }),
    smppPort: r.int('SIM_SMPP_PORT', 2775, { min: 0, max: 65535 }),
    sipPort: r.int('SIM_SIP_PORT', 5070, { min: 0, max: 65535 }),
    chat: Object.freeze({
      webhookUrl: `${gateway}${GATEWAY_CALLBACK_PATHS.chat}`,
      appSecret: SANDBOX_CREDENTIALS.chat.appSecret,
      accessToken: SANDBOX_CREDENTIALS.chat.accessToken,
      wabaId: SANDBOX_CREDENTIALS.chat.wabaId,
    }),
    rbm: Object.freeze({
      webhookUrl: `${gateway}${GATEWAY_CALLBACK_PATHS.rbm}`,
      clientToken: SANDBOX_CREDENTIALS.rbm.clientToken,
      accessToken: SANDBOX_CREDENTIALS.rbm.accessToken,
      defaultAgentId: SANDBOX_RBM_AGENT_ID,
    }),
    smpp: Object.freeze({
      systemId: SANDBOX_CREDENTIALS.smpp.systemId,
      password: SANDBOX_CREDENTIALS.smpp.password,
      enquireLinkMs: ENQUIRE_LINK_MS,
    }),
    templateReviewMs: TEMPLATE_REVIEW_MS,
    webhook: Object.freeze({ retryDelaysMs: WEBHOOK_RETRY_DELAYS_MS, timeoutMs: WEBHOOK_TIMEOUT_MS }),
    logLevel: logLevel(r),
  };
  r.problems.push(...retiredSettingProblems(env));
  if (r.problems.length > 0) throw new ConfigError(r.problems.join('; '));
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
    template_review_ms: config.templateReviewMs,
  };
}
