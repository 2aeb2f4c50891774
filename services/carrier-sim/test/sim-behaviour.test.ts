import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { createBehaviourRouter } from '../src/sim/behaviour.route';
import { createSimBehaviourStore, type SimBehaviourStore } from '../src/state/sim-behaviour.store';

/** GET and PUT /sim/behaviour (docs/sandbox.md#behaviour-at-run-time): defaults, partial updates, bad input named. */
let server: Server;
let url: string;
let store: SimBehaviourStore;

beforeEach(async () => {
  store = createSimBehaviourStore();
  const app = express().use(createBehaviourRouter({ behaviour: store }));
  server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sim/behaviour`;
});

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const put = (body: string) => fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body });

it('answers the defaults of today', async () => {
  const res = await fetch(url);
  expect(await res.json()).toEqual({ receipt_delay_ms: 200, enforce_chat_window: true, receipt_backlog_max: 1000 });
});

it('changes only the fields a PUT names, in the live object the handlers read', async () => {
  const seen = store.current;
  const res = await put(JSON.stringify({ receipt_delay_ms: 20, enforce_chat_window: false }));
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ receipt_delay_ms: 20, enforce_chat_window: false, receipt_backlog_max: 1000 });
  expect(seen).toEqual({ receiptDelayMs: 20, enforceChatWindow: false, receiptBacklogMax: 1000 });
  await put(JSON.stringify({ receipt_backlog_max: 500 }));
  expect(await (await fetch(url)).json()).toEqual({ receipt_delay_ms: 20, enforce_chat_window: false, receipt_backlog_max: 500 });
});

it.each([
  ['{"receipt_delay_ms":-1}', /^receipt_delay_ms: an integer from 0 to 3600000/],
  ['{"receipt_delay_ms":"50"}', /^receipt_delay_ms/],
  ['{"enforce_chat_window":"false"}', /^enforce_chat_window: true or false/],
  ['{"receipt_backlog_max":1}', /^receipt_backlog_max: an integer from 2/],
  ['{"receipt_delay":50}', /^receipt_delay: not a known field/],
  ['[1]', /^body: a JSON object/],
  ['not json', /^body: /],
])('refuses %s with a problem naming the field, and changes nothing', async (body, detail) => {
  const res = await put(body);
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(((await res.json()) as { detail: string }).detail).toMatch(detail);
  expect(store.current).toEqual({ receiptDelayMs: 200, enforceChatWindow: true, receiptBacklogMax: 1000 });
});
