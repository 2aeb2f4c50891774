import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router } from 'express';
import { ApiError } from '@switchboard/domain';

/**
 * The built page (packages/console-web/dist, made by `npm run build`). Only our own origin may serve scripts,
 * styles and data to it, so the page can make no external request (docs/console.md).
 */
const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The repository's packages/console-web/dist: the same four levels up from this file in `src` and in `dist`. */
export function consoleAssetsDir(): string | null {
  const dir = join(__dirname, '..', '..', '..', '..', 'packages', 'console-web', 'dist');
  return existsSync(join(dir, 'index.html')) ? dir : null;
}

/** Serves the assets under /console and index.html for every other /console path (the page's own routes). */
export function consoleAssetsRouter(dir: string | null): Router {
  const router = Router();
  router.use('/console', (req, res, next) => {
    if (req.path.startsWith('/api/') || req.path === '/api') return next();
    res.setHeader('Content-Security-Policy', CONSOLE_CSP);
    if (!dir) return next(new ApiError(503, 'console_not_built', 'Console not built', 'The console page has not been built: run `npm run build`.'));
    next();
  });
  if (!dir) return router;
  // Hashed file names under assets/ never change content, so they may be cached for long.
  router.use('/console/assets', express.static(join(dir, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: false }));
  router.get(['/console', '/console/{*rest}'], (req, res, next) => {
    if (req.path.startsWith('/console/api')) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(join(dir, 'index.html'));
  });
  return router;
}
