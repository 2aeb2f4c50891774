// Speech providers: the cost of one uncached TTS prompt and one STT utterance through the remote OpenAI-compatible
// providers (HTTP to carrier-sim's stand-ins, which run the same flite and pocketsphinx), beside the local engines
// as the same-run baseline. Runs are interleaved (local, remote, local, …) so machine load hits both alike.
// Usage: npm run build && node bench/speech-providers.mjs [runs=10]
import { createRequire } from 'node:module';
import { devstack } from './lib.mjs';

const require = createRequire(import.meta.url);
const speech = (file) => require(`../services/voice-orchestrator/dist/speech/${file}.js`);
const { createFliteTts } = speech('flite-tts');
const { createOpenAiTts } = speech('openai-tts');
const { createPocketsphinxRecognizer } = speech('pocketsphinx-stt');
const { createOpenAiRecognizer } = speech('openai-stt');

const runs = Number(process.argv[2] ?? 10);
const [simPort, smppPort, sipPort] = await Promise.all([devstack.freePort(), devstack.freePort(), devstack.freePort()]);
const sim = await devstack.startService('carrier-sim', {
  PORT: String(simPort),
  SIM_SMPP_PORT: String(smppPort),
  SIM_SIP_PORT: String(sipPort),
  LOG_LEVEL: 'warn',
});
const endpoint = (model) => ({ baseUrl: `http://127.0.0.1:${simPort}`, model, timeoutMs: 30_000 });

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1));
};
const timed = async (work) => {
  const start = performance.now();
  await work();
  return performance.now() - start;
};

try {
  // No cache: every prompt is synthesised, as a first call's prompts are.
  const engines = {
    'tts local flite (baseline)': createFliteTts({ defaultVoice: 'slt', cacheEntries: 0 }),
    'tts remote wav': createOpenAiTts({ endpoint: endpoint('tts-1'), responseFormat: 'wav', defaultVoice: 'slt', cacheEntries: 0 }),
    'tts remote pcm': createOpenAiTts({ endpoint: endpoint('tts-1'), responseFormat: 'pcm', defaultVoice: 'slt', cacheEntries: 0 }),
  };
  const recognizers = { 'stt local pocketsphinx (baseline)': createPocketsphinxRecognizer(), 'stt remote': createOpenAiRecognizer(endpoint('whisper-1')) };
  const utterance = await engines['tts local flite (baseline)'].synthesize('I want to speak to sales');
  const samples = Object.fromEntries([...Object.keys(engines), ...Object.keys(recognizers)].map((name) => [name, []]));
  const heard = {};
  // One warm-up round (JIT, the keep-alive connection, the page cache of the models), then the measured rounds.
  for (let round = -1; round < runs; round += 1) {
    const text = `Your appointment number ${round + 100} is confirmed for tomorrow.`;
    for (const [name, tts] of Object.entries(engines)) {
      const ms = await timed(() => tts.synthesize(text));
      if (round >= 0) samples[name].push(ms);
    }
    for (const [name, recognizer] of Object.entries(recognizers)) {
      const ms = await timed(async () => (heard[name] = await recognizer.recognize(utterance, ['sales', 'support'])));
      if (round >= 0) samples[name].push(ms);
    }
  }
  const row = (name, baseline) => ({
    name,
    p50_ms: percentile(samples[name], 50),
    p95_ms: percentile(samples[name], 95),
    ratio_p50: Number((percentile(samples[name], 50) / percentile(samples[baseline], 50)).toFixed(2)),
  });
  const rows = [
    ...Object.keys(engines).map((name) => row(name, 'tts local flite (baseline)')),
    ...Object.keys(recognizers).map((name) => row(name, 'stt local pocketsphinx (baseline)')),
  ];
  console.table(rows);
  console.log(JSON.stringify({ bench: 'speech-providers', runs, rows, heard }));
} finally {
  await sim.stop();
}
