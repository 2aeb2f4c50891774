import type { Logger } from '../support/json-logger';
import type { Scheduler } from '../support/scheduler';
import { BEHIND_CLOSING_ANSWER, PipelinedConnection, type ConnectionTarget, type RequestDone } from './pipelined-connection';

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

/** Webhook requests in flight at once, pipelined over at most MAX_CONNECTIONS keep-alive connections per URL. */
const MAX_IN_FLIGHT = 64;
/** Connections per webhook URL: eight answers owed on each when all 64 requests are in flight. */
const MAX_CONNECTIONS = 8;
/** A connection with nothing owed closes after this, before a server's keep-alive timeout (node: 5 s) can race a request. */
const IDLE_CLOSE_MS = 2000;

interface Target {
  address: ConnectionTarget;
  /** The request line and the headers every request to this URL carries. */
  headPrefix: string;
  connections: PipelinedConnection[];
}

/**
 * Six retries doubling from 250 ms: a gateway restarting mid-test is back within those 16 s, and a test that
 * stopped its gateway does not keep the simulator busy for long (docs/sandbox.md).
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = Object.freeze([250, 500, 1000, 2000, 4000, 8000]);
/** 5 s for the gateway to answer a webhook: it answers once the callback's job is in Redis, in milliseconds. */
export const WEBHOOK_TIMEOUT_MS = 5_000;

/**
 * Fire-and-forget POST with a short retry schedule. The gateway may start after the simulator or
 * restart mid-test, so a refused connection is retried rather than dropped, and a webhook that
 * never lands is only logged: the simulator must keep serving whatever happens downstream.
 */
export function createWebhookPoster(deps: { scheduler: Scheduler; logger: Logger; retryDelaysMs: readonly number[]; timeoutMs: number }): WebhookPoster {
  let stopped = false;

  // Deliveries past the in-flight bound wait here as plain objects, not as built requests, so a burst of
  // receipts grows the heap by a small record per webhook. A head index instead of shift(), which would move
  // the whole backlog on every start.
  let waiting: Array<{ delivery: WebhookDelivery; attemptNo: number }> = [];
  let head = 0;
  let active = 0;
  let freeListeners: Array<() => void> = [];
  // Webhooks go to one or two URLs: each is parsed once, and keeps its own few connections.
  const targets = new Map<string, Target>();
  const targetOf = (url: string): Target => {
    let target = targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      const secure = parsed.protocol === 'https:';
      if (!secure && parsed.protocol !== 'http:') throw new Error(`webhook URL ${url} is not http(s)`);
      target = {
        address: { secure, hostname: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(parsed.port || (secure ? 443 : 80)) },
        headPrefix: `POST ${parsed.pathname}${parsed.search} HTTP/1.1\r\nHost: ${parsed.host}\r\nConnection: keep-alive\r\nContent-Type: application/json\r\n`,
        connections: [],
      };
      targets.set(url, target);
    }
    return target;
  };

  /**
   * The connection a request goes on: the usable one with the fewest answers owed, or a new one while that
   * least-loaded one already owes some and the target has fewer than MAX_CONNECTIONS. Requests spread over a few
   * connections, and those given out in one turn share each connection's single write.
   */
  const connectionFor = (target: Target): PipelinedConnection => {
    let best: PipelinedConnection | null = null;
    for (const connection of target.connections) {
      if (connection.isUsable() && (best === null || connection.outstanding() < best.outstanding())) best = connection;
    }
    if (best && (best.outstanding() === 0 || target.connections.length >= MAX_CONNECTIONS)) return best;
    const opened = new PipelinedConnection(target.address, {
      timeoutMs: deps.timeoutMs,
      idleMs: IDLE_CLOSE_MS,
      onClosed: (closed) => {
        const at = target.connections.indexOf(closed);
        if (at >= 0) target.connections.splice(at, 1);
      },
    });
    target.connections.push(opened);
    return opened;
  };

  /** One POST; `done` is called exactly once, with the status or the failure. */
  const postOnce = (delivery: WebhookDelivery, done: RequestDone) => {
    let target: Target;
    try {
      target = targetOf(delivery.url);
    } catch (err) {
      done(0, (err as Error).message);
      return;
    }
    let request = `${target.headPrefix}Content-Length: ${Buffer.byteLength(delivery.body)}\r\n`;
    for (const name in delivery.headers) {
      const value = delivery.headers[name];
      // The values are our own signatures; a line break in one would split the request.
      if (/[\r\n]/.test(value)) {
        done(0, `header ${name} holds a line break`);
        return;
      }
      request += `${name}: ${value}\r\n`;
    }
    connectionFor(target).send(`${request}\r\n${delivery.body}`, done);
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
        if (failure === BEHIND_CLOSING_ANSWER) {
          enqueue(delivery, attemptNo);
          return;
        }
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
      for (const target of targets.values()) for (const connection of [...target.connections]) connection.destroy();
      targets.clear();
    },
  };
}
