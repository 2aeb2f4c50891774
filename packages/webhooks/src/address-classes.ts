import { parseIpLiteral, type ParsedAddress } from './ip-address';

/** Why an address is not a public unicast destination. `metadata` is refused by every policy. */
export type AddressClass = 'metadata' | 'unspecified' | 'loopback' | 'private' | 'link_local' | 'cgnat' | 'multicast' | 'reserved';

interface Range {
  prefix: number[];
  bits: number;
  cls: AddressClass;
}

const v4 = (a: number, b: number, c: number, d: number, bits: number, cls: AddressClass): Range => ({ prefix: [a, b, c, d], bits, cls });

// Most specific first: 169.254.169.254 must be reported as metadata, not merely link-local.
const IPV4_RANGES: Range[] = [
  v4(169, 254, 169, 254, 32, 'metadata'),
  v4(0, 0, 0, 0, 8, 'unspecified'),
  v4(10, 0, 0, 0, 8, 'private'),
  v4(100, 64, 0, 0, 10, 'cgnat'),
  v4(127, 0, 0, 0, 8, 'loopback'),
  v4(169, 254, 0, 0, 16, 'link_local'),
  v4(172, 16, 0, 0, 12, 'private'),
  v4(192, 0, 0, 0, 24, 'reserved'),
  v4(192, 168, 0, 0, 16, 'private'),
  v4(198, 18, 0, 0, 15, 'reserved'),
  v4(224, 0, 0, 0, 4, 'multicast'),
  v4(240, 0, 0, 0, 4, 'reserved'),
];

const v6 = (hex: string, bits: number, cls: AddressClass): Range => {
  const parsed = parseIpLiteral(hex);
  if (!parsed || parsed.family !== 6) throw new Error(`bad range ${hex}`);
  return { prefix: parsed.bytes, bits, cls };
};

const IPV6_RANGES: Range[] = [
  v6('fd00:ec2::254', 128, 'metadata'),
  v6('::', 128, 'unspecified'),
  v6('::1', 128, 'loopback'),
  v6('fc00::', 7, 'private'),
  v6('fe80::', 10, 'link_local'),
  v6('fec0::', 10, 'private'),
  v6('ff00::', 8, 'multicast'),
  v6('2001:db8::', 32, 'reserved'),
  v6('100::', 64, 'reserved'),
];

function inRange(bytes: number[], range: Range): boolean {
  let bits = range.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i] & mask) !== (range.prefix[i] & mask)) return false;
  }
  return true;
}

/**
 * The IPv4 address an IPv6 address carries, where the kernel would end up talking IPv4: mapped
 * (::ffff:a.b.c.d), compatible (::a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002:aabb:ccdd::/16).
 */
function embeddedIPv4(bytes: number[]): number[] | null {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12);
  if (zeros(0, 12) && !zeros(12, 15)) return bytes.slice(12);
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return bytes.slice(12);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6);
  return null;
}

export function classifyParsed(address: ParsedAddress): AddressClass | null {
  if (address.family === 4) return IPV4_RANGES.find((r) => inRange(address.bytes, r))?.cls ?? null;
  const inner = embeddedIPv4(address.bytes);
  if (inner) return classifyParsed({ family: 4, bytes: inner });
  return IPV6_RANGES.find((r) => inRange(address.bytes, r))?.cls ?? null;
}

/** Class of an IP literal (any resolver-accepted form); null for a public address or a non-IP string. */
export function classifyAddress(host: string): AddressClass | null {
  const parsed = parseIpLiteral(host);
  return parsed ? classifyParsed(parsed) : null;
}
