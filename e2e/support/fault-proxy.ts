import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A reverse proxy in front of the gateway that fails the next `count` requests on demand, for the SDK retry tests.
 * `PUT /__fault {status, count, forward, retry_after}` arms it: with `forward` the request still reaches the
 * gateway and only its answer is replaced (so only an Idempotency-Key replay prevents a duplicate); without it the
 * gateway never sees the request. `GET /__fault` reports how many answers were injected so far.
 */
export interface FaultProxy {
  url: string;
  close(): Promise<void>;
}

interface Fault {
  status: number;
  count: number;
  forward: boolean;
  retryAfter: string;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  let fault: Fault = { status: 503, count: 0, forward: false, retryAfter: '' };
  let injected = 0;

  const inject = (res: ServerResponse, f: Fault) => {
    injected += 1;
    const body = JSON.stringify({ type: '/errors/injected', title: 'Injected by the test proxy', status: f.status, code: 'injected' });
    res.writeHead(f.status, { 'content-type': 'application/problem+json', ...(f.retryAfter ? { 'retry-after': f.retryAfter } : {}) }).end(body);
  };

  const forward = (
    req: IncomingMessage,
    body: Buffer,
    onAnswer: (status: number, headers: IncomingMessage['headers'], body: Buffer) => void,
    onError: (e: Error) => void,
  ) => {
    const out = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => onAnswer(answer.statusCode ?? 502, answer.headers, Buffer.concat(chunks)));
        answer.on('error', onError);
      },
    );
    out.on('error', onError);
    out.end(body);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.url === '/__fault') {
        if (req.method === 'PUT') {
          const f = JSON.parse(body.toString('utf8')) as { status: number; count: number; forward?: boolean; retry_after?: string };
          fault = { status: f.status, count: f.count, forward: f.forward === true, retryAfter: f.retry_after ?? '' };
          res.writeHead(204).end();
        } else {
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ injected, pending: fault.count }));
        }
        return;
      }
      const armed = fault.count > 0 ? { ...fault } : null;
      if (armed) fault.count -= 1;
      if (armed && !armed.forward) {
        inject(res, armed);
        return;
      }
      forward(
        req,
        body,
        (status, headers, answer) => {
          if (armed) inject(res, armed);
          else res.writeHead(status, headers).end(answer);
        },
        () => res.writeHead(502).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
