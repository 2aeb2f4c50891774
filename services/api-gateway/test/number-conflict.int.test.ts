import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { createTestDatabase, testSecretCipher, type TestDatabase } from '@switchboard/devstack';
import type { Logger } from '@switchboard/logger';
import { createAccountsRepository, createDb, createNumbersRepository, type Db } from '@switchboard/store';
import { errorMiddleware } from '../src/http/error.middleware';
import { requestIdMiddleware } from '../src/http/request-id.middleware';

// No API route adds numbers yet. Any that does calls the numbers repository and lets its refusal reach
// the error middleware; this route does exactly that against a real store (docs/errors.md).
let database: TestDatabase;
let db: Db;
let server: Server;
let base: string;
const logged: string[] = [];
const logger = { error: (m: string) => logged.push(m), warn: (m: string) => logged.push(m) } as unknown as Logger;

beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb({ url: database.url, poolSize: 2 });
  const accounts = createAccountsRepository(db, testSecretCipher(database.url));
  const numbers = createNumbersRepository(db);
  const app = express();
  app.use(requestIdMiddleware());
  app.post('/accounts/:name/numbers/:e164', async (req, res) => {
    const account = await accounts.ensure(req.params.name);
    res.status(201).json(await numbers.add({ accountId: account.id, e164: req.params.e164, channels: ['sms'] }));
  });
  app.use(errorMiddleware(logger));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await db?.close();
  await database?.drop();
});

it('answers 409 number_already_provisioned as problem+json when another account holds the number', async () => {
  expect((await fetch(`${base}/accounts/first/numbers/+14155550177`, { method: 'POST' })).status).toBe(201);
  expect((await fetch(`${base}/accounts/first/numbers/+14155550177`, { method: 'POST' })).status).toBe(201);

  const res = await fetch(`${base}/accounts/second/numbers/+14155550177`, { method: 'POST', headers: { 'x-request-id': 'req-num' } });
  expect(res.status).toBe(409);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(await res.json()).toMatchObject({
    status: 409,
    code: 'number_already_provisioned',
    type: '/errors/number_already_provisioned',
    detail: expect.stringContaining('+14155550177'),
    request_id: 'req-num',
  });
  expect(logged).toEqual([]);
});
