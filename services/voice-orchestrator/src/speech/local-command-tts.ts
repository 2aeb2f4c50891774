import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Runs a local speech engine that writes a WAV (`commandFor` gets the text in a file and the WAV path to write), then
 * has sox resample it to 8 kHz μ-law. The text travels in a file, never on the command line, so a prompt that
 * starts with `-` cannot be read as an option.
 */
export async function renderWithCommand(text: string, commandFor: (textFile: string, wavFile: string) => [string, string[]]): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-tts-'));
  try {
    const textFile = join(dir, 'speech.txt');
    const wav = join(dir, 'speech.wav');
    const ulaw = join(dir, 'speech.ul');
    await writeFile(textFile, text);
    const [command, args] = commandFor(textFile, wav);
    await run(command, args);
    await run('sox', [wav, '-r', '8000', '-c', '1', '-e', 'mu-law', '-t', 'raw', ulaw]);
    return await readFile(ulaw);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
