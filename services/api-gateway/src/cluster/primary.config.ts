import { chooseLogFormat, type LogFormat } from '@switchboard/logger';
import { EnvReader, type Env } from '@switchboard/runtime';
import { readGatewayWorkers } from './worker-count';

/**
 * What the cluster primary needs, and nothing more. Kept apart from `config.ts` on purpose: the primary
 * forks and watches the workers and must stay small, and `config.ts` loads the store's modules (about 10 MB
 * of RSS) for its secrets keyring. Each worker validates the whole configuration itself.
 */
export interface PrimaryConfig {
  workers: number;
  logLevel: string;
  logFormat: LogFormat | undefined;
  /** The workers serve HTTPS and reread their certificate on SIGHUP, which the primary then passes on to them. */
  servesTls: boolean;
}

export function loadPrimaryConfig(env: Env = process.env): Readonly<PrimaryConfig> {
  const r = new EnvReader(env);
  const config: PrimaryConfig = {
    workers: readGatewayWorkers(r),
    logLevel: r.string('LOG_LEVEL', 'info'),
    logFormat: r.optionalString('LOG_FORMAT') ? r.parsed('LOG_FORMAT', (text) => chooseLogFormat(text, false), 'json or pretty') : undefined,
    // The workers validate the pair (config.ts); here only whether they will listen for SIGHUP.
    servesTls: r.optionalString('TLS_CERT_FILE') !== undefined && r.optionalString('TLS_KEY_FILE') !== undefined,
  };
  return r.finish('api-gateway', config);
}
