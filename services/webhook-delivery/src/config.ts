import { describeCommonConfig, EnvReader, type Env, readCommonConfig, readJobLock, readTargetGuard, type CommonConfig } from '@switchboard/runtime';
import { SecretKeyring, SECRETS_KEYS_FORMAT } from '@switchboard/store';
import { DEFAULT_RETRY_SCHEDULE_MS, parseRetrySchedule, type TargetPolicy } from '@switchboard/webhooks';

export interface WebhookDeliveryConfig extends CommonConfig {
  healthPort: number;
  /** Where `/healthz`, `/readyz` and `/metrics` listen; containers set 0.0.0.0 so probes and Prometheus reach them. */
  healthHost: string;
  /** Delivery jobs and, as many, fan-out jobs in flight per process: fan-outs running together share their statements. */
  concurrency: number;
  /** Attempts in flight per target across every process, so one slow endpoint cannot take every slot. */
  endpointConcurrency: number;
  timeoutMs: number;
  retryScheduleMs: number[];
  stalledIntervalMs: number;
  lockDurationMs: number;
  policy: TargetPolicy;
  /** Opens the sealed signing secrets (docs/webhooks.md, "Secrets at rest"). */
  secretsKeys: SecretKeyring;
  /** Whole months of messages and events kept behind the current one; undefined keeps them forever (docs/operations.md#retention). */
  retentionMonths: number | undefined;
}

export function loadConfig(env: Env = process.env): Readonly<WebhookDeliveryConfig> {
  const r = new EnvReader(env);
  const scheduleText = r.optionalString('WEBHOOK_RETRY_SCHEDULE_MS');
  const schedule = scheduleText === undefined ? [...DEFAULT_RETRY_SCHEDULE_MS] : parseRetrySchedule(scheduleText);
  if (!schedule || schedule.length === 0) r.problems.push(`WEBHOOK_RETRY_SCHEDULE_MS must be comma-separated milliseconds, got "${scheduleText}"`);
  const config: WebhookDeliveryConfig = {
    ...readCommonConfig(r),
    healthPort: r.int('PORT', 8083, { min: 0, max: 65535 }),
    healthHost: r.string('HOST', '127.0.0.1'),
    concurrency: r.int('WEBHOOK_CONCURRENCY', 64, { min: 1 }),
    endpointConcurrency: r.int('WEBHOOK_ENDPOINT_CONCURRENCY', 8, { min: 1 }),
    timeoutMs: r.int('WEBHOOK_TIMEOUT_MS', 15_000, { min: 1 }),
    retryScheduleMs: schedule ?? [...DEFAULT_RETRY_SCHEDULE_MS],
    ...readJobLock(r),
    policy: readTargetGuard(r),
    secretsKeys: r.parsed('SECRETS_ENCRYPTION_KEYS', (value) => SecretKeyring.parse(value), SECRETS_KEYS_FORMAT),
    retentionMonths: r.optionalString('RETENTION_MONTHS') === undefined ? undefined : r.int('RETENTION_MONTHS', 0, { min: 1 }),
  };
  return r.finish('webhook-delivery', config);
}

/** Effective configuration for the start-up log: no secrets here, the URLs lose their credentials. */
export function describeConfig(c: WebhookDeliveryConfig): Record<string, unknown> {
  return { ...c, ...describeCommonConfig(c), secretsKeys: c.secretsKeys.toJSON() };
}
