import { createServer } from 'node:net';
import { probeUdpPort } from '../../src/sip/udp-port.probe';

/** A UDP port free on 127.0.0.1 right now. */
export const freeUdpPort = (): Promise<number> => probeUdpPort('127.0.0.1', 0);

/** Whether a TCP listener could bind this port on 127.0.0.1 right now. */
export function tcpPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port free on 127.0.0.1 for both UDP and TCP: baresip's sip_listen binds both, and ctrl_tcp is TCP. */
export async function freeUdpAndTcpPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await freeUdpPort();
    if (await tcpPortFree(port)) return port;
  }
  throw new Error('no port free for both UDP and TCP');
}
