import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from '@switchboard/domain';
import { gatewayErrors, problemDocument } from './problem';

/**
 * Requests that node's HTTP parser refuses never reach express; node would answer them with a bare
 * status line. These become problem documents like every other refusal (see docs/errors.md).
 */
function problemFor(code: string | undefined): ApiError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(
        431,
        'request_header_fields_too_large',
        'Request header fields too large',
        'The request line and headers exceed the size this server reads.',
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError(413, 'payload_too_large', 'Payload too large', 'The chunk extensions exceed the size this server reads.');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, 'request_timeout', 'Request timeout', 'The request was not received in time.');
    default:
      return gatewayErrors.badRequest('The request is not well-formed HTTP/1.1.');
  }
}

/** One complete HTTP/1.1 response with a problem body; the connection is closed after it. */
export function rawProblemResponse(error: ApiError, requestId = randomUUID()): string {
  const body = JSON.stringify(problemDocument(error, requestId));
  return [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}`,
    'Content-Type: application/problem+json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * The server's `clientError` listener. It answers only where node itself would: on a writable socket
 * with no response of an earlier request under way, as interleaving two answers would corrupt the
 * stream. A reset connection has no one to answer.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code !== 'ECONNRESET' && socket.writable && !answering?.headersSent) {
    // Destroyed once written: a client that keeps its end open must not hold the server's close().
    socket.end(rawProblemResponse(problemFor(error.code)), () => socket.destroy());
    return;
  }
  socket.destroy();
}
