import { accessSync, constants } from 'node:fs';
import { isIP } from 'node:net';
import type { UnitPrices } from '@switchboard/domain';
import {
  describeCommonConfig,
  EnvReader,
  type Env,
  readCommonConfig,
  readTargetGuard,
  readUnitPrices,
  SANDBOX_CREDENTIALS,
  SANDBOX_SENDER,
  type CommonConfig,
} from '@switchboard/runtime';
import type { WebhookTargetPolicy } from '@switchboard/schemas';
import { SecretKeyring, SECRETS_KEYS_FORMAT } from '@switchboard/store';
import { readGatewayWorkers } from './cluster/worker-count';

/** The gateway's one validated, frozen configuration (docs/configuration.md names every variable). */
export interface GatewayConfig extends CommonConfig {
  host: string;
  port: number;
  rateLimitPerSecond: number;
  prices: UnitPrices;
  sandboxSender: string;
  chatAppSecret: string;
  chatVerifyToken: string;
  rbmClientToken: string;
  /** The target guard of callback URLs, webhook endpoints and, for allowHttp, chat media links (docs/webhooks.md#target-guard-ssrf). */
  webhookTargets: WebhookTargetPolicy;
  /** Templates are read on every template send; a short cache keeps that off the store. */
  templateCacheTtlMs: number;
  /** Contract §1: larger bodies get 413. */
  bodyLimitBytes: number;
  /** An in-flight Idempotency-Key reservation older than this is presumed orphaned by a crash and taken over. */
  idempotencyLeaseMs: number;
  /** Numbers of an account are cached this long, so that sender resolution costs no query per request. */
  numbersCacheTtlMs: number;
  /** Every Redis command fails after this long, so a stalled Redis gives a 503 instead of a hanging request. */
  redisCommandTimeoutMs: number;
  /** How long start-up waits for Redis before giving up. */
  startupTimeoutMs: number;
  /** On SIGTERM, a keep-alive connection that answered less than this long ago may carry one more request. */
  drainIdleGraceMs: number;
  /** On SIGTERM, connections still open after this long are cut (see docs/architecture.md, shutdown). */
  drainDeadlineMs: number;
  /** Seals webhook signing secrets at rest (docs/webhooks.md, "Secrets at rest"). */
  secretsKeys: SecretKeyring;
  /** PEM files; set together, the gateway serves HTTPS and rereads them on SIGHUP (docs/running.md#https). */
  tls?: { certFile: string; keyFile: string };
  /** express' 'trust proxy': which peers may set X-Forwarded-Proto and X-Forwarded-For (docs/configuration.md#tls-and-proxies). */
  trustProxy: TrustProxy;
  /** Requests not made over https (directly or per a trusted proxy) get 403 `tls_required`. */
  requireTls: boolean;
  /** PUBLIC_BASE_URL: the absolute URL the OpenAPI document's `servers` names; unset, the host each request for it was sent to. */
  publicBaseUrl: string | undefined;
  /** Live calls (ringing or in progress) an account may have at once; more get 429 (docs/voice.md#concurrent-call-limit). */
  voiceConcurrentCallsPerAccount: number;
  /** GATEWAY_WORKERS: processes serving the port; main.ts forks them (docs/running.md#gateway-workers). */
  gatewayWorkers: number;
}

/** false (default), true, a hop count, or a list of addresses, CIDRs and express' names such as `loopback`. */
export type TrustProxy = boolean | number | string[];

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** Parses TRUST_PROXY into the value express' 'trust proxy' setting takes; throws saying what is wrong. */
export function parseTrustProxy(raw: string): TrustProxy {
  const text = raw.trim().toLowerCase();
  if (text === 'false' || text === '0') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 32) throw new Error(`a hop count must be at most 32, got ${hops}`);
    return hops;
  }
  const entries = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (PROXY_NAMES.includes(entry)) continue;
    const [address, prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const maxPrefix = family === 6 ? 128 : 32;
    const prefixOk = prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= maxPrefix);
    if (family === 0 || !prefixOk || rest.length > 0) throw new Error(`"${entry}" is not an IP address, a CIDR or one of ${PROXY_NAMES.join(', ')}`);
  }
  if (entries.length === 0) throw new Error('the list is empty');
  return entries;
}

