import { createSocket } from 'node:dgram';

/**
 * Checks that a UDP port can be bound (or finds a free one for port 0) before sip.js binds it: sip.js binds
 * without an error listener, so a taken port would crash the process instead of failing the call to `createSipTrunk`.
 */
export function probeUdpPort(address: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', (error) => {
      socket.close();
      reject(error);
    });
    socket.bind(port, address, () => {
      const bound = socket.address().port;
      socket.close(() => resolve(bound));
    });
  });
}
