import axios from 'axios';
import type { Logger } from '../support/json-logger';
import type { Scheduler } from '../support/scheduler';

export interface WebhookDelivery {
  url: string;
  /** Sent byte for byte: signatures are computed over exactly this text. */
  body: string;
  headers: Record<string, string>;
  /** For logs only. */
  kind: string;
}

export interface WebhookPoster {
  post(delivery: WebhookDelivery): void;
  /** Aborts requests in flight; retries die with the scheduler. */
  stop(): void;
}

/**
 * Fire-and-forget POST with a short retry schedule. The gateway may start after the simulator or
 * restart mid-test, so a refused connection is retried rather than dropped, and a webhook that
 * never lands is only logged: the simulator must keep serving whatever happens downstream.
 */
export function createWebhookPoster(deps: {
  scheduler: Scheduler;
  logger: Logger;
  retryDelaysMs: readonly number[];
  timeoutMs: number;
}): WebhookPoster {
  const inFlight = new Set<AbortController>();
  let stopped = false;

  const attempt = async (delivery: WebhookDelivery, attemptNo: number): Promise<void> => {
    if (stopped) return;
    const controller = new AbortController();
    inFlight.add(controller);
    let failure: string;
    try {
      const response = await axios.post(delivery.url, delivery.body, {
        headers: { 'Content-Type': 'application/json', ...delivery.headers },
        timeout: deps.timeoutMs,
        maxRedirects: 0,
        responseType: 'text',
        transformRequest: [(data: unknown) => data],
        validateStatus: () => true,
        signal: controller.signal,
      });
      if (response.status >= 200 && response.status < 300) {
        deps.logger.debug('webhook delivered', { kind: delivery.kind, attempt: attemptNo, status: response.status });
        return;
      }
      failure = `HTTP ${response.status}`;
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err);
    } finally {
      inFlight.delete(controller);
    }
    if (stopped) return;
    const delay = deps.retryDelaysMs[attemptNo - 1];
    if (delay === undefined) {
      deps.logger.warn('webhook given up', { kind: delivery.kind, url: delivery.url, attempts: attemptNo, reason: failure });
      return;
    }
    deps.logger.debug('webhook failed, will retry', { kind: delivery.kind, attempt: attemptNo, reason: failure, retry_in_ms: delay });
    deps.scheduler.after(delay, () => attempt(delivery, attemptNo + 1));
  };

  return {
    post(delivery) {
      attempt(delivery, 1).catch((err) =>
        deps.logger.error('webhook attempt crashed', { kind: delivery.kind, error: String(err) }),
      );
    },
    stop() {
      stopped = true;
      for (const controller of inFlight) controller.abort();
      inFlight.clear();
    },
  };
}
