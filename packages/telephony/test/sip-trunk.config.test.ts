import { resolveSipTrunkConfig, type SipTrunkConfig } from '../src/sip/sip-trunk.config';

const base: SipTrunkConfig = { host: 'sip.trunk.example', callerId: '+15550001', bindAddress: '10.0.0.5' };

describe('SIP trunk config', () => {
  it('applies the defaults', () => {
    expect(resolveSipTrunkConfig(base)).toEqual({
      host: 'sip.trunk.example',
      port: 5060,
      transport: 'udp',
      username: undefined,
      password: undefined,
      callerId: '+15550001',
      domain: 'sip.trunk.example',
      bindAddress: '10.0.0.5',
      localPort: 5060,
      publicAddress: '10.0.0.5',
      ringTimeoutMs: 30_000,
      closeTimeoutMs: 2_000,
      mediaThread: true,
    });
  });

  it.each<[Partial<SipTrunkConfig>, string]>([
    [{ host: '' }, 'host'],
    [{ port: 70000 }, 'port'],
    [{ transport: 'tcp' as 'udp' }, 'transport'],
    [{ password: 'x' }, 'username'],
    [{ callerId: 'a b' }, 'callerId'],
    [{ bindAddress: 'localhost' }, 'bindAddress'],
    [{ bindAddress: '0.0.0.0' }, 'publicAddress'],
    [{ host: '10.0.0.5' }, 'publicAddress'],
    [{ localPort: -1 }, 'localPort'],
    [{ ringTimeoutMs: 0 }, 'ringTimeoutMs'],
  ])('rejects %j naming %s', (override, field) => {
    expect(() => resolveSipTrunkConfig({ ...base, ...override })).toThrow(new RegExp(`config: ${field} `));
  });

  it('accepts 0.0.0.0 with a public address, and credentials', () => {
    const config = resolveSipTrunkConfig({ ...base, bindAddress: '0.0.0.0', publicAddress: '203.0.113.7', username: 'u', password: 'p' });
    expect(config).toMatchObject({ publicAddress: '203.0.113.7', username: 'u', password: 'p' });
  });
});
