// G.711 μ-law (ITU-T G.711, the PCMU payload of RTP/AVP type 0): 16-bit linear PCM <-> 8-bit logarithmic samples.
// The classic segment/bias implementation; the byte is stored inverted so that silence is 0xFF.

const BIAS = 0x84;
const CLIP = 32635;

/** The μ-law byte for one 16-bit linear sample. */
export function encodeMulawSample(sample: number): number {
  let value = Math.max(-32768, Math.min(32767, Math.round(sample)));
  const sign = value < 0 ? 0x80 : 0;
  if (sign) value = -value;
  if (value > CLIP) value = CLIP;
  value += BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (value & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (value >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

/** The 16-bit linear sample for one μ-law byte. */
export function decodeMulawSample(byte: number): number {
  const inverted = ~byte & 0xff;
  const exponent = (inverted >> 4) & 0x07;
  const magnitude = ((((inverted & 0x0f) << 3) + BIAS) << exponent) - BIAS;
  return (inverted & 0x80 ? -magnitude : magnitude) | 0;
}

const DECODE_TABLE = Int16Array.from({ length: 256 }, (_, byte) => decodeMulawSample(byte));

/** Encodes 16-bit linear PCM to μ-law bytes, one byte per sample. */
export function encodeMulaw(pcm: Int16Array): Buffer {
  const out = Buffer.allocUnsafe(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = encodeMulawSample(pcm[i]);
  return out;
}

/** Decodes μ-law bytes to 16-bit linear PCM. */
export function decodeMulaw(mulaw: Uint8Array): Int16Array {
  const out = new Int16Array(mulaw.length);
  for (let i = 0; i < mulaw.length; i++) out[i] = DECODE_TABLE[mulaw[i]];
  return out;
}

/** The μ-law byte for digital silence. */
export const MULAW_SILENCE = 0xff;
