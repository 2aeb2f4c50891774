import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { Logger } from '@switchboard/logger';
import type { GatewayConfig } from '../config';

export interface GatewayServer {
  server: Server;
  scheme: 'http' | 'https';
  /** Rereads the certificate and key files; new TLS connections use them, open ones keep theirs. */
  reloadCertificate(): void;
}

function readCredentials(tls: NonNullable<GatewayConfig['tls']>): { cert: Buffer; key: Buffer } {
  return { cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) };
}

/**
 * HTTP, or HTTPS when TLS_CERT_FILE and TLS_KEY_FILE are set (docs/running.md#https). An https.Server
 * is an http.Server underneath, so the drain and the clientError handler work on either.
 */
export function createGatewayServer(app: RequestListener, tls: GatewayConfig['tls'], logger: Logger): GatewayServer {
  if (!tls) return { server: createHttpServer(app), scheme: 'http', reloadCertificate: () => undefined };
  const server: HttpsServer = createHttpsServer(readCredentials(tls), app);
  return {
    server: server as unknown as Server,
    scheme: 'https',
    reloadCertificate() {
      try {
        // Renewal without a restart: setSecureContext swaps the context for later handshakes only.
        server.setSecureContext(readCredentials(tls));
        logger.info('tls certificate reloaded', { cert_file: tls.certFile });
      } catch (error) {
        // A half-written or mismatched pair must not take the gateway down; the old certificate stays.
        logger.error('tls certificate reload failed; keeping the previous one', { error: (error as Error).message });
      }
    },
  };
}

/** SIGHUP rereads the certificate, the usual signal for "reload your files" after a renewal. */
export function reloadCertificateOnSighup(gateway: GatewayServer): void {
  if (gateway.scheme === 'https') process.on('SIGHUP', () => gateway.reloadCertificate());
}
