import { randomBytes, randomInt, randomUUID } from 'node:crypto';

/**
 * Ids handed out on every send come from a block of random bytes drawn once per 4 KiB of ids, not from
 * a crypto call each (one `randomBytes` per send was a visible share of the send path's CPU under load;
 * docs/performance/carrier-sim.md#carrier-sim). They only need to be unguessable enough not to collide across
 * simulator restarts, which 96+ bits from a CSPRNG are.
 */
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let poolAt = 0;

function take(size: number): Buffer {
  if (poolAt + size > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    poolAt = 0;
  }
  const bytes = pool.subarray(poolAt, poolAt + size);
  poolAt += size;
  return bytes;
}

/** `count` decimal digits from pooled bytes, the first one 1..9 so the length stays fixed. */
function digits(count: number): string {
  const bytes = take(count);
  let text = String(1 + (bytes[0] % 9));
  for (let i = 1; i < count; i += 1) text += String(bytes[i] % 10);
  return text;
}

/** Cloud API message ids are `wamid.` followed by base64 of an opaque protobuf. */
export function newWamid(): string {
  return `wamid.${take(27).toString('base64')}`;
}

/** Graph object ids are decimal strings; 15 digits stays inside Number.MAX_SAFE_INTEGER. */
export function newGraphId(): string {
  return `${randomInt(1, 10)}${String(randomInt(0, 1e7)).padStart(7, '0')}${String(randomInt(0, 1e7)).padStart(7, '0')}`;
}

export function newSmscMessageId(): string {
  return take(8).toString('hex');
}

/** Pub/Sub message ids are decimal strings of 16 digits. */
export function newPubSubMessageId(): string {
  return digits(16);
}

export function newRbmEventId(): string {
  return `MxS${take(12).toString('base64url')}`;
}

export function newRbmUserMessageId(): string {
  return `MsS${take(12).toString('base64url')}`;
}

export function newTraceId(): string {
  return take(12).toString('base64url');
}

export { randomUUID };
