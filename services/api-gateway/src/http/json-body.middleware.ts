import type { RequestHandler } from 'express';
import { ValidationError } from '@switchboard/domain';
import { MAX_JSON_DEPTH, tooDeepAt } from '@switchboard/schemas';
import { gatewayErrors } from './problem';
import { rawBodyOf, setRawBody } from './request-context';

/** `application/json`, optionally with `charset=utf-8` (RFC 8259 §8.1: JSON on the wire is UTF-8). */
function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const [mediaType, ...params] = header.split(';');
  if (mediaType.trim().toLowerCase() !== 'application/json') return false;
  return params.every((param) => {
    const [name, value = ''] = param.split('=');
    if (name.trim().toLowerCase() !== 'charset') return true;
    return ['utf-8', 'utf8'].includes(value.trim().replace(/^"|"$/g, '').toLowerCase());
  });
}

/**
 * Reads a JSON request's raw bytes, at most `limitBytes` (docs/conventions.md#requests-and-bodies: 415 for anything but
 * uncompressed application/json, 413 beyond the limit). The raw bytes are kept for signature checks.
 */
export function readJsonRequestBody(limitBytes: number): RequestHandler {
  return (req, res, next) => {
    const encoding = req.headers['content-encoding'];
    if (!isJsonContentType(req.headers['content-type']) || (encoding !== undefined && encoding.toLowerCase() !== 'identity')) {
      next(gatewayErrors.unsupportedMediaType());
      return;
    }
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limitBytes) {
      // Nothing will read the rest of this body, so the connection cannot carry another request.
      res.setHeader('Connection', 'close');
      next(gatewayErrors.payloadTooLarge(limitBytes));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      next(error);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limitBytes) {
        res.setHeader('Connection', 'close');
        settle(gatewayErrors.payloadTooLarge(limitBytes));
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', () => settle(gatewayErrors.badRequest('The request body could not be read.')));
    req.on('end', () => {
      if (settled) return;
      setRawBody(res, Buffer.concat(chunks, size));
      settle();
    });
  };
}

// fatal: bytes that are not UTF-8 make the body invalid JSON instead of turning silently into U+FFFD.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses the raw body (400 `invalid_json`) and refuses nesting deeper than MAX_JSON_DEPTH before any
 * recursive code (fingerprints, JSON.stringify) walks it.
 */
export function parseJsonBody(): RequestHandler {
  return (req, res, next) => {
    const raw = rawBodyOf(res);
    let parsed: unknown;
    try {
      parsed = JSON.parse(utf8.decode(raw));
    } catch {
      next(gatewayErrors.invalidJson(raw.length === 0 ? 'The body is empty.' : 'The body is not valid JSON.'));
      return;
    }
    const deep = tooDeepAt(parsed);
    if (deep !== null) {
      next(new ValidationError([{ field: deep, message: `is nested deeper than ${MAX_JSON_DEPTH} levels` }]));
      return;
    }
    req.body = parsed;
    next();
  };
}

/** Both steps, for routes that need no look at the raw bytes in between. */
export function jsonBody(limitBytes: number): RequestHandler[] {
  return [readJsonRequestBody(limitBytes), parseJsonBody()];
}
