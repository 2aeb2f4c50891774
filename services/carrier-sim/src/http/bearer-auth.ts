import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export function bearerMatches(header: string | undefined, expected: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1].trim());
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** Rejects requests whose bearer token is not `expected`, answering in the upstream's own error style. */
export function requireBearer(expected: string, reject: (res: Response) => void): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (bearerMatches(req.headers.authorization, expected)) return next();
    res.setHeader('WWW-Authenticate', 'Bearer');
    reject(res);
  };
}
