import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EnvReader } from '@switchboard/runtime';
import { parseTrustProxy, readTlsFiles } from '../src/config';

describe('parseTrustProxy', () => {
  test.each([
    ['false', false],
    ['true', true],
    ['2', 2],
    ['loopback', ['loopback']],
    ['10.0.0.0/8, 192.168.1.7 ,fd00::/8', ['10.0.0.0/8', '192.168.1.7', 'fd00::/8']],
  ])('accepts %s', (raw, expected) => {
    expect(parseTrustProxy(raw)).toEqual(expected);
  });

  test.each(['yes please', '10.0.0.0/33', '::1/129', '300.1.1.1', '10.0.0.0/8/1', '99', ','])('refuses %s', (raw) => {
    expect(() => parseTrustProxy(raw)).toThrow();
  });
});

describe('readTlsFiles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tls-config-'));
  const cert = join(dir, 'c.pem');
  const key = join(dir, 'k.pem');
  writeFileSync(cert, 'cert');
  writeFileSync(key, 'key');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const read = (env: Record<string, string>) => {
    const r = new EnvReader(env);
    return { tls: readTlsFiles(r), problems: r.problems };
  };

  test('neither set: plain HTTP', () => {
    expect(read({})).toEqual({ tls: undefined, problems: [] });
  });

  test('both set and readable', () => {
    expect(read({ TLS_CERT_FILE: cert, TLS_KEY_FILE: key })).toEqual({ tls: { certFile: cert, keyFile: key }, problems: [] });
  });

  test('only one set is a problem', () => {
    expect(read({ TLS_CERT_FILE: cert }).problems).toEqual([expect.stringContaining('must be set together')]);
    expect(read({ TLS_KEY_FILE: key }).problems).toEqual([expect.stringContaining('must be set together')]);
  });

  test('an unreadable file is named', () => {
    expect(read({ TLS_CERT_FILE: cert, TLS_KEY_FILE: join(dir, 'missing.pem') }).problems).toEqual([expect.stringMatching(/^TLS_KEY_FILE is not readable/)]);
  });
});
