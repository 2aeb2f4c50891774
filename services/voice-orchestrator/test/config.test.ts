import { describeConfig, loadConfig, LOST_AFTER_HEARTBEATS } from '../src/config';
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
      sandboxLlmBaseUrl: 'http://127.0.0.1:8090',
      liveTrunk: undefined,
      sipListen: { address: '127.0.0.2', port: 0 },
      llm: undefined,
      llmModel: 'gpt-4o-mini',
      rtpPorts: { min: 0, max: 0 },
      heartbeatMs: 10_000,
      lostAfterMs: 45_000,
    });
  });

  it('reads each trunk as one SIP URI, the RTP range as one value, and the heartbeat from VOICE_LOST_AFTER_MS', () => {
    const config = loadConfig({
      ...base,
      VOICE_SIP_TRUNK: 'sip:acme:p%40ss@trunk.example.net:5080',
      SANDBOX_UPSTREAMS: JSON.stringify({ chat: [{ name: 'sandbox-chat', base_url: 'http://carrier-sim:8090' }], sip: 'sip:carrier-sim:5071' }),
      VOICE_SIP_LISTEN: '0.0.0.0:5060',
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
      sandboxLlmBaseUrl: 'http://127.0.0.1:8090',
      sipListen: { address: '0.0.0.0', port: 5060 },
      rtpPorts: { min: 20000, max: 20999 },
      heartbeatMs: 9000 / LOST_AFTER_HEARTBEATS,
    });
  });

  it('reads the LLM as one URI, and the sandbox stand-in from SANDBOX_UPSTREAMS.llm', () => {
    const config = loadConfig({
      ...base,
      LLM_URL: 'https://:sk-l%40m@api.openai.com/?model=gpt-4.1',
      SANDBOX_UPSTREAMS: '{"llm":"http://carrier-sim:8090/"}',
    });
    expect(config).toMatchObject({
      llm: { baseUrl: 'https://api.openai.com', apiKey: 'sk-l@m' },
      llmModel: 'gpt-4.1',
      sandboxLlmBaseUrl: 'http://carrier-sim:8090',
      sandboxTrunk: { host: '127.0.0.1', port: 5070 },
    });
    expect(JSON.stringify(describeConfig(config))).not.toContain('sk-l');
    expect(loadConfig({ ...base, LLM_URL: 'http://llm.internal:8000' })).toMatchObject({
      llm: { baseUrl: 'http://llm.internal:8000', apiKey: undefined },
      llmModel: 'gpt-4o-mini',
    });
  });

  it('names a bad LLM_URL, VOICE_SIP_LISTEN or SANDBOX_UPSTREAMS, without printing a key', () => {
    expect(refusal({ LLM_URL: 'https://:sk-secret@api.openai.com?modle=x' })).toMatch(/LLM_URL is invalid: unknown query parameter "modle" \(known: model\)/);
    expect(refusal({ LLM_URL: 'api.openai.com' })).toMatch(/LLM_URL is invalid: "api.openai.com" is not a URL/);
    expect(refusal({ LLM_URL: 'https://:sk-secret@api.openai.com#x' })).not.toContain('sk-secret');
    expect(refusal({ VOICE_SIP_LISTEN: '127.0.0.2' })).toMatch(/VOICE_SIP_LISTEN is invalid: "127.0.0.2" is not address:port/);
    expect(refusal({ VOICE_SIP_LISTEN: '0.0.0.0:70000' })).toMatch(/VOICE_SIP_LISTEN is invalid: port 70000 is not 0-65535/);
    expect(refusal({ VOICE_SIP_LISTEN: '[::1]:5060' })).toMatch(/VOICE_SIP_LISTEN is invalid: ::1 is an IPv6 address; the SIP and RTP sockets bind IPv4 only/);
    expect(refusal({ VOICE_SIP_LISTEN: 'voice.local:5060' })).toMatch(/VOICE_SIP_LISTEN is invalid: voice.local is not an IPv4 address/);
    expect(refusal({ SANDBOX_UPSTREAMS: '[]' })).toMatch(/SANDBOX_UPSTREAMS must be a JSON object/);
    expect(refusal({ SANDBOX_UPSTREAMS: '{"sip":' })).toMatch(/SANDBOX_UPSTREAMS must be a JSON object/);
    expect(refusal({ SANDBOX_UPSTREAMS: '{"sip":"http://h"}' })).toMatch(/SANDBOX_UPSTREAMS.sip must be a SIP URI/);
    expect(refusal({ SANDBOX_UPSTREAMS: '{"sip":5070}' })).toMatch(/SANDBOX_UPSTREAMS.sip must be a SIP URI such as sip:127.0.0.1:5070; got 5070/);
    expect(refusal({ SANDBOX_UPSTREAMS: '{"llm":"carrier-sim:8090"}' })).toMatch(/SANDBOX_UPSTREAMS.llm must be an http\(s\) URL/);
    expect(refusal({ SANDBOX_UPSTREAMS: '{"Sip":"sip:h"}' })).toMatch(/SANDBOX_UPSTREAMS has unknown keys Sip \(known: chat, rcs, sms, sip, llm\)/);
  });

  it('names every bad or retired variable at once, without printing a trunk password', () => {
    const written = refusal({
      VOICE_SIP_TRUNK: 'sips:u:secret@h',
      VOICE_RTP_PORTS: '2000-1000',
      VOICE_SIP_TRUNK_HOST: 'h',
      VOICE_HEARTBEAT_MS: '500',
      SANDBOX_SIP_TRUNK: 'sip:h',
      LLM_API_KEY: 'sk-secret',
      VOICE_SIP_LOCAL_PORT: '5060',
    });
    expect(written).toMatch(/VOICE_SIP_TRUNK is invalid/);
    expect(written).not.toContain('secret');
    expect(written).toMatch(/VOICE_RTP_PORTS is invalid: 2000 is above 1000/);
    expect(written).toMatch(/VOICE_SIP_TRUNK_HOST is no longer read; use VOICE_SIP_TRUNK/);
    expect(written).toMatch(/VOICE_HEARTBEAT_MS is no longer read/);
    expect(written).toMatch(/SANDBOX_SIP_TRUNK is no longer read; use SANDBOX_UPSTREAMS/);
    expect(written).toMatch(/LLM_API_KEY is no longer read; use LLM_URL/);
    expect(written).toMatch(/VOICE_SIP_LOCAL_PORT is no longer read; use VOICE_SIP_LISTEN/);
    expect(written).not.toContain('sk-secret');
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
