import type { JsonAnswer } from '../http/json-answer';
import { newTraceId } from '../support/upstream-ids';

/** The Cloud API error codes the simulator produces, with the HTTP status and title Meta uses. */
export const GRAPH_ERRORS = {
  invalidToken: { code: 190, status: 401, title: 'Invalid OAuth access token - Cannot parse access token' },
  invalidParameterGeneric: { code: 100, status: 400, title: 'Invalid parameter' },
  serviceUnavailable: { code: 2, status: 503, title: 'Service temporarily unavailable' },
  somethingWentWrong: { code: 131000, status: 500, title: 'Something went wrong' },
  invalidParameter: { code: 131009, status: 400, title: 'Parameter value is not valid' },
  notChatUser: { code: 131026, status: 400, title: 'Message Undeliverable' },
  outsideWindow: { code: 131047, status: 400, title: 'Re-engagement message' },
  throttled: { code: 130429, status: 429, title: 'Rate limit hit' },
  templateParamMismatch: { code: 132000, status: 400, title: 'Number of parameters does not match the expected number of params' },
  templateMissing: { code: 132001, status: 400, title: 'Template name does not exist in the translation' },
} as const;

export type GraphErrorKind = keyof typeof GRAPH_ERRORS;

export function graphErrorBody(kind: GraphErrorKind, details: string) {
  const { code, title } = GRAPH_ERRORS[kind];
  return {
    error: {
      message: `(#${code}) ${title}`,
      type: 'OAuthException',
      code,
      error_data: { messaging_product: 'whatsapp', details },
      fbtrace_id: newTraceId(),
    },
  };
}

export function sendGraphError(res: JsonAnswer, kind: GraphErrorKind, details: string): void {
  res.status(GRAPH_ERRORS[kind].status).json(graphErrorBody(kind, details));
}
