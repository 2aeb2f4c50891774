export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * JSON-lines logger on stderr. Stdout is reserved for the single `ready` line that the
 * process launcher parses, so nothing else may write there.
 */
export function createJsonLogger(options: { service: string; level: LogLevel; write?: (line: string) => void }): Logger {
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const threshold = rank[options.level];
  const log =
    (level: LogLevel) =>
    (msg: string, fields: LogFields = {}) => {
      if (rank[level] < threshold) return;
      write(`${JSON.stringify({ time: new Date().toISOString(), level, service: options.service, msg, ...fields })}\n`);
    };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

export function errorFields(err: unknown): LogFields {
  if (err instanceof Error) return { error: err.message, error_name: err.name };
  return { error: String(err) };
}
