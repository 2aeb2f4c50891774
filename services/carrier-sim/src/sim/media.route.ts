import type { RequestHandler } from 'express';
import { sendProblem } from '../http/problem';

/** Larger bodies are refused: a HEAD for a 100 MB document check is fine, streaming gigabytes is not useful. */
const MAX_BYTES = 1024 * 1024 * 1024;
const DEFAULT_BYTES = 1024;
const CHUNK_BYTES = 64 * 1024;
const MIME = /^[\w.+-]+\/[\w.+-]+(\s*;\s*[\w.+-]+=[\w.+"-]+)*$/;

/**
 * `GET|HEAD /sim/media/:name?type=<mime>&bytes=<n>`: a stand-in media URL whose Content-Type and
 * Content-Length the test chooses, for the dispatcher's pre-send media checks.
 */
export function createMediaHandler(): RequestHandler {
  return (req, res) => {
    const type = typeof req.query.type === 'string' && req.query.type !== '' ? req.query.type : 'application/octet-stream';
    const rawBytes = typeof req.query.bytes === 'string' ? req.query.bytes : String(DEFAULT_BYTES);
    const bytes = Number(rawBytes);
    if (!MIME.test(type)) return sendProblem(res, 400, 'validation_failed', 'type must be a MIME type');
    if (!/^\d+$/.test(rawBytes) || bytes > MAX_BYTES) {
      return sendProblem(res, 400, 'validation_failed', `bytes must be an integer from 0 to ${MAX_BYTES}`);
    }
    res.status(200);
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Length', String(bytes));
    res.setHeader('Cache-Control', 'no-store');
    if (req.method === 'HEAD' || bytes === 0) {
      res.end();
      return;
    }
    const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, bytes), 0x61);
    let remaining = bytes;
    const pump = () => {
      while (remaining > 0) {
        const size = Math.min(chunk.length, remaining);
        remaining -= size;
        if (!res.write(size === chunk.length ? chunk : chunk.subarray(0, size))) {
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    };
    pump();
  };
}
