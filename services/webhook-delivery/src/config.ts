import { describeCommonConfig, EnvReader, type Env, readCommonConfig, type CommonConfig } from '@switchboard/runtime';
import { SecretKeyring, SECRETS_KEYS_FORMAT } from '@switchboard/store';
import { DEFAULT_RETRY_SCHEDULE_MS, parseRetrySchedule, type TargetPolicy } from '@switchboard/webhooks';

export interface WebhookDeliveryConfig extends CommonConfig {
  healthPort: number;
  /** Where `/healthz`, `/readyz` and `/metrics` listen; containers set 0.0.0.0 so probes and Prometheus reach them. */
  healthHost: string;
  /** Delivery attempts in flight per process. */
  concurrency: number;
  fanoutConcurrency: number;
  /** Attempts in flight per target across every process, so one slow endpoint cannot take every slot. */
  endpointConcurrency: number;
  /** How long a process keeps a leased endpoint slot for attempt after attempt (endpoint-slots.ts); 0 leases one per attempt. */
  slotLeaseMs: number;
  /** Wait before a job whose target is saturated tries for a slot again. */
  saturationDelayMs: number;
  timeoutMs: number;
  retryScheduleMs: number[];
  jitterRatio: number;
  /** An endpoint failing without a success for this long is disabled. */
  disableAfterMs: number;
  responseLimitBytes: number;
  excerptChars: number;
  outboxSweepIntervalMs: number;
  /** Unpublished events younger than this are left to their producer, which is about to publish them. */
  outboxSweepAgeMs: number;
  outboxBatchSize: number;
  stalledIntervalMs: number;
  lockDurationMs: number;
  policy: TargetPolicy;
  /**
   * Sends the hot statements as prepared statements (parsed and planned once per connection). Off for a pooler
   * that cannot carry them, such as PgBouncer in transaction mode before 1.21 (docs/operations.md).
   */
  preparedStatements: boolean;
  /** Opens the sealed signing secrets (docs/webhooks.md, "Secrets at rest"). */
  secretsKeys: SecretKeyring;
}

export function loadConfig(env: Env = process.env): Readonly<WebhookDeliveryConfig> {
  const r = new EnvReader(env);
  const scheduleText = r.optionalString('WEBHOOK_RETRY_SCHEDULE_MS');
  const schedule = scheduleText === undefined ? [...DEFAULT_RETRY_SCHEDULE_MS] : parseRetrySchedule(scheduleText);
  if (!schedule || schedule.length === 0) r.problems.push(`WEBHOOK_RETRY_SCHEDULE_MS must be comma-separated milliseconds, got "${scheduleText}"`);
  const config: WebhookDeliveryConfig = {
    ...readCommonConfig(r),
    healthPort: r.int('HEALTH_PORT', 8083, { min: 0, max: 65535 }),
    healthHost: r.string('HEALTH_HOST', '127.0.0.1'),
    concurrency: r.int('WEBHOOK_CONCURRENCY', 64, { min: 1 }),
    // As many fan-outs as attempts: fan-outs running together share their statements and addBulk (docs/performance.md).
    fanoutConcurrency: r.int('WEBHOOK_FANOUT_CONCURRENCY', 64, { min: 1 }),
    endpointConcurrency: r.int('WEBHOOK_ENDPOINT_CONCURRENCY', 8, { min: 1 }),
    slotLeaseMs: r.int('WEBHOOK_SLOT_LEASE_MS', 1_000, { min: 0 }),
    saturationDelayMs: r.int('WEBHOOK_SATURATION_DELAY_MS', 250, { min: 1 }),
    timeoutMs: r.int('WEBHOOK_TIMEOUT_MS', 15_000, { min: 1 }),
    retryScheduleMs: schedule ?? [...DEFAULT_RETRY_SCHEDULE_MS],
    jitterRatio: r.int('WEBHOOK_JITTER_PERCENT', 20, { min: 0, max: 100 }) / 100,
    disableAfterMs: r.int('WEBHOOK_DISABLE_AFTER_MS', 5 * 24 * 3_600_000, { min: 1 }),
    responseLimitBytes: r.int('WEBHOOK_RESPONSE_LIMIT_BYTES', 64 * 1024, { min: 0 }),
    excerptChars: r.int('WEBHOOK_RESPONSE_EXCERPT_CHARS', 1024, { min: 0 }),
    outboxSweepIntervalMs: r.int('OUTBOX_SWEEP_INTERVAL_MS', 1_000, { min: 10 }),
    outboxSweepAgeMs: r.int('OUTBOX_SWEEP_AGE_MS', 5_000, { min: 0 }),
    outboxBatchSize: r.int('OUTBOX_BATCH_SIZE', 500, { min: 1 }),
    stalledIntervalMs: r.int('STALLED_INTERVAL_MS', 30_000, { min: 100 }),
    lockDurationMs: r.int('LOCK_DURATION_MS', 30_000, { min: 100 }),
    policy: {
      allowHttp: r.bool('WEBHOOK_ALLOW_HTTP', false),
      allowPrivateNetworks: r.bool('WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
      allowedHosts: r.list('WEBHOOK_ALLOWED_HOSTS', []),
    },
    preparedStatements: r.bool('WEBHOOK_PREPARED_STATEMENTS', true),
    secretsKeys: r.parsed('SECRETS_ENCRYPTION_KEYS', SecretKeyring.parse, SECRETS_KEYS_FORMAT),
  };
  return r.finish('webhook-delivery', config);
}

/** Effective configuration for the start-up log: no secrets here, the URLs lose their credentials. */
export function describeConfig(c: WebhookDeliveryConfig): Record<string, unknown> {
  return { ...c, ...describeCommonConfig(c), secretsKeys: c.secretsKeys.toJSON() };
}
