import type { Env } from './env';

const LISTEN = 'HOST and PORT, the listen address of each process';
const SANDBOX_CREDENTIALS = 'nothing: the sandbox credentials are fixed (SANDBOX_CREDENTIALS, docs/sandbox.md)';
const CONSTANT = 'nothing: it is a constant now (docs/configuration.md lists them)';
const TTS_URI = 'VOICE_TTS, one URI: flite:kal, espeak:en-gb, or https://:KEY@host?model=tts-1&voice=alloy';
const STT_URI = 'VOICE_STT, one URI: pocketsphinx, or https://:KEY@host?model=whisper-1';
const LLM_URI = 'LLM_URL, one URI: https://:KEY@api.openai.com?model=gpt-4o-mini';
const SIP_LISTEN = 'VOICE_SIP_LISTEN, address:port such as 0.0.0.0:5060';
const SANDBOX_SIP = 'SANDBOX_UPSTREAMS, a JSON object whose sip is a SIP URI such as sip:127.0.0.1:5070';
const SIM_BEHAVIOUR = "the carrier simulator's PUT /sim/behaviour, at run time (docs/sandbox.md#behaviour-at-run-time)";
const SMS_SENDER_RATE = 'sender_rate of each SMS_UPSTREAMS entry (or SANDBOX_UPSTREAMS.sms), a rate such as 30 or per bind such as "30/bind"';
const TARGET_GUARD = 'TARGET_ALLOW_HTTP, TARGET_ALLOW_PRIVATE_NETWORKS and TARGET_ALLOWED_HOSTS (docs/webhooks.md#target-guard-ssrf)';

/**
 * Variables that are no longer read, with what replaced them. A deployment still setting one would otherwise run
 * with a default it did not choose, silently; it is refused at start-up instead, naming the replacement.
 */
