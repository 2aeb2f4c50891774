import { ApiError, UnavailableError } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';

/**
 * Runs a call to Redis or the store; any failure becomes 503 `unavailable` (docs/errors.md#unavailable: nothing was
 * accepted), with the cause logged. Input never reaches these calls unvalidated, so a failure here is
 * about the dependency, not the request.
 */
export type DependencyGuard = <T>(dependency: 'redis' | 'store', call: () => Promise<T>) => Promise<T>;

export function createDependencyGuard(logger: Logger): DependencyGuard {
  return async (dependency, call) => {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ApiError) throw error;
      logger.warn('dependency unavailable', { dependency, error: (error as Error)?.message });
      throw new UnavailableError();
    }
  };
}
