import { inspect } from 'node:util';
import winston from 'winston';

/** `json`: one JSON object per line, for collectors. `pretty`: one colored line per entry, for a person at a terminal. */
export type LogFormat = 'json' | 'pretty';

export const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];

/**
 * LOG_FORMAT when set, otherwise pretty at a terminal and JSON everywhere else: production output is
 * piped to a collector, never a TTY, so it stays machine-readable without anyone configuring it.
 */
export function chooseLogFormat(requested: string | undefined, stdoutIsTty: boolean): LogFormat {
  if (requested === undefined || requested === '') return stdoutIsTty ? 'pretty' : 'json';
  if ((LOG_FORMATS as readonly string[]).includes(requested)) return requested as LogFormat;
  throw new Error(`LOG_FORMAT must be one of ${LOG_FORMATS.join(', ')}, got "${requested}"`);
}

const HIDDEN = new Set(['level', 'message', 'timestamp', 'service']);

/** `10:41:02.123 info  api-gateway ready url=http://…`: the fields stay key=value, so nothing is lost. */
export function prettyLine(info: Record<string, unknown>, colorize: (level: string, text: string) => string): string {
  const time = typeof info.timestamp === 'string' ? info.timestamp.slice(11, 23) : '';
  const level = String(info.level);
  const fields = Object.keys(info)
    .filter((key) => !HIDDEN.has(key))
    .map((key) => `${key}=${typeof info[key] === 'string' ? info[key] : inspect(info[key], { breakLength: Infinity, depth: 4 })}`);
  return [time, colorize(level, level.padEnd(5)), `\x1b[2m${typeof info.service === 'string' ? info.service : ''}\x1b[0m`, String(info.message), ...fields]
    .filter(Boolean)
    .join(' ');
}

const colorizer = winston.format.colorize();

export function winstonFormat(format: LogFormat): winston.Logform.Format {
  const base = [winston.format.timestamp(), winston.format.errors({ stack: true })];
  if (format === 'json') return winston.format.combine(...base, winston.format.json());
  return winston.format.combine(
    ...base,
    winston.format.printf((info) => prettyLine(info, (level, text) => colorizer.colorize(level, text))),
  );
}
