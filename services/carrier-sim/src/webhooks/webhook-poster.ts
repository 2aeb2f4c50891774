import http from 'node:http';
import https from 'node:https';
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
  /** Destroys requests in flight; retries die with the scheduler. */
  stop(): void;
}

/** Webhook requests in flight at once, over as many keep-alive connections. */
const MAX_IN_FLIGHT = 64;

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
  const inFlight = new Set<http.ClientRequest>();
  let stopped = false;

  // Receipts go to one gateway at thousands per second: reusing connections is what lets the simulator
  // keep up (docs/performance.md#carrier-sim), and a bounded pool keeps a slow gateway from exhausting ports.
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT }),
  };
  // Deliveries past the in-flight bound wait here as plain objects: a queued ClientRequest would hold
  // several kilobytes each, and a burst of receipts would then grow the heap by that much per webhook.
  // A head index instead of shift(), which would move the whole backlog on every start.
  let waiting: Array<{ delivery: WebhookDelivery; attemptNo: number }> = [];
  let head = 0;
  let active = 0;
  // Webhooks go to one or two URLs: each is parsed once, not once per request.
  const targets = new Map<string, { send: typeof http.request; options: http.RequestOptions }>();
  const targetOf = (url: string) => {
    let target = targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      const secure = parsed.protocol === 'https:';
      target = {
        send: secure ? https.request : http.request,
        options: { protocol: parsed.protocol, hostname: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port: parsed.port, path: `${parsed.pathname}${parsed.search}`, agent: agents[secure ? 'https:' : 'http:'] },
      };
      targets.set(url, target);
    }
    return target;
  };

  const postOnce = (delivery: WebhookDelivery): Promise<number> =>
    new Promise((resolve, reject) => {
      const target = targetOf(delivery.url);
      const request = target.send({
        ...target.options,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(delivery.body), ...delivery.headers },
        timeout: deps.timeoutMs,
      }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      });
      inFlight.add(request);
      request.on('close', () => inFlight.delete(request));
      request.on('timeout', () => request.destroy(new Error(`timeout of ${deps.timeoutMs}ms exceeded`)));
      request.on('error', reject);
      request.end(delivery.body);
    });

  const startNext = () => {
    while (!stopped && active < MAX_IN_FLIGHT && head < waiting.length) {
      const { delivery, attemptNo } = waiting[head];
      head += 1;
      if (head === waiting.length) {
        waiting = [];
        head = 0;
      } else if (head > 1024 && head * 2 > waiting.length) {
        waiting = waiting.slice(head);
        head = 0;
      }
      active += 1;
      attempt(delivery, attemptNo)
        .catch((err) => deps.logger.error('webhook attempt crashed', { kind: delivery.kind, error: String(err) }))
        .finally(() => {
          active -= 1;
          startNext();
        });
    }
  };
  const enqueue = (delivery: WebhookDelivery, attemptNo: number) => {
    waiting.push({ delivery, attemptNo });
    startNext();
  };

  const attempt = async (delivery: WebhookDelivery, attemptNo: number): Promise<void> => {
    if (stopped) return;
    let failure: string;
    try {
      const status = await postOnce(delivery);
      if (status >= 200 && status < 300) {
        deps.logger.debug('webhook delivered', { kind: delivery.kind, attempt: attemptNo, status });
        return;
      }
      failure = `HTTP ${status}`;
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err);
    }
    if (stopped) return;
    const delay = deps.retryDelaysMs[attemptNo - 1];
    if (delay === undefined) {
      deps.logger.warn('webhook given up', { kind: delivery.kind, url: delivery.url, attempts: attemptNo, reason: failure });
      return;
    }
    deps.logger.debug('webhook failed, will retry', { kind: delivery.kind, attempt: attemptNo, reason: failure, retry_in_ms: delay });
    deps.scheduler.after(delay, () => enqueue(delivery, attemptNo + 1));
  };

  return {
    post(delivery) {
      enqueue(delivery, 1);
    },
    stop() {
      stopped = true;
      waiting = [];
      head = 0;
      for (const request of inFlight) request.destroy();
      inFlight.clear();
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
