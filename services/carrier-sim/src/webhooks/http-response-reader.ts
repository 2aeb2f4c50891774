/** What one HTTP/1.1 response said that the webhook poster needs: its status and whether the server closes after it. */
export interface ResponseSeen {
  status: number;
  /** `Connection: close`, HTTP/1.0 without keep-alive, or a body delimited by the end of the connection. */
  closeAfter: boolean;
}

/** A response head larger than this is treated as a broken peer, not buffered forever. */
const MAX_HEAD_BYTES = 64 * 1024;

type Mode = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'trailers' | 'until-close';

/**
 * Reads the responses to pipelined requests off one connection, in order. Only the status and the framing
 * are read: webhook answers' bodies mean nothing to the simulator and are skipped. Handles `Content-Length`,
 * `Transfer-Encoding: chunked`, a body ended by the connection closing, bodiless statuses (1xx, 204, 304)
 * and interim 1xx answers, which precede the real one (docs/upstream-wire.md#webhook-transport).
 */
export class HttpResponseReader {
  private buffered: Buffer | null = null;
  private mode: Mode = 'head';
  private remaining = 0;
  private current: ResponseSeen = { status: 0, closeAfter: false };

  constructor(private readonly onResponse: (response: ResponseSeen) => void) {}

  /** Feeds bytes read from the connection; throws on a response that cannot be framed. */
  push(chunk: Buffer): void {
    let data = this.buffered ? Buffer.concat([this.buffered, chunk]) : chunk;
    this.buffered = null;
    let at = 0;
    while (at < data.length) {
      const used = this.step(data, at);
      if (used < 0) break;
      at = used;
    }
    if (at < data.length) {
      data = data.subarray(at);
      if (this.mode !== 'length' && this.mode !== 'chunk-data' && this.mode !== 'until-close' && data.length > MAX_HEAD_BYTES) {
        throw new Error('response head or chunk line too large');
      }
      this.buffered = Buffer.from(data);
    }
  }

  /** The connection ended: completes a body delimited by the close; true when nothing was left half-read. */
  end(): boolean {
    if (this.mode === 'until-close') {
      this.mode = 'head';
      this.onResponse(this.current);
      return true;
    }
    return this.mode === 'head' && this.buffered === null;
  }

  /** Consumes from `at`; returns the new offset, or -1 when more bytes are needed. */
  private step(data: Buffer, at: number): number {
    switch (this.mode) {
      case 'head':
        return this.readHead(data, at);
      case 'length': {
        const take = Math.min(this.remaining, data.length - at);
        this.remaining -= take;
        if (this.remaining === 0) this.complete();
        return at + take;
      }
      case 'chunk-size': {
        const lineEnd = data.indexOf('\r\n', at, 'latin1');
        if (lineEnd < 0) return -1;
        const size = parseInt(data.toString('latin1', at, lineEnd).split(';')[0].trim(), 16);
        if (!Number.isFinite(size) || size < 0) throw new Error('bad chunk size');
        if (size === 0) this.mode = 'trailers';
        else {
          this.mode = 'chunk-data';
          // The chunk's data and the CRLF after it.
          this.remaining = size + 2;
        }
        return lineEnd + 2;
      }
      case 'chunk-data': {
        const take = Math.min(this.remaining, data.length - at);
        this.remaining -= take;
        if (this.remaining === 0) this.mode = 'chunk-size';
        return at + take;
      }
      case 'trailers': {
        const lineEnd = data.indexOf('\r\n', at, 'latin1');
        if (lineEnd < 0) return -1;
        if (lineEnd === at) this.complete();
        return lineEnd + 2;
      }
      case 'until-close':
        return data.length;
    }
  }

  private readHead(data: Buffer, at: number): number {
    const headEnd = data.indexOf('\r\n\r\n', at, 'latin1');
    if (headEnd < 0) return -1;
    const lines = data.toString('latin1', at, headEnd).split('\r\n');
    const statusLine = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0]);
    if (!statusLine) throw new Error(`not an HTTP/1.x response: ${lines[0].slice(0, 40)}`);
    const status = Number(statusLine[2]);
    let contentLength = -1;
    let chunked = false;
    let connection = '';
    for (let i = 1; i < lines.length; i += 1) {
      const colon = lines[i].indexOf(':');
      if (colon < 0) continue;
      const name = lines[i].slice(0, colon).trim().toLowerCase();
      const value = lines[i]
        .slice(colon + 1)
        .trim()
        .toLowerCase();
      if (name === 'content-length') contentLength = Number(value);
      else if (name === 'transfer-encoding') chunked = value.split(',').at(-1)?.trim() === 'chunked';
      else if (name === 'connection') connection = value;
    }
    const next = headEnd + 4;
    // An interim answer (100 Continue, 103 Early Hints): the real one follows on the same connection.
    if (status >= 100 && status < 200 && status !== 101) return next;
    const closeAfter = connection.includes('close') || (statusLine[1] === '0' && !connection.includes('keep-alive'));
    this.current = { status, closeAfter };
    if (status === 204 || status === 304 || status === 101) {
      this.complete();
    } else if (chunked) {
      this.mode = 'chunk-size';
    } else if (contentLength >= 0) {
      if (!Number.isSafeInteger(contentLength)) throw new Error('bad content-length');
      this.remaining = contentLength;
      this.mode = 'length';
      if (contentLength === 0) this.complete();
    } else {
      this.current = { status, closeAfter: true };
      this.mode = 'until-close';
    }
    return next;
  }

  private complete(): void {
    this.mode = 'head';
    this.onResponse(this.current);
  }
}
