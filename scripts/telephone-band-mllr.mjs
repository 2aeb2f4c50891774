// Fits the telephone-band transform of the en-us model (docs/voice-recognition.md#the-telephone-band): 30 Harvard
// sentences said by six voices through the telephone channel, clean and with noise at 15 dB, as the phrase spotter
// hears them (upsampled to 16 kHz, high-band floor added), aligned to their text by sphinxtrain's bw; mllr_solve
// writes one affine transform of the model's means. The voices are the evaluation set's flite kal and rms and
// espeak-ng en-us and en-us+f3, and two espeak-ng voices outside it; the evaluation set's other four voices and its
// utterances stay unseen, so bench/speech-accuracy.mjs reports on held-out speech.
// Needs Debian's sphinxtrain and sphinxbase-utils (apt-get install sphinxtrain sphinxbase-utils) and `npm run build`.
// Usage: node scripts/telephone-band-mllr.mjs
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const { speakThroughTelephone } = require('../packages/devstack/dist/index.js');
const { upsampleMulawTo16k } = require('../services/voice-orchestrator/dist/speech/upsample.js');
const { addHighBandFloor } = require('../services/voice-orchestrator/dist/speech/high-band-floor.js');
const { encodeWav } = require('../services/voice-orchestrator/dist/recording/stereo-wav.js');
const { TELEPHONE_BAND_MLLR } = require('../services/voice-orchestrator/dist/speech/phrase-spotter.js');

const MODEL = '/usr/share/pocketsphinx/model/en-us';
const SPHINXTRAIN = '/usr/lib/sphinxtrain';
const SENTENCES = [
  'the birch canoe slid on the smooth planks',
  'glue the sheet to the dark blue background',
  "it's easy to tell the depth of a well",
  'these days a chicken leg is a rare dish',
  'rice is often served in round bowls',
  'the juice of lemons makes fine punch',
  'the box was thrown beside the parked truck',
  'the hogs were fed chopped corn and garbage',
  'four hours of steady work faced us',
  'a large size in stockings is hard to sell',
  'the boy was there when the sun rose',
  'a rod is used to catch pink salmon',
  'the source of the huge river is the clear spring',
  'kick the ball straight and follow through',
  'help the woman get back to her feet',
  'a pot of tea helps to pass the evening',
  'smoky fires lack flame and heat',
  "the soft cushion broke the man's fall",
  'the salt breeze came across from the sea',
  'the girl at the booth sold fifty bonds',
  'the small pup gnawed a hole in the sock',
  'the fish twisted and turned on the bent hook',
  'press the pants and sew a button on the vest',
  'the swan dive was far short of perfect',
  'the beauty of the view stunned the young boy',
  'two blue fish swam in the tank',
  'her purse was full of useless trash',
  'the colt reared and threw the tall rider',
  'it snowed rained and hailed the same morning',
  'read verse out loud for pleasure',
];
const VOICES = [
  { engine: 'flite', voice: 'kal' },
  { engine: 'flite', voice: 'rms' },
  { engine: 'espeak', voice: 'en-us' },
  { engine: 'espeak', voice: 'en-us+f3' },
  { engine: 'espeak', voice: 'en-us+m4' },
  { engine: 'espeak', voice: 'en-us+f2' },
];

/**
 * bw needs the model's mixture weights as floats; Debian ships them only as `sendump` (8-bit, -log base 1.0001
 * shifted by 10 bits, one row of senones per stream and density). Decoded here, renormalised per senone and stream.
 */
