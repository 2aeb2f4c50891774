import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSelfSignedCertificate } from '@switchboard/devstack';
import { createHttpDrain } from '../src/http-drain';

// Over TLS, requests arrive on the TLSSocket, not on the TCP socket of 'connection': the drain must
// still see a request in flight on a connection that has been open longer than the idle grace.
const dir = mkdtempSync(join(tmpdir(), 'https-drain-'));
const files = { certFile: join(dir, 'c.pem'), keyFile: join(dir, 'k.pem') };
let ca: Buffer;
let server: Server;
let releaseSlow: () => void = () => undefined;

beforeAll(() => {
  generateSelfSignedCertificate(files);
  ca = readFileSync(files.certFile);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function get(port: number, agent: Agent, path = '/'): Promise<{ status: number; connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent, ca, servername: 'localhost' }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
    })
      .on('error', reject)
      .end();
  });
}

it('lets a slow request on an old keep-alive TLS connection finish, with Connection: close', async () => {
  server = createServer({ cert: readFileSync(files.certFile), key: readFileSync(files.keyFile) }, (req, res) => {
    if (req.url === '/slow') releaseSlow = () => res.end('slow');
    else res.end('ok');
  });
  const drain = createHttpDrain(server as unknown as HttpServer, { idleGraceMs: 50 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  expect((await get(port, agent)).connection).toBe('keep-alive');
  await new Promise((r) => setTimeout(r, 100));
  const slow = get(port, agent, '/slow');
  await new Promise((r) => setTimeout(r, 100));
  const drained = drain.drain();
  await new Promise((r) => setTimeout(r, 100));
  releaseSlow();
  expect(await slow).toEqual({ status: 200, connection: 'close', body: 'slow' });
  await drained;
  agent.destroy();
});
