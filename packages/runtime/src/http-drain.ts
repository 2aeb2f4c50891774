import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';

export interface HttpDrainOptions {
  /**
   * A keep-alive connection that finished a response less than this long ago may already carry the
   * client's next request: it gets this long for it (answered with `Connection: close`) before it is
   * closed. Older idle connections are closed at once. @defaultValue 1000
   */
  idleGraceMs?: number;
  /** Connections still open this long after the drain started are destroyed. @defaultValue 10000 */
  deadlineMs?: number;
}

export interface HttpDrain {
  /** True from the start of `drain()` on; `/readyz` answers 503 from then on. */
  isDraining(): boolean;
  /** Stops accepting connections and resolves once every connection has closed. */
  drain(): Promise<void>;
}

interface ConnectionState {
  /** Requests on this connection whose response has not finished. */
  inFlight: number;
  /** When its last response finished (or when it connected). */
  idleSince: number;
  idleTimer?: NodeJS.Timeout;
}

/**
 * Graceful HTTP shutdown for keep-alive clients (see docs/architecture.md, shutdown). Every response
 * that ends after the drain started carries `Connection: close`, so node closes its socket after it
 * and the client opens no further request on it; idle connections are closed, but one that just
 * finished a response gets a short grace, because closing it at once races with the next request the
 * client may already have written (that request would be reset without ever being read).
 */
export function createHttpDrain(server: Server, { idleGraceMs = 1_000, deadlineMs = 10_000 }: HttpDrainOptions = {}): HttpDrain {
  const connections = new Map<Socket, ConnectionState>();
  const responses = new Set<ServerResponse>();
  let draining: Promise<void> | null = null;

  const closeWhenIdle = (socket: Socket, state: ConnectionState) => {
    clearTimeout(state.idleTimer);
    if (state.inFlight > 0) return;
    const wait = state.idleSince + idleGraceMs - Date.now();
    if (wait <= 0) socket.destroy();
    else state.idleTimer = setTimeout(() => closeWhenIdle(socket, state), wait);
  };

  // Over TLS requests arrive on the TLSSocket of 'secureConnection', not on the TCP socket of
  // 'connection'; the TCP sockets are still kept, so that the deadline also cuts unfinished handshakes.
  const tls = server instanceof TlsServer;
  const tcpSockets = new Set<Socket>();
  if (tls) {
    server.on('connection', (socket: Socket) => {
      tcpSockets.add(socket);
      socket.once('close', () => tcpSockets.delete(socket));
    });
  }

  server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    const state: ConnectionState = { inFlight: 0, idleSince: Date.now() };
    connections.set(socket, state);
    socket.once('close', () => {
      clearTimeout(state.idleTimer);
      connections.delete(socket);
    });
    if (draining) closeWhenIdle(socket, state);
  });

  // Prepended so that the header is set before the application can send anything.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const state = connections.get(socket);
    if (state) {
      state.inFlight += 1;
      clearTimeout(state.idleTimer);
    }
    responses.add(res);
    if (draining) res.setHeader('Connection', 'close');
    res.once('close', () => {
      responses.delete(res);
      if (!state) return;
      state.inFlight -= 1;
      state.idleSince = Date.now();
      if (draining) closeWhenIdle(socket, state);
    });
  });

  return {
    isDraining: () => draining !== null,
    drain() {
      if (draining) return draining;
      draining = new Promise<void>((resolve) => {
        const deadline = setTimeout(() => {
          for (const socket of [...connections.keys(), ...tcpSockets]) socket.destroy();
        }, deadlineMs);
        deadline.unref();
        // net's close, not http's: http's also destroys every idle keep-alive socket at once.
        NetServer.prototype.close.call(server, () => {
          clearTimeout(deadline);
          resolve();
        });
        for (const res of responses) if (!res.headersSent) res.setHeader('Connection', 'close');
        // After the next poll, not now: a request a client sent while this process was busy (with the signal,
        // or a stall) may be waiting unread on an idle connection, and destroying it now would reset that request.
        // setImmediate runs once the poll has read every ready socket, so such a request is in flight by then.
        setImmediate(() => {
          for (const [socket, state] of connections) closeWhenIdle(socket, state);
        });
      });
      return draining;
    },
  };
}
