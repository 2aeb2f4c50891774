import net from 'node:net';
import tls from 'node:tls';
import { HttpResponseReader, type ResponseSeen } from './http-response-reader';

/** Where a connection goes: parsed once per webhook URL. */
export interface ConnectionTarget {
  secure: boolean;
  hostname: string;
  port: number;
}

/** Called once per request: with the answer's status, or with why no answer came. */
export type RequestDone = (status: number, failure: string | null) => void;

/**
 * The failure given to requests pipelined behind an answer that closed the connection: the server stopped
 * reading there, so they were never handled and can go again at once, on another connection, without
 * counting as an attempt.
 */
export const BEHIND_CLOSING_ANSWER = 'pipelined behind an answer that closed the connection';

/**
 * One keep-alive HTTP/1.1 connection carrying pipelined requests. Requests handed to it in one event-loop
 * turn leave in one socket write, and their answers come back in order on the same socket: at thousands of
 * webhooks a second, one `writev` per request (what `http.request` does) was a third of the simulator's time
 * (docs/performance/carrier-sim.md#carrier-sim). Each request is still a complete request of its own, with its own headers
 * and signature, so a receiver sees the same bytes it would from one request per connection.
 */
export class PipelinedConnection {
  private readonly socket: net.Socket;
  private readonly reader: HttpResponseReader;
  /** Requests written or about to be, oldest first: the answers arrive in this order. */
  private awaiting: RequestDone[] = [];
  private awaitingHead = 0;
  private unwritten: string[] = [];
  private flushQueued = false;
  private usable = true;
  private closed = false;

  constructor(
    target: ConnectionTarget,
    private readonly options: { timeoutMs: number; idleMs: number; onClosed: (connection: PipelinedConnection) => void },
  ) {
    this.socket = target.secure
      ? tls.connect({ host: target.hostname, port: target.port, servername: net.isIP(target.hostname) ? undefined : target.hostname })
      : net.connect({ host: target.hostname, port: target.port });
    this.socket.setNoDelay(true);
    this.reader = new HttpResponseReader((response) => this.answered(response));
    this.socket.on('data', (chunk: Buffer) => {
      try {
        this.reader.push(chunk);
      } catch (err) {
        this.fail((err as Error).message);
      }
    });
    this.socket.on('end', () => {
      if (!this.reader.end() || this.outstanding() > 0) this.fail('socket hang up');
      else this.close();
    });
    this.socket.on('error', (err) => this.fail(err.message));
    this.socket.on('close', () => this.fail('socket closed'));
    // Idle for the request timeout while answers are owed: the same rule as http.request's `timeout`.
    // Idle with nothing owed: closed by us before a server's keep-alive timeout can race a new request.
    this.socket.setTimeout(options.idleMs, () => {
      if (this.outstanding() > 0) this.fail(`timeout of ${options.timeoutMs}ms exceeded`);
      else this.close();
    });
  }

  /** Requests sent and not yet answered. */
  outstanding(): number {
    return this.awaiting.length - this.awaitingHead;
  }

  /** False once the server said it closes, or the connection failed: new requests go elsewhere. */
  isUsable(): boolean {
    return this.usable;
  }

  /** `request` is a whole HTTP/1.1 request, head and body. */
  send(request: string, done: RequestDone): void {
    if (!this.usable) {
      done(0, 'connection no longer usable');
      return;
    }
    if (this.outstanding() === 0) this.socket.setTimeout(this.options.timeoutMs);
    this.awaiting.push(done);
    this.unwritten.push(request);
    if (!this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(() => this.flush());
    }
  }

  destroy(): void {
    this.fail('stopped');
  }

  private flush(): void {
    this.flushQueued = false;
    if (this.closed || this.unwritten.length === 0) return;
    const text = this.unwritten.length === 1 ? this.unwritten[0] : this.unwritten.join('');
    this.unwritten = [];
    this.socket.write(text);
  }

  private answered(response: ResponseSeen): void {
    const done = this.awaiting[this.awaitingHead];
    if (!done) {
      this.fail('answer to no request');
      return;
    }
    this.awaitingHead += 1;
    if (this.awaitingHead === this.awaiting.length) {
      this.awaiting = [];
      this.awaitingHead = 0;
      this.socket.setTimeout(this.options.idleMs);
    } else if (this.awaitingHead > 256 && this.awaitingHead * 2 > this.awaiting.length) {
      this.awaiting = this.awaiting.slice(this.awaitingHead);
      this.awaitingHead = 0;
    }
    if (response.closeAfter) this.usable = false;
    done(response.status, null);
    // The server closes after this answer: whatever was pipelined behind it will not be answered.
    if (response.closeAfter) this.fail(BEHIND_CLOSING_ANSWER);
  }

  /** Ends the connection; every request still owed an answer fails with `reason`. */
  private fail(reason: string): void {
    this.usable = false;
    const owed = this.awaiting.slice(this.awaitingHead);
    this.awaiting = [];
    this.awaitingHead = 0;
    this.unwritten = [];
    this.close();
    for (const done of owed) done(0, reason);
  }

  private close(): void {
    this.usable = false;
    if (this.closed) return;
    this.closed = true;
    this.socket.destroy();
    this.options.onClosed(this);
  }
}
