import { loadConfig, LOST_AFTER_HEARTBEATS } from '../src/config';
import { parseRtpPortRange, parseSipTrunkUri } from '../src/trunk-address';

const base = { DATABASE_URL: 'postgres://localhost/x' };

/** The problems loadConfig exits with, as it writes them. */
function refusal(env: Record<string, string>): string {
  const exit = jest.spyOn(process, 'exit').mockImplementation((() => {
    throw new Error('exit');
  }) as never);
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    expect(() => loadConfig({ ...base, ...env })).toThrow('exit');
    return String(stderr.mock.calls.map((c) => c[0]).join(''));
  } finally {
    exit.mockRestore();
    stderr.mockRestore();
  }
}

describe('voice-orchestrator config', () => {
  it('defaults to the simulator on 127.0.0.1:5070, no live trunk, ephemeral RTP ports and its own health port', () => {
    expect(loadConfig(base)).toMatchObject({
      healthHost: '127.0.0.1',
      healthPort: 8084,
      sandboxTrunk: { host: '127.0.0.1', port: 5070 },
      liveTrunk: undefined,
      rtpPorts: { min: 0, max: 0 },
      heartbeatMs: 10_000,
      lostAfterMs: 45_000,
    });
  });

  it('reads each trunk as one SIP URI, the RTP range as one value, and the heartbeat from VOICE_LOST_AFTER_MS', () => {
    const config = loadConfig({
      ...base,
      VOICE_SIP_TRUNK: 'sip:acme:p%40ss@trunk.example.net:5080',
      SANDBOX_SIP_TRUNK: 'sip:carrier-sim:5071',
      VOICE_RTP_PORTS: '20000-20999',
      VOICE_LOST_AFTER_MS: '9000',
      PORT: '0',
      HOST: '0.0.0.0',
    });
    expect(config).toMatchObject({
      healthHost: '0.0.0.0',
      healthPort: 0,
      liveTrunk: { host: 'trunk.example.net', port: 5080, username: 'acme', password: 'p@ss' },
      sandboxTrunk: { host: 'carrier-sim', port: 5071, username: undefined, password: undefined },
      rtpPorts: { min: 20000, max: 20999 },
      heartbeatMs: 9000 / LOST_AFTER_HEARTBEATS,
    });
  });

  it('names every bad or retired variable at once, without printing a trunk password', () => {
    const written = refusal({ VOICE_SIP_TRUNK: 'sips:u:secret@h', VOICE_RTP_PORTS: '2000-1000', VOICE_SIP_TRUNK_HOST: 'h', VOICE_HEARTBEAT_MS: '500' });
    expect(written).toMatch(/VOICE_SIP_TRUNK is invalid/);
    expect(written).not.toContain('secret');
    expect(written).toMatch(/VOICE_RTP_PORTS is invalid: 2000 is above 1000/);
    expect(written).toMatch(/VOICE_SIP_TRUNK_HOST is no longer read; use VOICE_SIP_TRUNK/);
    expect(written).toMatch(/VOICE_HEARTBEAT_MS is no longer read/);
  });
});

describe('trunk addresses', () => {
  it.each([
    ['sip:trunk.example.net', { host: 'trunk.example.net', port: 5060 }],
    ['sip:10.0.0.5:5070', { host: '10.0.0.5', port: 5070 }],
    ['sip:[2001:db8::1]:5062', { host: '2001:db8::1', port: 5062 }],
    ['sip:alice@trunk.example.net', { host: 'trunk.example.net', port: 5060, username: 'alice' }],
    ['sip:alice:s3cret@trunk.example.net:5061', { host: 'trunk.example.net', port: 5061, username: 'alice', password: 's3cret' }],
  ])('parses %s', (uri, expected) => expect(parseSipTrunkUri(uri)).toEqual({ username: undefined, password: undefined, ...expected }));

  it.each(['trunk.example.net', 'sip:', 'sip:h:0', 'sip:h:70000', 'sip:h;transport=tcp', 'http://h'])('refuses %s', (uri) =>
    expect(() => parseSipTrunkUri(uri)).toThrow(),
  );

  it('parses an RTP range and refuses anything else', () => {
    expect(parseRtpPortRange('10000-20000')).toEqual({ min: 10000, max: 20000 });
    for (const text of ['10000', '0-10', '10-70000', 'a-b']) expect(() => parseRtpPortRange(text)).toThrow();
  });
});
