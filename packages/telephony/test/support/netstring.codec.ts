/** Netstrings (`<length>:<bytes>,`), the framing of baresip's ctrl_tcp. */
export function encodeNetstring(payload: string): Buffer {
  const body = Buffer.from(payload, 'utf8');
  return Buffer.concat([Buffer.from(`${body.length}:`), body, Buffer.from(',')]);
}

/** Accumulates TCP chunks and returns each complete netstring's payload. */
export function createNetstringReader(): (chunk: Buffer) => string[] {
  let pending = Buffer.alloc(0);
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    const out: string[] = [];
    for (;;) {
      const colon = pending.indexOf(0x3a);
      if (colon < 0) break;
      const length = Number(pending.subarray(0, colon).toString());
      if (!Number.isInteger(length)) throw new Error(`bad netstring length: ${pending.subarray(0, colon).toString()}`);
      if (pending.length < colon + 1 + length + 1) break;
      out.push(pending.subarray(colon + 1, colon + 1 + length).toString('utf8'));
      pending = pending.subarray(colon + 1 + length + 1);
    }
    return out;
  };
}
