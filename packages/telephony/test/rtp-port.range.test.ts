import type { Socket } from 'node:dgram';
import { bindInRange, bindUdp, evenPortsOf } from '../src/media/rtp-port.range';
import { resolveSipTrunkConfig } from '../src/sip/sip-trunk.config';

describe('RTP port range', () => {
  it('uses the even ports of the range', () => {
    expect(evenPortsOf({ min: 10001, max: 10006 })).toEqual([10002, 10004, 10006]);
    expect(evenPortsOf({ min: 10001, max: 10001 })).toEqual([]);
  });

  it('binds each session to a free even port of the range and refuses once all are taken', async () => {
    const probe = await bindUdp('127.0.0.1', 0);
    const first = probe.address().port & ~1;
    probe.close();
    const range = { min: first, max: first + 3 }; // two even ports
    const sockets: Socket[] = [];
    try {
      sockets.push(await bindInRange('127.0.0.1', range), await bindInRange('127.0.0.1', range));
      expect(sockets.map((s) => s.address().port).sort()).toEqual([first, first + 2]);
      await expect(bindInRange('127.0.0.1', range)).rejects.toThrow(`every RTP port of ${first}-${first + 3} is in use`);
    } finally {
      for (const s of sockets) s.close();
    }
    await expect(bindInRange('127.0.0.1', { min: 40001, max: 40001 })).rejects.toThrow('holds no even port');
  });

  it('is checked with the rest of the trunk config', () => {
    const base = { host: '127.0.0.1', callerId: 'switchboard', bindAddress: '127.0.0.2' };
    expect(resolveSipTrunkConfig({ ...base, rtpPorts: { min: 20000, max: 20100 } }).rtpPorts).toEqual({ min: 20000, max: 20100 });
    expect(() => resolveSipTrunkConfig({ ...base, rtpPorts: { min: 20100, max: 20000 } })).toThrow('rtpPorts');
  });
});
