import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  json: any;
}

export interface WebhookReceiver {
  url: string;
  received(): ReceivedRequest[];
  waitFor(predicate: (r: ReceivedRequest) => boolean, timeoutMs?: number): Promise<ReceivedRequest>;
  close(): Promise<void>;
}

/** A local endpoint on port 0 standing in for the gateway's provider callbacks; it records every POST. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const waiters: Array<{ predicate: (r: ReceivedRequest) => boolean; resolve: (r: ReceivedRequest) => void }> = [];
  const server = createServer((req, res) => {
    let rawBody = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (rawBody += chunk));
    req.on('end', () => {
      let json: unknown = null;
      try {
        json = JSON.parse(rawBody);
      } catch {
        json = null;
      }
      const entry = { path: req.url ?? '', headers: req.headers, rawBody, json };
      requests.push(entry);
      for (const waiter of [...waiters]) {
        if (waiter.predicate(entry)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(entry);
        }
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => [...requests],
    waitFor(predicate, timeoutMs = 5000) {
      const existing = requests.find(predicate);
      if (existing) return Promise.resolve(existing);
      return new Promise((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (r: ReceivedRequest) => {
            clearTimeout(timer);
            resolve(r);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no matching webhook within ${timeoutMs} ms; got ${requests.length}: ${requests.map((r) => r.rawBody).join('\n')}`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
