import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { aptInstall, has } from './infra';

export interface CertificateFiles {
  certFile: string;
  keyFile: string;
}

/**
 * A self-signed certificate for localhost and 127.0.0.1 (P-256 key, 825 days: the longest validity
 * macOS and browsers accept for a leaf), written by Debian's openssl.
 */
export function generateSelfSignedCertificate({ certFile, keyFile }: CertificateFiles, commonName = 'localhost'): void {
  if (!has('openssl')) aptInstall(['openssl']);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '825',
      '-subj',
      `/CN=${commonName}`,
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
}

/**
 * `npm start --https` (docs/running.md#https): the certificate under `<stateDir>/tls`, created on the
 * first run only, so a client that trusts it once keeps trusting it.
 */
export function ensureLocalCertificate(stateDir: string): CertificateFiles {
  const dir = join(stateDir, 'tls');
  const files = { certFile: join(dir, 'localhost.crt'), keyFile: join(dir, 'localhost.key') };
  if (existsSync(files.certFile) && existsSync(files.keyFile)) return files;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  generateSelfSignedCertificate(files);
  return files;
}
