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
  /** Deliveries waiting for a free connection (not those in flight, nor retries waiting for their time). */
  backlog(): number;
  /** True when every connection is busy: a delivery posted now would wait. */
  saturated(): boolean;
  /** Calls `listener` once, the next time a connection frees up with nothing waiting for it. */
  onceFree(listener: () => void): void;
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
  let freeListeners: Array<() => void> = [];
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

  /**
   * One POST; `done` is called exactly once, with the status or the failure. Callbacks rather than a promise
   * per request: at thousands of receipts a second the promise chains were a visible share of the garbage
   * (docs/performance.md#carrier-sim).
   */
  const postOnce = (delivery: WebhookDelivery, done: (status: number, failure: string | null) => void) => {
    let finished = false;
    const finish = (status: number, failure: string | null) => {
      if (finished) return;
      finished = true;
      done(status, failure);
    };
    const target = targetOf(delivery.url);
    const headers: Record<string, string | number> = { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(delivery.body) };
    for (const name in delivery.headers) headers[name] = delivery.headers[name];
    const request = target.send(
      { protocol: target.options.protocol, hostname: target.options.hostname, port: target.options.port, path: target.options.path, agent: target.options.agent, method: 'POST', headers, timeout: deps.timeoutMs },
      (response) => {
        response.on('end', () => finish(response.statusCode ?? 0, null));
        response.on('error', (err) => finish(0, err.message));
        response.resume();
      },
    );
    inFlight.add(request);
    // A connection lost before the answer surfaces as 'error' (socket hang up), so 'close' only forgets the request.
    request.on('close', () => inFlight.delete(request));
    request.on('timeout', () => request.destroy(new Error(`timeout of ${deps.timeoutMs}ms exceeded`)));
    request.on('error', (err) => finish(0, err.message));
    request.end(delivery.body);
  };

  const slotFreed = () => {
    active -= 1;
    startNext();
    if (active < MAX_IN_FLIGHT && head >= waiting.length && freeListeners.length > 0) {
      const listeners = freeListeners;
      freeListeners = [];
      for (const listener of listeners) listener();
    }
  };

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
      attempt(delivery, attemptNo);
    }
  };
  const enqueue = (delivery: WebhookDelivery, attemptNo: number) => {
    waiting.push({ delivery, attemptNo });
    startNext();
  };

  const attempt = (delivery: WebhookDelivery, attemptNo: number): void => {
    postOnce(delivery, (status, failure) => {
      try {
        if (failure === null && status >= 200 && status < 300) return;
        if (stopped) return;
        const reason = failure ?? `HTTP ${status}`;
        const delay = deps.retryDelaysMs[attemptNo - 1];
        if (delay === undefined) {
          deps.logger.warn('webhook given up', { kind: delivery.kind, url: delivery.url, attempts: attemptNo, reason });
          return;
        }
        deps.logger.debug('webhook failed, will retry', { kind: delivery.kind, attempt: attemptNo, reason, retry_in_ms: delay });
        deps.scheduler.after(delay, () => enqueue(delivery, attemptNo + 1));
      } finally {
        slotFreed();
      }
    });
  };

  return {
    post(delivery) {
      enqueue(delivery, 1);
    },
    backlog() {
      return waiting.length - head;
    },
    saturated() {
      return active >= MAX_IN_FLIGHT;
    },
    onceFree(listener) {
      if (stopped) return;
      freeListeners.push(listener);
    },
    stop() {
      stopped = true;
      freeListeners = [];
      waiting = [];
      head = 0;
      for (const request of inFlight) request.destroy();
      inFlight.clear();
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
