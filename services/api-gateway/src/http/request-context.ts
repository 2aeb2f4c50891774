import type { Response } from 'express';
import type { KeyMode } from '@switchboard/domain';

/** The caller, as established by the API key (docs/authentication.md#api-keys). */
export interface Caller {
  keyId: string;
  accountId: string;
  mode: KeyMode;
  scopes: readonly string[];
  rateLimitPerSecond: number | null;
}

/**
 * Per-request values live on `res.locals` under these names; the accessors keep the typing in one place.
 */
interface GatewayLocals {
  requestId?: string;
  caller?: Caller;
  rawBody?: Buffer;
}

function locals(res: Response): GatewayLocals {
  return res.locals as GatewayLocals;
}

export function setRequestId(res: Response, id: string): void {
  locals(res).requestId = id;
}

export function requestIdOf(res: Response): string {
  return locals(res).requestId ?? '';
}

export function setCaller(res: Response, caller: Caller): void {
  locals(res).caller = caller;
}

export function callerOf(res: Response): Caller {
  const caller = locals(res).caller;
  if (!caller) throw new Error('route is missing the authentication middleware');
  return caller;
}

export function setRawBody(res: Response, body: Buffer): void {
  locals(res).rawBody = body;
}

export function rawBodyOf(res: Response): Buffer {
  return locals(res).rawBody ?? Buffer.alloc(0);
}
