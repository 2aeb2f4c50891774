import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface CannedAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Delay before answering, to exercise client timeouts. */
  delayMs?: number;
}

/** A local HTTP upstream that records every request and answers what the test queued next. */
export interface RecordingServer {
  baseUrl: string;
  requests: RecordedRequest[];
  answerNext(...answers: CannedAnswer[]): void;
  close(): Promise<void>;
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const answers: CannedAnswer[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: raw ? JSON.parse(raw) : undefined });
      const answer = answers.shift() ?? { status: 500, body: { error: 'no canned answer' } };
      const reply = () => {
        res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers });
        res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs).unref();
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    answerNext: (...next) => answers.push(...next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
