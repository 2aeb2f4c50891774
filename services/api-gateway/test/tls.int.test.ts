import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect, type PeerCertificate, type TLSSocket } from 'node:tls';
import { generateSelfSignedCertificate, waitFor } from '@switchboard/devstack';
import { startGatewayHarness, type GatewayHarness } from './support/gateway-harness';

// The gateway as an HTTPS server from a real certificate (docs/running.md#https): HSTS, no plain HTTP
// on its port, SIGHUP renewal seen by new connections while open ones keep working, helmet's headers.
jest.setTimeout(60_000);

const dir = mkdtempSync(join(tmpdir(), 'gateway-tls-'));
const files = { certFile: join(dir, 'gateway.crt'), keyFile: join(dir, 'gateway.key') };
let firstCert: Buffer;
let h: GatewayHarness;

interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  fingerprint: string;
}

function httpsGet(path: string, { ca, agent }: { ca: Buffer[]; agent?: Agent }): Promise<HttpsAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port: h.gateway.port, path, ca, agent, servername: 'localhost' }, (res) => {
      const peer: PeerCertificate = (res.socket as TLSSocket).getPeerCertificate();
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString(), fingerprint: peer.fingerprint256 }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const fingerprintOf = (pem: Buffer) => new X509Certificate(pem).fingerprint256;

beforeAll(async () => {
  generateSelfSignedCertificate(files);
  firstCert = readFileSync(files.certFile);
  // REQUIRE_TLS too: TLS on the socket is what makes a request secure here, without any proxy.
  h = await startGatewayHarness({ TLS_CERT_FILE: files.certFile, TLS_KEY_FILE: files.keyFile, REQUIRE_TLS: 'true' });
});

afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('answers over HTTPS with the configured certificate and sends HSTS', async () => {
  const res = await httpsGet('/healthz', { ca: [firstCert] });
  expect(res.status).toBe(200);
  expect(res.fingerprint).toBe(fingerprintOf(firstCert));
  expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
});

test('does not serve plain HTTP on the TLS port', async () => {
  const outcome = await new Promise<string>((resolve) => {
    const req = httpGet({ host: '127.0.0.1', port: h.gateway.port, path: '/healthz' }, (res) => resolve(`status ${res.statusCode}`));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code ?? error.message}`));
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
  });
  expect(outcome).toMatch(/^error /);
});

test('an API answer carries the security headers, and REQUIRE_TLS lets TLS requests through', async () => {
  const res = await httpsGet('/v1/messages', { ca: [firstCert] });
  expect(res.status).toBe(401);
  expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['x-powered-by']).toBeUndefined();
});

test('/docs still renders under its own hash-pinned CSP', async () => {
  const res = await httpsGet('/docs', { ca: [firstCert] });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  // The Scalar page: its mount point and the bundle the gateway serves itself (docs/api.md).
  expect(res.body).toContain('<div id="reference"></div>');
  expect(res.body).toContain('<script src="/docs/');
  const csp = String(res.headers['content-security-policy']);
  expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(res.headers['x-content-type-options']).toBe('nosniff');
});

test('a malformed request over TLS gets a problem document', async () => {
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port: h.gateway.port, ca: [firstCert], servername: 'localhost' }, () =>
      socket.end('GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'),
    );
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString()));
    socket.on('error', reject);
  });
  expect(answer).toMatch(/^HTTP\/1.1 400 /);
  expect(answer).toContain('Content-Type: application/problem+json');
});

test('SIGHUP loads a renewed certificate for new connections; an open connection keeps working', async () => {
  const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
  const before = await httpsGet('/healthz', { ca: [firstCert], agent: keepAlive });
  expect(before.fingerprint).toBe(fingerprintOf(firstCert));

  // Written beside the live files and renamed over them, as a renewal tool does.
  const next = { certFile: join(dir, 'next.crt'), keyFile: join(dir, 'next.key') };
  generateSelfSignedCertificate(next);
  const secondCert = readFileSync(next.certFile);
  expect(fingerprintOf(secondCert)).not.toBe(fingerprintOf(firstCert));
  renameSync(next.keyFile, files.keyFile);
  renameSync(next.certFile, files.certFile);
  h.gateway.child.kill('SIGHUP');

  let seen = '';
  await waitFor(
    async () => {
      seen = (await httpsGet('/healthz', { ca: [firstCert, secondCert] })).fingerprint;
      return seen === fingerprintOf(secondCert);
    },
    'the renewed certificate on a new connection',
    15_000,
  );
  expect(seen).toBe(fingerprintOf(secondCert));

  const onOldConnection = await httpsGet('/healthz', { ca: [firstCert], agent: keepAlive });
  expect(onOldConnection.status).toBe(200);
  expect(onOldConnection.fingerprint).toBe(fingerprintOf(firstCert));
  keepAlive.destroy();
  expect(h.gateway.child.exitCode).toBeNull();
});

test('SIGTERM drains the TLS server and exits 0', async () => {
  const exit = new Promise<number | null>((resolve) => h.gateway.child.once('exit', (code) => resolve(code)));
  h.gateway.child.kill('SIGTERM');
  expect(await exit).toBe(0);
});
