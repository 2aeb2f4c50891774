import type { Response } from 'express';

/** An error in the shape OpenAI's API answers with: `{ error: { message, type, param, code } }`. */
export function sendOpenAiError(res: Response, status: number, message: string, param: string | null = null): void {
  if (status === 429) res.setHeader('retry-after', '1');
  const type = status === 400 ? 'invalid_request_error' : status === 429 ? 'rate_limit_exceeded' : 'server_error';
  res.status(status).json({ error: { message, type, param, code: null } });
}
