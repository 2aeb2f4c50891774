/** A 16-bit PCM WAV file (RIFF, format 1) of interleaved samples. */
export function encodeWav(interleaved: Int16Array, channels: number, sampleRate: number): Buffer {
  const dataBytes = interleaved.length * 2;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  const data = Buffer.from(interleaved.buffer, interleaved.byteOffset, dataBytes);
  return Buffer.concat([header, data]);
}
