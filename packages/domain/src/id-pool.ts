import { randomFillSync } from 'node:crypto';
import type { IdPrefix } from './ids';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A `newId` for hot paths: the same `<prefix>_<ULID>` format, but its 80 random bits come from a pooled
 * buffer refilled 4 KiB at a time. The `ulid` package asks the OS for one byte per character (16
 * calls per id), which costs about a tenth of the gateway's CPU per accepted message.
 */
export function createPooledIdGenerator(poolBytes = 4096): (prefix: IdPrefix, now?: number) => string {
  const pool = Buffer.alloc(poolBytes);
  let offset = poolBytes;
  return (prefix, now = Date.now()) => {
    if (offset + 16 > poolBytes) {
      randomFillSync(pool);
      offset = 0;
    }
    let time = '';
    for (let i = 0, t = now; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time;
    let random = '';
    // 256 is a multiple of 32, so the low five bits of a uniform byte are uniform.
    for (let i = 0; i < 16; i++) random += CROCKFORD[pool[offset + i] & 31];
    offset += 16;
    return `${prefix}_${time}${random}`;
  };
}
