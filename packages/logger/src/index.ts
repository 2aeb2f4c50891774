import winston from 'winston';
import { chooseLogFormat, winstonFormat, type LogFormat } from './log-format';

export { chooseLogFormat, LOG_FORMATS, prettyLine, type LogFormat } from './log-format';

/**
 * The structured-log surface every package and service uses: a message plus fields. `getLogger` gives
 * the real one; tests pass a plain object with these four functions.
 */
export interface Logger {
  debug(message: string, fields?: object): void;
  info(message: string, fields?: object): void;
  warn(message: string, fields?: object): void;
  error(message: string, fields?: object): void;
}

export interface LoggerOptions {
  service: string;
  /** @defaultValue 'info' */
  level?: string;
  /** Services pass their config's `logFormat` (LOG_FORMAT). @defaultValue pretty when stdout is a TTY, else json */
  format?: LogFormat;
}

/**
 * The one logger factory: lines on stdout with structured fields (`request_id`, `message_id`,
 * `job_id`, `queue`, `attempt`) passed as metadata, never formatted into the text; JSON unless a
 * person is watching (docs/configuration.md#logs).
 */
export function getLogger({ service, level = 'info', format = chooseLogFormat(undefined, process.stdout.isTTY === true) }: LoggerOptions): Logger {
  return winston.createLogger({
    level,
    defaultMeta: { service },
    format: winstonFormat(format),
    transports: [new winston.transports.Console()],
  });
}
