import { randomInt } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';

export interface RtpPortRange {
  min: number;
  max: number;
}

export function bindUdp(address: string, port: number): Promise<Socket> {
  const socket = createSocket('udp4');
  return new Promise((resolve, reject) => {
    socket.once('error', (error) => {
      socket.close();
      reject(error);
    });
    socket.bind(port, address, () => {
      socket.removeAllListeners('error');
      resolve(socket);
    });
  });
}

/** The even ports of a range: RTP's convention (RFC 3550 §11), which peers and firewalls expect. */
export function evenPortsOf(range: RtpPortRange): number[] {
  const ports: number[] = [];
  for (let port = range.min + (range.min % 2); port <= range.max; port += 2) ports.push(port);
  return ports;
}

/**
 * Binds to a free even port of the range (docs/voice-telephony.md#rtp-ports), starting at a random one so that processes
 * sharing a range rarely race for the same port. Throws when every port is taken: the process is at the capacity
 * its range allows.
 */
export async function bindInRange(address: string, range: RtpPortRange): Promise<Socket> {
  const ports = evenPortsOf(range);
  if (ports.length === 0) throw new RangeError(`RTP port range ${range.min}-${range.max} holds no even port`);
  const start = randomInt(0, ports.length);
  for (let i = 0; i < ports.length; i += 1) {
    try {
      return await bindUdp(address, ports[(start + i) % ports.length]);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  throw new Error(`every RTP port of ${range.min}-${range.max} is in use`);
}
