// The other processes of bench/carrier-sim.mjs, one role per process (argv[2]):
//   receiver  a webhook receiver answering 200 that counts requests and receipts per path (GET /__count);
//             RECEIVER_DELAY_MS=<n> makes it answer each webhook n ms late, a receiver slower than the sends;
//   bare-http the HTTP baseline: a bare node:http server answering every POST with a fixed JSON body;
//   bare-smpp the SMPP baseline: an SMSC that binds anyone and answers each submit_sm with an id, nothing else.
// Each prints one JSON line with its port once it listens.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const role = process.argv[2];
const ready = (port) => process.stdout.write(`${JSON.stringify({ port })}\n`);

/** Receipts carried by one webhook body: Cloud API statuses[] (possibly several), else one RBM event. */
function receiptsIn(body) {
  try {
    const parsed = JSON.parse(body);
    if (!parsed.entry) return 1;
    let n = 0;
    for (const entry of parsed.entry) for (const change of entry.changes ?? []) n += change.value?.statuses?.length ?? 0;
    return n;
  } catch {
    return 0;
  }
}

const receiverDelayMs = Number(process.env.RECEIVER_DELAY_MS ?? 0);

if (role === 'receiver') {
  const counts = { requests: 0, receipts: 0 };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/__count') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(counts));
        return;
      }
      counts.requests += 1;
      counts.receipts += receiptsIn(Buffer.concat(chunks).toString('utf8'));
      if (receiverDelayMs > 0) setTimeout(() => res.writeHead(200).end('ok'), receiverDelayMs);
      else res.writeHead(200).end('ok');
    });
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () => ready(server.address().port));
} else if (role === 'bare-http') {
  // About the size of the Cloud API's answer to a send.
  const answer = JSON.stringify({
    messaging_product: 'whatsapp',
    contacts: [{ input: '447911120010', wa_id: '447911120010' }],
    messages: [{ id: 'wamid.HBgMNDQ3OTExMTIwMDEwFQIAERgSQkVOQ0hCRU5DSEJFTkNIQkVO' }],
  });
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    });
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () => ready(server.address().port));
} else if (role === 'bare-smpp') {
  const smpp = require('smpp');
  let next = 0;
  const server = smpp.createServer((session) => {
    session.on('error', () => undefined);
    session.on('pdu', (pdu) => {
      if (pdu.isResponse()) return;
      if (pdu.command === 'submit_sm') session.send(pdu.response({ message_id: (next++).toString(16) }));
      else session.send(pdu.response());
    });
  });
  server.listen(0, '127.0.0.1', () => ready(server.address().port));
} else {
  process.stderr.write(`unknown role ${role}\n`);
  process.exit(2);
}
process.once('SIGTERM', () => process.exit(0));
