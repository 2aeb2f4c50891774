import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Logger } from '../support/json-logger';
import type { FaultChannel, FaultSwitchStore } from '../state/fault-switch.store';
import { bearerMatches } from './bearer-auth';
import type { JsonAnswer, SendRequest } from './json-answer';
import type { SendGate } from '../support/send-gate';

/** A send endpoint served without express: its path, its checks and the handler the express route also uses. */
export interface FastSendRoute {
  channel: FaultChannel;
  /** Path parameters of a well-formed request, or null to leave the request to express. */
  match(path: string): Record<string, string> | null;
  /** The Bearer token the express route's requireBearer expects. */
  accessToken: string;
  handle(req: SendRequest, res: JsonAnswer): void;
  /** The upstream's own answer to a body that is not a JSON object. */
  badJson(res: JsonAnswer, message: string): void;
  /** The upstream's own answer to a handler that threw. */
  internalError(res: JsonAnswer): void;
}

/** express.json's default limit, which the express routes use too. */
const BODY_LIMIT = 1024 * 1024;

class NodeJsonAnswer implements JsonAnswer {
  private code = 200;
  constructor(private readonly res: ServerResponse) {}
  status(code: number): JsonAnswer {
    this.code = code;
    return this;
  }
  json(body: unknown): void {
    const text = JSON.stringify(body);
    this.res.writeHead(this.code, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
    this.res.end(text);
  }
}

/**
 * The send endpoints carry nearly all of a load's requests, so a well-formed, authorised send with no
 * run-time fault on its channel is answered here on bare node:http: no router walk, no middleware chain,
 * one JSON.parse. Everything else (other routes, a wrong token, a fault, a non-JSON content type or a
 * compressed body, odd paths) goes to the express app unchanged, which keeps every refusal byte-for-byte what it was
 * (docs/performance/carrier-sim.md#carrier-sim).
 */
export function createFastSendsListener(deps: {
  routes: FastSendRoute[];
  faults: FaultSwitchStore;
  gate: SendGate;
  fallback: RequestListener;
  logger: Logger;
}): RequestListener {
  const pick = (req: IncomingMessage, path: string): { route: FastSendRoute; params: Record<string, string> } | null => {
    if (req.method !== 'POST' || !/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) return null;
    // A compressed body is express.json's to inflate.
    if (req.headers['content-encoding'] !== undefined && req.headers['content-encoding'] !== 'identity') return null;
    for (const route of deps.routes) {
      const params = route.match(path);
      if (!params) continue;
      if (!bearerMatches(req.headers.authorization, route.accessToken)) return null;
      if (deps.faults.current(route.channel)) return null;
      return { route, params };
    }
    return null;
  };

  return (req, res) => {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    const picked = pick(req, path);
    if (!picked) {
      deps.fallback(req, res);
      return;
    }
    const { route, params } = picked;
    const answer = new NodeJsonAnswer(res);
    const chunks: Buffer[] = [];
    let size = 0;
    const handle = () => {
      if (size > BODY_LIMIT) return route.badJson(answer, 'request entity too large');
      let body: unknown;
      try {
        // Nearly every send arrives in one chunk: no concatenation then.
        body = JSON.parse((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)).toString('utf8'));
      } catch (err) {
        return route.badJson(answer, (err as Error).message);
      }
      // express.json's strict mode: only objects and arrays are bodies.
      if (body === null || typeof body !== 'object') return route.badJson(answer, 'request body is not a JSON object');
      try {
        route.handle({ params, query: queryAt < 0 ? {} : parseQuery(url.slice(queryAt + 1)), body }, answer);
      } catch (err) {
        deps.logger.error('fast send handler failed', { channel: route.channel, error: String(err) });
        if (!res.headersSent) route.internalError(answer);
      }
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
    });
    // A request closed while it waited at the gate has nobody to answer: it is not sent at all.
    req.on('end', () =>
      deps.gate.admit(() => {
        if (!res.destroyed) handle();
      }),
    );
    req.on('error', () => res.destroy());
  };
}
