import { checkResolvedAddress, checkWebhookUrl, classifyAddress, parseIPv4Loose, STRICT_POLICY, type TargetPolicy } from '../src';

const privateAllowed: TargetPolicy = { allowHttp: true, allowPrivateNetworks: true, allowedHosts: [] };

describe('target guard', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['2130706433', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['169.254.169.254', 'metadata'],
    ['169.254.1.1', 'link_local'],
    ['fe80::1', 'link_local'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fd12:3456::1', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['fd00:ec2::254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['64:ff9b::a00:1', 'private'],
  ])('classifies %s as %s and refuses it with a reason', (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
    const verdict = checkResolvedAddress(address.replace(/^\[|\]$/g, ''), 'example.com', STRICT_POLICY);
    expect(verdict).toEqual({ allowed: false, reason: expect.stringMatching(/^address_refused: /) });
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '11.0.0.1'])('allows the public address %s', (address) => {
    expect(classifyAddress(address)).toBeNull();
    expect(checkResolvedAddress(address, 'example.com', STRICT_POLICY)).toEqual({ allowed: true });
  });

  it.each([
    'https://127.0.0.1/h',
    'https://127.1/h',
    'https://2130706433/h',
    'https://0x7f000001/h',
    'https://0177.0.0.1/h',
    'https://[::1]/h',
    'https://[::ffff:127.0.0.1]/h',
    'https://0.0.0.0/h',
    'https://169.254.169.254/latest',
    'https://10.0.0.1/',
    'https://172.16.0.1/',
    'https://192.168.1.1/',
    'https://100.64.0.1/',
    'https://224.0.0.1/',
    'https://[fd00:ec2::254]/',
    'https://localhost/h',
    'https://a.localhost:8443/h',
  ])('refuses the URL %s at registration', (url) => {
    const verdict = checkWebhookUrl(url, STRICT_POLICY);
    expect(verdict.allowed).toBe(false);
    expect(!verdict.allowed && verdict.reason).toMatch(/^address_refused: /);
  });

  it('refuses metadata addresses even when private networks or the host are allowed', () => {
    expect(checkWebhookUrl('http://169.254.169.254/latest/meta-data', privateAllowed).allowed).toBe(false);
    expect(checkWebhookUrl('http://[fd00:ec2::254]/', privateAllowed).allowed).toBe(false);
    expect(checkResolvedAddress('169.254.169.254', 'meta.internal', { ...STRICT_POLICY, allowedHosts: ['meta.internal'] }).allowed).toBe(false);
  });

  it('opens loopback and private ranges with TARGET_ALLOW_PRIVATE_NETWORKS or an allowed host', () => {
    expect(checkWebhookUrl('http://127.0.0.1:9000/hook', privateAllowed)).toEqual({ allowed: true });
    expect(checkResolvedAddress('10.1.2.3', 'hooks.internal', { ...STRICT_POLICY, allowedHosts: ['hooks.internal'] })).toEqual({ allowed: true });
    expect(checkResolvedAddress('10.1.2.3', 'other.internal', { ...STRICT_POLICY, allowedHosts: ['hooks.internal'] }).allowed).toBe(false);
  });

  it('refuses http:// unless allowed, and non-http schemes and credentials always', () => {
    expect(checkWebhookUrl('http://example.com/h', STRICT_POLICY)).toEqual({ allowed: false, reason: expect.stringMatching(/^scheme_refused/) });
    expect(checkWebhookUrl('http://example.com/h', { ...STRICT_POLICY, allowHttp: true })).toEqual({ allowed: true });
    expect(checkWebhookUrl('https://example.com/h', STRICT_POLICY)).toEqual({ allowed: true });
    expect(checkWebhookUrl('ftp://example.com/h', privateAllowed).allowed).toBe(false);
    expect(checkWebhookUrl('https://u:p@example.com/h', STRICT_POLICY).allowed).toBe(false);
    expect(checkWebhookUrl('not a url', STRICT_POLICY).allowed).toBe(false);
  });

  it('parses IPv4 forms the way inet_aton does', () => {
    expect(parseIPv4Loose('127.1')).toEqual([127, 0, 0, 1]);
    expect(parseIPv4Loose('10.1.258')).toEqual([10, 1, 1, 2]);
    expect(parseIPv4Loose('0x7f.1')).toEqual([127, 0, 0, 1]);
    expect(parseIPv4Loose('4294967296')).toBeNull();
    expect(parseIPv4Loose('256.1.1.1')).toBeNull();
    expect(parseIPv4Loose('08.1.1.1')).toBeNull();
    expect(parseIPv4Loose('example.com')).toBeNull();
  });
});
