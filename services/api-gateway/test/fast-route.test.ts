import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { fastRoute } from '../src/http/fast-route';

/** Each handler leaves a trace in a header, so an answer shows which chain ran it and in what order. */
const marking =
  (name: string): RequestHandler =>
  (_req, res, next) => {
    res.setHeader('x-chain', `${String(res.getHeader('x-chain') ?? '')}${name};`);
    next();
  };
const failing: RequestHandler = () => {
  throw new Error('thrown');
};
const rejecting: RequestHandler = async () => {
  await Promise.resolve();
  throw new Error('rejected');
};
const answering: RequestHandler = (req, res) => {
  res.json({ route: (req.route as { path?: string } | undefined)?.path ?? null, via: res.getHeader('x-fast') ?? 'regular' });
};
const onError: ErrorRequestHandler = (error: Error, _req, res, _next) => {
  res.status(418).json({ error: error.message });
};

/** An app with the fast route first and the same handlers on the regular route, as app.ts builds it. */
async function serve(last: RequestHandler): Promise<{ url: string; close: () => void }> {
  const app = express();
  const markFast: RequestHandler = (_req, res, next) => {
    res.setHeader('x-fast', 'fast');
    next();
  };
  app.use(fastRoute('POST', '/v1/messages', [markFast, marking('a'), marking('b'), last]));
  app.use(marking('a'));
  app.post('/v1/messages', marking('b'), last);
  app.use((_req, res) => res.status(404).json({ error: 'not found' }));
  app.use(onError);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

async function call(url: string, method = 'POST'): Promise<{ status: number; chain: string | null; body: unknown }> {
  const response = await fetch(url, { method });
  return { status: response.status, chain: response.headers.get('x-chain'), body: await response.json() };
}

describe('fastRoute', () => {
  it('runs the chain for the exact method and path (query string allowed), with the route template set', async () => {
    const app = await serve(answering);
    try {
      expect(await call(`${app.url}/v1/messages`)).toEqual({ status: 200, chain: 'a;b;', body: { route: '/v1/messages', via: 'fast' } });
      expect(await call(`${app.url}/v1/messages?x=1`)).toEqual({ status: 200, chain: 'a;b;', body: { route: '/v1/messages', via: 'fast' } });
    } finally {
      app.close();
    }
  });

  it('leaves other paths and methods to the regular routes, which answer the same', async () => {
    const app = await serve(answering);
    try {
      expect(await call(`${app.url}/v1/messages/`)).toEqual({ status: 200, chain: 'a;b;', body: { route: '/v1/messages', via: 'regular' } });
      expect(await call(`${app.url}/V1/Messages`)).toEqual({ status: 200, chain: 'a;b;', body: { route: '/v1/messages', via: 'regular' } });
      expect(await call(`${app.url}/v1/messages`, 'GET')).toEqual({ status: 404, chain: 'a;', body: { error: 'not found' } });
      expect(await call(`${app.url}/v1/messagesx`)).toEqual({ status: 404, chain: 'a;', body: { error: 'not found' } });
    } finally {
      app.close();
    }
  });

  it.each([
    ['thrown', failing],
    ['rejected', rejecting],
  ])('hands a %s error to the error middleware', async (message, handler) => {
    const app = await serve(handler);
    try {
      expect(await call(`${app.url}/v1/messages`)).toEqual({ status: 418, chain: 'a;b;', body: { error: message } });
      // The regular route ends the same way.
      expect(await call(`${app.url}/v1/messages/`)).toEqual({ status: 418, chain: 'a;b;', body: { error: message } });
    } finally {
      app.close();
    }
  });
});