export const RETIRED_SETTINGS: Readonly<Record<string, string>> = {
  MIGRATE_ON_START: 'nothing: services apply pending migrations at start-up, under an advisory lock',
  SWITCHBOARD_HTTPS: 'npm start -- --https',
  CONSOLE_BASE_URL: 'switchboard users create --base-url',
  HEALTH_PORT: LISTEN,
  HEALTH_HOST: LISTEN,
  SIM_HOST: LISTEN,
  SIM_PORT: LISTEN,
  SIM_LOG_LEVEL: 'LOG_LEVEL',
  SIM_CHAT_WEBHOOK_URL: 'SIM_GATEWAY_URL, the gateway base URL',
  SIM_RBM_WEBHOOK_URL: 'SIM_GATEWAY_URL, the gateway base URL',
  SIM_CHAT_APP_SECRET: SANDBOX_CREDENTIALS,
  SIM_CHAT_ACCESS_TOKEN: SANDBOX_CREDENTIALS,
  SIM_RBM_CLIENT_TOKEN: SANDBOX_CREDENTIALS,
  SIM_RBM_ACCESS_TOKEN: SANDBOX_CREDENTIALS,
  SIM_SMPP_SYSTEM_ID: SANDBOX_CREDENTIALS,
  SIM_SMPP_PASSWORD: SANDBOX_CREDENTIALS,
  UPSTREAM_BREAKER_WINDOW: CONSTANT,
  UPSTREAM_BREAKER_MIN_CALLS: CONSTANT,
  UPSTREAM_BREAKER_COOL_DOWN_MS: CONSTANT,
  UPSTREAM_BREAKER_GAUGE_REFRESH_MS: CONSTANT,
  KEY_CACHE_TTL_MS: CONSTANT,
  VOICE_MEDIA_THREAD: 'nothing: the media thread is always on',
  VOICE_HEARTBEAT_MS: 'VOICE_LOST_AFTER_MS, from which the heartbeat follows',
  VOICE_TTS_RESPONSE_FORMAT: CONSTANT,
  OUTBOX_SWEEP_INTERVAL_MS: CONSTANT,
  SANDBOX_SENDER: 'nothing: the sandbox sender is fixed, +14155550100 (docs/sandbox.md)',
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'OTEL_EXPORTER_OTLP_ENDPOINT, the collector base URL (spans go to <url>/v1/traces)',
  REDIS_PORT: 'REDIS_URL, to run npm start on a Redis of your own',
  PRICE_CHAT: 'UNIT_PRICES, such as chat=1,rcs=1,sms=1',
  PRICE_RCS: 'UNIT_PRICES, such as chat=1,rcs=1,sms=1',
  PRICE_SMS: 'UNIT_PRICES, such as chat=1,rcs=1,sms=1',
  SIM_DELIVERY_DELAY_MS: SIM_BEHAVIOUR,
  SIM_READ_DELAY_MS: SIM_BEHAVIOUR,
  SIM_TEMPLATE_REVIEW_MS: CONSTANT,
  VOICE_TTS_PROVIDER: 'VOICE_TTS: flite, espeak, or the URL of an OpenAI-compatible server',
  VOICE_TTS_URL: 'VOICE_TTS: flite, espeak, or the URL of an OpenAI-compatible server',
  VOICE_STT_PROVIDER: 'VOICE_STT: pocketsphinx, or the URL of an OpenAI-compatible server',
  VOICE_STT_URL: 'VOICE_STT: pocketsphinx, or the URL of an OpenAI-compatible server',
  SENDER_RATE_SMS_PER_BIND: SMS_SENDER_RATE,
  STALLED_INTERVAL_MS: 'LOCK_DURATION_MS, which the stalled check now follows',
  CHAT_API_BASE_URL: 'CHAT_UPSTREAMS',
  CHAT_ACCESS_TOKEN: 'CHAT_UPSTREAMS',
  CHAT_WABA_ID: 'CHAT_UPSTREAMS',
  RBM_API_BASE_URL: 'RCS_UPSTREAMS',
  RBM_ACCESS_TOKEN: 'RCS_UPSTREAMS',
  RBM_AGENT_ID: 'RCS_UPSTREAMS',
  SMPP_HOST: 'SMS_UPSTREAMS',
  SMPP_PORT: 'SMS_UPSTREAMS',
  SMPP_SYSTEM_ID: 'SMS_UPSTREAMS',
  SMPP_PASSWORD: 'SMS_UPSTREAMS',
  SANDBOX_CHAT_API_BASE_URL: 'SANDBOX_UPSTREAMS, its chat list',
  SANDBOX_RBM_API_BASE_URL: 'SANDBOX_UPSTREAMS, its rcs list',
  SANDBOX_SMPP_HOST: 'SANDBOX_UPSTREAMS, its sms list',
  SANDBOX_SMPP_PORT: 'SANDBOX_UPSTREAMS, its sms list',
  CHAT_MEDIA_ALLOW_HTTP: TARGET_GUARD,
  MEDIA_ALLOW_PRIVATE_NETWORKS: TARGET_GUARD,
  WEBHOOK_ALLOW_HTTP: TARGET_GUARD,
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: TARGET_GUARD,
  WEBHOOK_ALLOWED_HOSTS: TARGET_GUARD,
  VOICE_RTP_PORT_MIN: 'VOICE_RTP_PORTS, a range such as 10000-20000',
  VOICE_RTP_PORT_MAX: 'VOICE_RTP_PORTS, a range such as 10000-20000',
  VOICE_SIP_TRUNK_HOST: 'VOICE_SIP_TRUNK, a SIP URI such as sip:user:password@host:5060',
  VOICE_SIP_TRUNK_PORT: 'VOICE_SIP_TRUNK, a SIP URI such as sip:user:password@host:5060',
  VOICE_SIP_USERNAME: 'VOICE_SIP_TRUNK, a SIP URI such as sip:user:password@host:5060',
  VOICE_SIP_PASSWORD: 'VOICE_SIP_TRUNK, a SIP URI such as sip:user:password@host:5060',
  SANDBOX_SIP_HOST: SANDBOX_SIP,
  SANDBOX_SIP_PORT: SANDBOX_SIP,
  SANDBOX_SIP_TRUNK: SANDBOX_SIP,
  SANDBOX_LLM_BASE_URL: "SANDBOX_UPSTREAMS, a JSON object whose llm is the carrier simulator's base URL",
  VOICE_TTS_VOICE: TTS_URI,
  VOICE_TTS_API_KEY: TTS_URI,
  VOICE_TTS_MODEL: TTS_URI,
  VOICE_STT_API_KEY: STT_URI,
  VOICE_STT_MODEL: STT_URI,
  LLM_BASE_URL: LLM_URI,
  LLM_API_KEY: LLM_URI,
  LLM_MODEL: LLM_URI,
  VOICE_SIP_BIND_ADDRESS: SIP_LISTEN,
  VOICE_SIP_LOCAL_PORT: SIP_LISTEN,
  OUTBOX_SWEEP_AGE_MS: CONSTANT,
  WEBHOOK_DISABLE_AFTER_MS: CONSTANT,
  IDEMPOTENCY_TTL_SECONDS: 'nothing: an Idempotency-Key is kept 24 hours, as Stripe keeps them (docs/api.md#idempotency-key)',
  TRACING_ENABLED: 'OTEL_EXPORTER_OTLP_ENDPOINT: tracing is on exactly when it is set (docs/observability.md#traces)',
  TEST_EMBEDDED_POSTGRES: 'TEST_DATABASE_URL=embedded',
  DEVSTACK_ECHO: 'nothing: npm start echoes the services it starts; a test stack takes startStack({ echo: true })',
  SMPP_BINDS: 'binds of each SMS_UPSTREAMS entry (or SANDBOX_UPSTREAMS.sms), 1 to 64',
  SMPP_WINDOW: 'window of each SMS_UPSTREAMS entry (or SANDBOX_UPSTREAMS.sms), 1 to 1000',
  SENDER_RATE_CHAT_PER_SECOND: 'sender_rate of each CHAT_UPSTREAMS entry (or SANDBOX_UPSTREAMS.chat), default 80',
  SENDER_RATE_SMS_PER_SECOND: SMS_SENDER_RATE,
  SENDER_RATE_RCS_PER_SECOND: 'sender_rate of each RCS_UPSTREAMS entry (or SANDBOX_UPSTREAMS.rcs), default 0 (no limit)',
  OPT_OUT_REPLY_TEXT: 'OPT_OUT_REPLIES, a JSON object such as {"stop":"…","start":"…"}',
  OPT_IN_REPLY_TEXT: 'OPT_OUT_REPLIES, a JSON object such as {"stop":"…","start":"…"}',
  SIM_RECEIPT_DELAY_MS: SIM_BEHAVIOUR,
  SIM_ENFORCE_CHAT_WINDOW: SIM_BEHAVIOUR,
  SIM_RECEIPT_BACKLOG_MAX: SIM_BEHAVIOUR,
  SANDBOX_CHAT_UPSTREAMS: 'SANDBOX_UPSTREAMS, its chat list',
  SANDBOX_RCS_UPSTREAMS: 'SANDBOX_UPSTREAMS, its rcs list',
  SANDBOX_SMS_UPSTREAMS: 'SANDBOX_UPSTREAMS, its sms list',
};

/** One problem per retired variable that is set, each naming its replacement. */
export function retiredSettingProblems(env: Env): string[] {
  return Object.entries(RETIRED_SETTINGS)
    .filter(([name]) => env[name] !== undefined && env[name] !== '')
    .map(([name, replacement]) => `${name} is no longer read; use ${replacement}`);
}
