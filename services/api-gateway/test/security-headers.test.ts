import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import { securityHeaders } from '../src/http/security-headers.middleware';

/** The headers of a real HTTP answer from an express app using `middleware`, minus the per-request ones. */
async function headersFrom(middleware: RequestHandler): Promise<Record<string, string>> {
  const app = express();
  app.disable('x-powered-by');
  app.use(middleware);
  app.get('/', (_req, res) => res.json({ ok: true }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await response.text();
    const headers = Object.fromEntries(response.headers);
    delete headers.date;
    delete headers.etag;
    return headers;
  } finally {
    server.close();
  }
}

describe('security headers', () => {
  it.each([false, true])('are exactly what the configured helmet sends (servesTls=%s)', async (servesTls) => {
    const reference = helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
      strictTransportSecurity: servesTls ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    });
    const ours = await headersFrom(securityHeaders({ servesTls }));
    expect(ours).toEqual(await headersFrom(reference));
    expect(ours['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(ours['x-frame-options']).toBe('DENY');
    expect(ours['strict-transport-security']).toBe(servesTls ? 'max-age=31536000; includeSubDomains' : undefined);
  });
});
