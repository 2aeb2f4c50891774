import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { setRequestId } from './request-context';

/** Short and safe to echo into logs and headers (docs/conventions.md#request-ids); anything else is replaced. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function requestIdMiddleware(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    setRequestId(res, id);
    res.setHeader('X-Request-Id', id);
    next();
  };
}
