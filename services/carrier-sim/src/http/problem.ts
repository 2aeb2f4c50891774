import type { Response } from 'express';

/** RFC 9457 problem answer for the simulator's own /sim API. */
export function sendProblem(res: Response, status: number, code: string, detail: string): void {
  const titles: Record<number, string> = { 400: 'Bad Request', 404: 'Not Found', 409: 'Conflict', 500: 'Internal Server Error', 503: 'Service Unavailable' };
  res
    .status(status)
    .type('application/problem+json')
    .send(JSON.stringify({ type: `/errors/${code}`, title: titles[status] ?? 'Error', status, detail, code }));
}
