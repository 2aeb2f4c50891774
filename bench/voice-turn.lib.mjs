// The speech turn of a recorded call, measured in media time from its stereo recording (callee left, agent right,
// one 20 ms slot per frame from the answer; docs/voice.md#recording): from the callee's last speech frame to the
// first frame of the agent's reply. The agent's frames sit in the slot the paced sender plays them from, so the
// reply's first slot is its first RTP packet, to within one 20 ms tick.
const FRAME = 160;
const LEVEL = 300; // mean absolute amplitude of a speech frame, as the orchestrator's speech detector uses

function stereoSamples(wav) {
  let offset = 12;
  while (offset + 8 <= wav.length) {
    const id = wav.toString('ascii', offset, offset + 4);
    const size = wav.readUInt32LE(offset + 4);
    if (id === 'data') return new Int16Array(wav.buffer.slice(wav.byteOffset + offset + 8, wav.byteOffset + offset + 8 + size - (size % 4)));
    offset += 8 + size + (size % 2);
  }
  throw new Error('recording: no data chunk');
}

function loudFrames(samples, channel) {
  const frames = [];
  for (let f = 0; (f + 1) * FRAME * 2 <= samples.length; f += 1) {
    let sum = 0;
    for (let i = 0; i < FRAME; i += 1) sum += Math.abs(samples[(f * FRAME + i) * 2 + channel]);
    frames.push(sum / FRAME > LEVEL);
  }
  return frames;
}

/** Milliseconds from the end of the callee's first utterance to the agent's next audio; null when either is missing. */
export function speechTurnMs(wav) {
  const samples = stereoSamples(wav);
  const callee = loudFrames(samples, 0);
  const agent = loudFrames(samples, 1);
  const onset = callee.findIndex((_, i) => i + 5 <= callee.length && callee.slice(i, i + 5).every(Boolean));
  if (onset < 0) return null;
  const reply = agent.findIndex((loud, i) => i > onset && loud);
  if (reply < 0) return null;
  let end = reply - 1;
  while (end > onset && !callee[end]) end -= 1;
  return (reply - end - 1) * 20;
}

/**
 * Whether the agent's reply began while the callee was still talking: callee speech in the 500 ms after the reply's
 * first frame, a turn ended inside a sentence. Null when the recording has no reply.
 */
export function cutOffInsideSentence(wav) {
  const samples = stereoSamples(wav);
  const callee = loudFrames(samples, 0);
  const agent = loudFrames(samples, 1);
  const onset = callee.findIndex((_, i) => i + 5 <= callee.length && callee.slice(i, i + 5).every(Boolean));
  if (onset < 0) return null;
  const reply = agent.findIndex((loud, i) => i > onset && loud);
  if (reply < 0) return null;
  return callee.slice(reply, reply + 25).some(Boolean);
}
