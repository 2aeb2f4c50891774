import { isIPv6 } from 'node:net';

/**
 * Address parsing the way a resolver reads a host: `inet_aton` accepts 1 to 4 parts, each decimal,
 * hex (`0x`) or octal (leading `0`), the last part filling the remaining bytes. So `127.1`,
 * `2130706433`, `0x7f000001` and `0177.0.0.1` all name 127.0.0.1 and must be classified as such.
 */
export function parseIPv4Loose(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length < 1 || parts.length > 4) return null;
  const values: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = parseInt(part.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) value = Number(part);
    else return null;
    if (!Number.isFinite(value)) return null;
    values.push(value);
  }
  const last = values.pop() as number;
  if (values.some((v) => v > 255)) return null;
  const lastBytes = 4 - values.length;
  if (last >= 2 ** (8 * lastBytes)) return null;
  const bytes = [...values];
  for (let i = lastBytes - 1; i >= 0; i--) bytes.push(Math.floor(last / 2 ** (8 * i)) % 256);
  return bytes;
}

/** Sixteen bytes of an IPv6 address (brackets and a zone id are ignored), or null. */
function parseIPv6(text: string): number[] | null {
  let host = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = host.indexOf('%');
  if (zone >= 0) host = host.slice(0, zone);
  if (!isIPv6(host)) return null;
  let tail: number[] = [];
  const lastColon = host.lastIndexOf(':');
  if (host.slice(lastColon + 1).includes('.')) {
    const v4 = parseIPv4Loose(host.slice(lastColon + 1));
    if (!v4) return null;
    tail = v4;
    host = `${host.slice(0, lastColon + 1)}0:0`;
  }
  const [head, rest] = host.split('::') as [string, string | undefined];
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const fill = rest === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  const words = [...left, ...fill, ...right];
  if (words.length !== 8) return null;
  const bytes = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

export type ParsedAddress = { family: 4; bytes: number[] } | { family: 6; bytes: number[] };

/** An IP literal in any form a resolver accepts, or null when `host` is a name. */
export function parseIpLiteral(host: string): ParsedAddress | null {
  const v6 = parseIPv6(host);
  if (v6) return { family: 6, bytes: v6 };
  const v4 = parseIPv4Loose(host);
  return v4 ? { family: 4, bytes: v4 } : null;
}