/** TLS_CERT_FILE and TLS_KEY_FILE: both or neither, each readable now (the gateway rereads them on SIGHUP). */
export function readTlsFiles(r: EnvReader): GatewayConfig['tls'] {
  const certFile = r.optionalString('TLS_CERT_FILE');
  const keyFile = r.optionalString('TLS_KEY_FILE');
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) {
    r.problems.push('TLS_CERT_FILE and TLS_KEY_FILE must be set together (or neither, for plain HTTP)');
    return undefined;
  }
  for (const [name, file] of [
    ['TLS_CERT_FILE', certFile],
    ['TLS_KEY_FILE', keyFile],
  ]) {
    try {
      accessSync(file, constants.R_OK);
    } catch (error) {
      r.problems.push(`${name} is not readable: ${(error as Error).message}`);
    }
  }
  return Object.freeze({ certFile, keyFile });
}

const TRUST_PROXY_FORMAT = 'false, true, a hop count, or a comma-separated list of IPs, CIDRs, loopback, linklocal, uniquelocal';

/** An absolute http(s) URL without a trailing slash: what the OpenAPI document's `servers` names. */
export function parsePublicBaseUrl(raw: string): string {
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
  return raw.replace(/\/+$/, '');
}

export function loadConfig(env: Env = process.env): Readonly<GatewayConfig> {
  const r = new EnvReader(env);
  const config: GatewayConfig = {
    ...readCommonConfig(r),
    host: r.string('HOST', '127.0.0.1'),
    port: r.int('PORT', 8080, { min: 0, max: 65_535 }),
    rateLimitPerSecond: r.int('RATE_LIMIT_PER_SECOND', 1_000, { min: 1, max: 10_000_000 }),
    prices: readUnitPrices(r),
    sandboxSender: SANDBOX_SENDER,
    chatAppSecret: r.string('CHAT_APP_SECRET', SANDBOX_CREDENTIALS.chat.appSecret),
    chatVerifyToken: r.string('CHAT_VERIFY_TOKEN', 'sandbox-verify-token'),
    rbmClientToken: r.string('RBM_CLIENT_TOKEN', SANDBOX_CREDENTIALS.rbm.clientToken),
    webhookTargets: readTargetGuard(r),
    templateCacheTtlMs: 1_000,
    bodyLimitBytes: 256 * 1024,
    idempotencyLeaseMs: 10_000,
    numbersCacheTtlMs: 1_000,
    redisCommandTimeoutMs: 2_000,
    startupTimeoutMs: 30_000,
    drainIdleGraceMs: 1_000,
    drainDeadlineMs: 10_000,
    secretsKeys: r.parsed('SECRETS_ENCRYPTION_KEYS', (text) => SecretKeyring.parse(text), SECRETS_KEYS_FORMAT),
    tls: readTlsFiles(r),
    trustProxy: env.TRUST_PROXY ? r.parsed('TRUST_PROXY', parseTrustProxy, TRUST_PROXY_FORMAT) : false,
    requireTls: r.bool('REQUIRE_TLS', false),
    publicBaseUrl: env.PUBLIC_BASE_URL ? r.parsed('PUBLIC_BASE_URL', parsePublicBaseUrl, 'an absolute http(s) URL such as https://api.example.com') : undefined,
    voiceConcurrentCallsPerAccount: r.int('VOICE_CONCURRENT_CALLS_PER_ACCOUNT', 10, { min: 1, max: 100_000 }),
    gatewayWorkers: readGatewayWorkers(r),
  };
  return r.finish('api-gateway', config);
}

const SECRETS = ['chatAppSecret', 'chatVerifyToken', 'rbmClientToken'] as const;

/** The effective values worth logging at start-up: everything but secrets and credentials in URLs. */
export function describeConfig(config: Readonly<GatewayConfig>): Record<string, unknown> {
  const described: Record<string, unknown> = { ...config, ...describeCommonConfig(config) };
  for (const name of SECRETS) delete described[name];
  described.secretsKeys = config.secretsKeys.toJSON();
  return described;
}
