/**
 * The little of express's request and response that the send endpoints use, so that the same handler
 * serves both the express routes and the fast path of http/fast-sends.listener.ts (docs/performance/carrier-sim.md#carrier-sim).
 */
export interface SendRequest {
  params: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  body: unknown;
}

export interface JsonAnswer {
  status(code: number): JsonAnswer;
  json(body: unknown): unknown;
}
