import winston from 'winston';

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
}

/**
 * The one logger factory: JSON lines on stdout with structured fields (`request_id`, `message_id`,
 * `job_id`, `queue`, `attempt`) passed as metadata, never formatted into the text.
 */
export function getLogger({ service, level = 'info' }: LoggerOptions): Logger {
  return winston.createLogger({
    level,
    defaultMeta: { service },
    format: winston.format.combine(winston.format.timestamp(), winston.format.errors({ stack: true }), winston.format.json()),
    transports: [new winston.transports.Console()],
  });
}
