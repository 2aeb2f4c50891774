import { readFileSync } from 'node:fs';

export interface Wav {
  sampleRate: number;
  channels: number;
  samples: Int16Array;
}

/** Reads a 16-bit PCM WAV (RIFF chunks: fmt, data), tolerating a data size left at 0 by a writer still open. */
export function readWav(path: string): Wav {
  const bytes = readFileSync(path);
  if (bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') throw new Error(`${path}: not a WAV file`);
  let offset = 12;
  let sampleRate = 0;
  let channels = 0;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      if (bytes.readUInt16LE(body + 14) !== 16) throw new Error(`${path}: not 16-bit PCM`);
      channels = bytes.readUInt16LE(body + 2);
      sampleRate = bytes.readUInt32LE(body + 4);
    } else if (id === 'data') {
      const end = size === 0 || body + size > bytes.length ? bytes.length : body + size;
      const data = bytes.subarray(body, end - ((end - body) % 2));
      const samples = new Int16Array(data.length / 2);
      for (let i = 0; i < samples.length; i++) samples[i] = data.readInt16LE(2 * i);
      return { sampleRate, channels, samples };
    }
    offset = body + size + (size % 2);
  }
  throw new Error(`${path}: no data chunk`);
}
