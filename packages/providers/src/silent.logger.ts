import type { Logger } from '@switchboard/logger';

/** Used when a caller passes no logger, so adapters never have to null-check. */
export const silentLogger: Logger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
};
