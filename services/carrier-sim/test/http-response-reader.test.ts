import { HttpResponseReader, type ResponseSeen } from '../src/webhooks/http-response-reader';

// The webhook poster pipelines its requests (docs/upstream-wire.md#webhook-transport), so it must find where
// each answer ends, however the server frames it and however TCP splits it.
function read(pieces: string[]): { seen: ResponseSeen[]; endedCleanly: boolean } {
  const seen: ResponseSeen[] = [];
  const reader = new HttpResponseReader((response) => seen.push(response));
  for (const piece of pieces) reader.push(Buffer.from(piece, 'latin1'));
  return { seen, endedCleanly: reader.end() };
}

/** Every way of cutting `text` into two pieces, and into single bytes. */
function splits(text: string): string[][] {
  const cuts: string[][] = [[text], text.split('')];
  for (let at = 1; at < text.length; at += 1) cuts.push([text.slice(0, at), text.slice(at)]);
  return cuts;
}

describe('HttpResponseReader', () => {
  const pipelined = [
    'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok',
    'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\nDate: x\r\n\r\n',
    'HTTP/1.1 500 Internal Server Error\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nfail\r\n3\r\ned!\r\n0\r\nTrailer: t\r\n\r\n',
    'HTTP/1.1 429 Too Many Requests\r\ncontent-length: 0\r\n\r\n',
    'HTTP/1.1 202 Accepted\r\nConnection: close\r\nContent-Length: 5\r\n\r\nbye!!',
  ].join('');

  it('finds each answer of a pipelined run, wherever the bytes are split', () => {
    for (const pieces of splits(pipelined)) {
      expect(read(pieces)).toEqual({
        seen: [
          { status: 200, closeAfter: false },
          { status: 204, closeAfter: false },
          { status: 500, closeAfter: false },
          { status: 429, closeAfter: false },
          { status: 202, closeAfter: true },
        ],
        endedCleanly: true,
      });
    }
  });

  it('ends a body without a length at the close, and says the connection closes', () => {
    expect(read(['HTTP/1.1 200 OK\r\n\r\nall of', ' it'])).toEqual({ seen: [{ status: 200, closeAfter: true }], endedCleanly: true });
  });

  it('treats an HTTP/1.0 answer without keep-alive as the last on its connection', () => {
    expect(read(['HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n']).seen).toEqual([{ status: 200, closeAfter: true }]);
    expect(read(['HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n']).seen).toEqual([{ status: 200, closeAfter: false }]);
  });

  it('reports an answer cut short by the close as unfinished', () => {
    expect(read(['HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort'])).toEqual({ seen: [], endedCleanly: false });
    expect(read(['HTTP/1.1 200 OK\r\nContent-Le'])).toEqual({ seen: [], endedCleanly: false });
  });

  it('refuses what is not an HTTP/1.x answer', () => {
    const reader = new HttpResponseReader(() => undefined);
    expect(() => reader.push(Buffer.from('SSH-2.0-OpenSSH\r\n\r\n'))).toThrow(/not an HTTP\/1\.x response/);
  });
});
