import type { Request, Response } from 'express';
import { CONSOLE_POLICY } from './console-policy';

/** The value of one cookie of the request, or undefined; malformed pairs are skipped. */
export function readCookie(req: Request, name: string): string | undefined {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== name) continue;
    const value = pair.slice(at + 1).trim();
    return /^[A-Za-z0-9_-]{1,128}$/.test(value) ? value : undefined;
  }
  return undefined;
}

/**
 * HttpOnly (scripts never see it), Secure (Chromium and Firefox accept Secure cookies from http://localhost and
 * http://127.0.0.1, which are secure contexts, so one setting serves local runs and TLS alike), SameSite=Lax
 * (other sites' forms and scripts do not carry it on POST), Path=/console (the /v1 API never reads it).
 */
export function setSessionCookie(res: Response, token: string, expiresAt: Date): void {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  res.append('Set-Cookie', `${CONSOLE_POLICY.sessionCookie}=${token}; Path=/console; HttpOnly; Secure; SameSite=Lax; Max-Age=${maxAge}`);
}

export function clearSessionCookie(res: Response): void {
  res.append('Set-Cookie', `${CONSOLE_POLICY.sessionCookie}=; Path=/console; HttpOnly; Secure; SameSite=Lax; Max-Age=0`);
}
