import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { UnprocessableError } from '@switchboard/domain';
import type { Logger } from '@switchboard/logger';
import { errorMiddleware, notFoundHandler } from '../src/http/error.middleware';
import { requestIdMiddleware } from '../src/http/request-id.middleware';

const logged: Array<{ message: string; meta: Record<string, unknown> }> = [];
const logger = {
  error: (message: string, meta: Record<string, unknown>) => logged.push({ message, meta }),
  warn: () => undefined,
} as unknown as Logger;

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(requestIdMiddleware());
  app.get('/boom', () => {
    throw new Error('connection string postgres://secret@db');
  });
  app.get('/async-boom', async () => {
    await Promise.resolve();
    throw new TypeError('cannot read properties of undefined');
  });
  app.get('/rule', () => {
    throw new UnprocessableError('no_sender_for_channel', 'No number.', [{ field: '/channel', message: 'no sender' }]);
  });
  app.get('/items/:id', (_req, res) => {
    res.json({});
  });
  app.use(notFoundHandler());
  app.use(errorMiddleware(logger));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((r) => server.close(r)));

describe('the one error middleware', () => {
  it('turns an unknown error into a 500 problem with an error_id that is also logged, and no internals', async () => {
    for (const path of ['/boom', '/async-boom']) {
      const res = await fetch(`${base}${path}`, { headers: { 'x-request-id': 'req-42' } });
      const text = await res.text();
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(text).not.toMatch(/secret|postgres|undefined|Error/);
      const body = JSON.parse(text) as { code: string; error_id: string; request_id: string };
      expect(body).toMatchObject({ code: 'internal_error', status: 500, request_id: 'req-42', type: '/errors/internal_error' });
      const entry = logged.find((l) => l.meta.error_id === body.error_id);
      expect(entry?.meta).toMatchObject({ request_id: 'req-42' });
      expect(String(entry?.meta.error)).toMatch(/secret|undefined/);
    }
  });

  it('renders API errors with their status, code and field errors', async () => {
    const res = await fetch(`${base}/rule`);
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'no_sender_for_channel', errors: [{ field: '/channel' }] });
  });

  it('answers unknown routes and undecodable path segments with 404 not_found', async () => {
    for (const path of ['/nowhere', '/items/%E0%A4%A']) {
      const res = await fetch(`${base}${path}`);
      expect({ path, status: res.status, code: ((await res.json()) as { code: string }).code }).toEqual({ path, status: 404, code: 'not_found' });
    }
  });
});
