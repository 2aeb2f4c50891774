import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import type { ConnectionOptions, Queue } from 'bullmq';
import { ApiError } from '@switchboard/domain';
import { MESSAGE_TIMERS_QUEUE, openQueue, WEBHOOK_DELIVERY_QUEUE } from '@switchboard/queues';

/** Where Bull Board lives (docs/observability.md#bull-board). */
export const QUEUE_BOARD_PATH = '/admin/queues';

const REALM = 'Basic realm="Switchboard admin", charset="UTF-8"';

/**
 * A browser cannot send our `Authorization: Bearer` to the board's own API calls, but it repeats HTTP
 * Basic credentials on every request once asked. The password of a Basic login is therefore taken as
 * the API key (any user name), and the usual API-key check then needs the `admin` scope.
 */
const basicPasswordAsBearer: RequestHandler = (req, _res, next) => {
  const header = req.headers.authorization;
  if (header?.toLowerCase().startsWith('basic ')) {
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    req.headers.authorization = `Bearer ${colon >= 0 ? decoded.slice(colon + 1) : decoded}`;
  }
  next();
};

const authenticatedAdmin: RequestHandler = (_req, res, next) => {
  // The API's CSP forbids everything; the board is a page that loads its own scripts and styles from us,
  // and nothing from elsewhere (its Google Fonts link is blocked, the fonts fall back to local ones).
  res.setHeader(
    'Content-Security-Policy',
    [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
    ].join('; '),
  );
  next();
};

/** The API's 401 challenges for Bearer; the board's challenges for Basic, so that a browser shows its login. */
const askBrowserForLogin: ErrorRequestHandler = (error: unknown, _req, _res, next) => {
  if (error instanceof ApiError && error.status === 401) error.headers['WWW-Authenticate'] = REALM;
  next(error);
};

/**
 * Bull Board over the given queues, for callers with the `admin` scope (docs/observability.md#bull-board).
 * Its pages, scripts and styles come from the installed `@bull-board/ui` package, served by the gateway.
 */
export function queueBoardRouter({
  queues,
  connection,
  prefix,
  authenticateAdmin,
}: {
  queues: readonly Queue[];
  connection: ConnectionOptions;
  prefix: string;
  authenticateAdmin: RequestHandler[];
}): Router {
  let board: RequestHandler | undefined;
  // Built on the first admin request: Bull Board is about 18 MB of the gateway's memory that an
  // API-only gateway never uses (docs/performance/batch.md#gateway-memory).
  const lazyBoard: RequestHandler = (req, res, next) => {
    board ??= buildBoard(queues, connection, prefix);
    board(req, res, next);
  };
  const router = Router();
  router.use(QUEUE_BOARD_PATH, basicPasswordAsBearer, ...authenticateAdmin, authenticatedAdmin, lazyBoard, askBrowserForLogin);
  return router;
}

function buildBoard(queues: readonly Queue[], connection: ConnectionOptions, prefix: string): RequestHandler {
  // require, not import: loaded on the first admin request only (queueBoardRouter's lazyBoard).
  /* eslint-disable @typescript-eslint/no-require-imports -- Bull Board loads on the board's first request only (lazy-modules.test.ts) */
  const { createBullBoard } = require('@bull-board/api') as typeof import('@bull-board/api');
  const { BullMQAdapter } = require('@bull-board/api/bullMQAdapter') as typeof import('@bull-board/api/bullMQAdapter');
  const { ExpressAdapter } = require('@bull-board/express') as typeof import('@bull-board/express');
  /* eslint-enable @typescript-eslint/no-require-imports */
  // The queues only workers use, opened on the gateway's connection so that the board shows every queue.
  const workerOnly = [MESSAGE_TIMERS_QUEUE, WEBHOOK_DELIVERY_QUEUE].map((contract) => openQueue(contract, { connection, prefix }) as Queue);
  for (const queue of workerOnly) queue.on('error', () => undefined);
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: [...queues, ...workerOnly].map((queue) => new BullMQAdapter(queue)),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Switchboard queues' } },
  });
  return serverAdapter.getRouter() as RequestHandler;
}
