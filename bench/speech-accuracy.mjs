// Speech routing across voices and line conditions (docs/voice-recognition.md#evaluation-set): every utterance of
// the evaluation set, said by every voice, through a telephone channel clean and with noise at 15 dB SNR, routed by
// the orchestrator's phrase spotter beside today's grammar method as the same-run baseline. Prints per voice and
// overall: routing accuracy (right branch, or no_match when none applies), false-accept rate, recognition time.
// Usage: npm run build && node bench/speech-accuracy.mjs
import { createRequire } from 'node:module';
import { devstack } from './lib.mjs';

const require = createRequire(import.meta.url);
const speech = (file) => require(`../services/voice-orchestrator/dist/speech/${file}.js`);
const { createPhraseSpotter } = speech('phrase-spotter');
const { createPocketsphinxRecognizer, matchPhrase } = speech('pocketsphinx-stt');
const { EVAL_BRANCHES, EVAL_UTTERANCES, EVAL_VOICES, EVAL_CONDITIONS, speakThroughTelephone, scoreRouting } = devstack;

// As the flow engine does: every way to say each branch, and where it leads.
const spoken = EVAL_BRANCHES.flatMap((b) => [b.match, ...b.phrases].map((phrase) => ({ phrase, next: b.next })));
const phrases = spoken.map((s) => s.phrase);
const route = (heard) => {
  const index = heard === '' ? -1 : matchPhrase(heard, phrases);
  return index >= 0 ? spoken[index].next : null;
};
const methods = { 'grammar (baseline)': createPocketsphinxRecognizer(), 'phrase spotter': createPhraseSpotter() };

const outcomes = []; // { method, voice, condition, expected, routed, ms, heard, text }
for (const condition of EVAL_CONDITIONS) {
  for (const voice of EVAL_VOICES) {
    for (const utterance of EVAL_UTTERANCES) {
      const audio = await speakThroughTelephone(utterance.text, voice, condition.snrDb);
      for (const [method, recognizer] of Object.entries(methods)) {
        const start = performance.now();
        const heard = await recognizer.recognize(audio, phrases);
        const ms = performance.now() - start;
        outcomes.push({
          method,
          voice: `${voice.engine} ${voice.voice}`,
          condition: condition.name,
          expected: utterance.expected,
          routed: route(heard),
          ms,
          heard,
          text: utterance.text,
        });
      }
    }
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]);
};
const pct = (x) => Number((100 * x).toFixed(1));
const summary = (rows) => {
  const score = scoreRouting(rows);
  // Answering no_match to everything scores the out-of-set share (6 of 15): the branch utterances routed right tell the rest.
  const inBranch = rows.filter((r) => r.expected !== null);
  const branchRecall = inBranch.filter((r) => r.routed === r.expected).length / inBranch.length;
  return {
    accuracy_pct: pct(score.accuracy),
    false_accept_pct: pct(score.falseAcceptRate),
    branch_pct: pct(branchRecall),
    ms_per_utterance_p50: median(rows.map((r) => r.ms)),
  };
};
const table = [];
for (const condition of EVAL_CONDITIONS.map((c) => c.name)) {
  for (const voice of [...EVAL_VOICES.map((v) => `${v.engine} ${v.voice}`), 'overall']) {
    const row = { condition, voice };
    for (const method of Object.keys(methods)) {
      const rows = outcomes.filter((o) => o.method === method && o.condition === condition && (voice === 'overall' || o.voice === voice));
      const s = summary(rows);
      row[`${method} acc %`] = s.accuracy_pct;
      row[`${method} FA %`] = s.false_accept_pct;
      row[`${method} branch %`] = s.branch_pct;
      row[`${method} ms`] = s.ms_per_utterance_p50;
    }
    table.push(row);
  }
}
console.table(table);
const misses = outcomes.filter((o) => o.method === 'phrase spotter' && o.routed !== o.expected);
console.log(`phrase spotter misses (${misses.length}):`);
for (const m of misses)
  console.log(`  ${m.condition} | ${m.voice} | "${m.text}" → ${m.routed ?? 'no_match'} (expected ${m.expected ?? 'no_match'}; heard "${m.heard}")`);
console.log(JSON.stringify({ bench: 'speech-accuracy', voices: EVAL_VOICES.length, utterances: EVAL_UTTERANCES.length, rows: table }));
