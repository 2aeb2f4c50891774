import { probeUdpPort } from '../../src/sip/udp-port.probe';

/** A UDP port free on 127.0.0.1 right now. */
export const freeUdpPort = (): Promise<number> => probeUdpPort('127.0.0.1', 0);
