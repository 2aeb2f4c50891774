// A webhook receiver process for the webhook e2e tests and the bench: answers each path as told through
// PUT /__control/<path>, and appends every delivery it answered to LOG_FILE (one JSON line), so the log
// survives the receiver being killed and started again on the same port.
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';

const behaviours = new Map();
const log = process.env.LOG_FILE;

function behaviourFor(path) {
  const b = behaviours.get(path) ?? { status: 200 };
  if (b.next?.length) return { ...b, ...b.next.shift() };
  return b;
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    if (req.url.startsWith('/__control/')) {
      behaviours.set(req.url.slice('/__control'.length), JSON.parse(body));
      res.writeHead(204).end();
      return;
    }
    const b = behaviourFor(req.url);
    const answer = () => {
      if (log) {
        const headers = {
          'webhook-id': req.headers['webhook-id'],
          'webhook-timestamp': req.headers['webhook-timestamp'],
          'webhook-signature': req.headers['webhook-signature'],
          traceparent: req.headers.traceparent,
        };
        appendFileSync(log, `${JSON.stringify({ path: req.url, status: b.status, headers, body, at: Date.now() })}\n`);
      }
      res.writeHead(b.status, b.retryAfter ? { 'retry-after': b.retryAfter } : {}).end(b.status >= 300 ? 'no' : 'ok');
    };
    if (b.delayMs) setTimeout(answer, b.delayMs);
    else answer();
  });
});
server.keepAliveTimeout = 30_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