function mixtureWeightsFromSendump(file) {
  const dump = readFileSync(file);
  let at = 0;
  const int32 = () => {
    const v = dump.readInt32LE(at);
    at += 4;
    return v;
  };
  const string = (n) => {
    const s = dump.toString('latin1', at, at + n - 1);
    at += n;
    return s;
  };
  string(int32()); // title
  string(int32()); // header
  let streams = 1;
  for (let n = int32(); n !== 0; n = int32()) {
    const line = string(n);
    if (line.startsWith('feature_count ')) streams = Number(line.split(' ')[1]);
    if (line.startsWith('cluster_count ') && Number(line.split(' ')[1]) !== 0) throw new Error('clustered sendump not handled');
  }
  const densities = int32();
  const senones = int32();
  const logBase = 1024 * Math.log(1.0001);
  const weights = new Float32Array(senones * streams * densities);
  for (let f = 0; f < streams; f++) {
    for (let d = 0; d < densities; d++) {
      for (let s = 0; s < senones; s++) weights[(s * streams + f) * densities + d] = Math.exp(-dump[at + s] * logBase);
      at += senones;
    }
  }
  for (let row = 0; row < senones * streams; row++) {
    const slice = weights.subarray(row * densities, (row + 1) * densities);
    const sum = slice.reduce((a, b) => a + b, 0);
    for (let d = 0; d < densities; d++) slice[d] /= sum;
  }
  const header = Buffer.from('s3\nversion 1.0\nendhdr\n', 'latin1');
  const sizes = Buffer.alloc(20);
  [0x11223344, senones, streams, densities, weights.length].forEach((v, i) => sizes.writeUInt32LE(v, 4 * i));
  return Buffer.concat([header, sizes, Buffer.from(weights.buffer)]);
}

const dir = mkdtempSync(join(tmpdir(), 'sb-mllr-'));
try {
  const model = join(dir, 'model');
  mkdirSync(model);
  for (const file of ['means', 'variances', 'mdef', 'feat.params', 'noisedict', 'transition_matrices'])
    copyFileSync(join(MODEL, 'en-us', file), join(model, file));
  writeFileSync(join(model, 'mixture_weights'), mixtureWeightsFromSendump(join(MODEL, 'en-us', 'sendump')));
  mkdirSync(join(dir, 'wav'));
  const ids = [];
  const transcripts = [];
  for (const snrDb of [null, 15]) {
    for (const voice of VOICES) {
      for (const [k, sentence] of SENTENCES.entries()) {
        const id = `${snrDb ?? 'clean'}_${voice.engine}_${voice.voice.replace(/\W/g, '')}_${k}`;
        const pcm = addHighBandFloor(upsampleMulawTo16k(await speakThroughTelephone(sentence, voice, snrDb)));
        writeFileSync(join(dir, 'wav', `${id}.wav`), encodeWav(pcm, 1, 16_000));
        ids.push(id);
        transcripts.push(`<s> ${sentence} </s> (${id})`);
      }
    }
  }
  writeFileSync(join(dir, 'fileids'), `${ids.join('\n')}\n`);
  writeFileSync(join(dir, 'transcription'), `${transcripts.join('\n')}\n`);
  const quiet = { stdio: ['ignore', 'ignore', 'ignore'] };
  mkdirSync(join(dir, 'mfc'));
  mkdirSync(join(dir, 'counts'));
  execFileSync(
    'sphinx_fe',
    [
      '-argfile',
      join(model, 'feat.params'),
      '-samprate',
      '16000',
      '-c',
      join(dir, 'fileids'),
      '-di',
      join(dir, 'wav'),
      '-do',
      join(dir, 'mfc'),
      '-ei',
      'wav',
      '-eo',
      'mfc',
      '-mswav',
      'yes',
    ],
    quiet,
  );
  execFileSync('pocketsphinx_mdef_convert', ['-text', join(model, 'mdef'), join(dir, 'mdef.txt')], quiet);
  execFileSync(
    join(SPHINXTRAIN, 'bw'),
    [
      '-hmmdir',
      model,
      '-moddeffn',
      join(dir, 'mdef.txt'),
      '-ts2cbfn',
      '.ptm.',
      '-feat',
      '1s_c_d_dd',
      '-svspec',
      '0-12/13-25/26-38',
      '-cmn',
      'current',
      '-agc',
      'none',
      '-dictfn',
      join(MODEL, 'cmudict-en-us.dict'),
      '-fdictfn',
      join(model, 'noisedict'),
      '-ctlfn',
      join(dir, 'fileids'),
      '-lsnfn',
      join(dir, 'transcription'),
      '-cepdir',
      join(dir, 'mfc'),
      '-accumdir',
      join(dir, 'counts'),
    ],
    quiet,
  );
  execFileSync(
    join(SPHINXTRAIN, 'mllr_solve'),
    ['-meanfn', join(model, 'means'), '-varfn', join(model, 'variances'), '-outmllrfn', TELEPHONE_BAND_MLLR, '-accumdir', join(dir, 'counts')],
    quiet,
  );
  console.log(`wrote ${TELEPHONE_BAND_MLLR} from ${ids.length} utterances`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
