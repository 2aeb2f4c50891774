import type { AgentMedia } from '../src/agent/agent-media';
import { createCallListener } from '../src/agent/call-listener';

const QUIET = Buffer.alloc(160, 0xff); // μ-law zero
const LOUD = Buffer.alloc(160, 0x00); // μ-law full scale

/** A call whose agent audio stays queued until the test plays it out or a barge-in clears it. */
function call(options: { endOfSpeechMs?: number; maxSpeechMs?: number } = {}) {
  let hear: (frame: Buffer) => void = () => undefined;
  const state = { queued: 0, cleared: 0 };
  const media: AgentMedia = {
    play: (mulaw) => void (state.queued += mulaw.length / 160),
    clearPlayback: () => {
      state.queued = 0;
      state.cleared += 1;
    },
    drained: () => (state.queued === 0 ? Promise.resolve() : new Promise(() => undefined)),
    takeDigits: () => '',
    nextDigit: () => Promise.resolve(null),
    onAudio: (listener) => {
      hear = listener;
      return () => undefined;
    },
    get queuedFrames() {
      return state.queued;
    },
    isEnded: false,
    ended: new Promise(() => undefined),
  };
  const listener = createCallListener(media, { backchannelMs: 400, maxSpeechMs: 15_000, ...options });
  const say = (frame: Buffer, count: number) => {
    for (let i = 0; i < count; i++) hear(frame);
  };
  return { listener, state, say };
}

const TEN_SECONDS = Buffer.alloc(160 * 500, 0x00);

describe('call listener: barge-in and backchannels', () => {
  it('stops a prompt at the first 100 ms of speech and keeps the utterance for the gather', async () => {
    const { listener, state, say } = call();
    let interrupted = 0;
    listener.play(TEN_SECONDS, { kind: 'prompt', interruptible: true, onInterrupted: () => interrupted++ });
    say(LOUD, 4);
    expect(state.cleared).toBe(0);
    say(LOUD, 1);
    expect(state.cleared).toBe(1);
    expect(interrupted).toBe(1);
    say(LOUD, 20);
    say(QUIET, 20);
    expect(listener.hasInput).toBe(true);
    const audio = await listener.takeUtterance({ timeoutMs: 1_000 }).utterance;
    expect(audio?.length).toBe(160 * 45);
  });

  it('lets a reply play on over a backchannel shorter than 400 ms, which is not input', () => {
    const { listener, state, say } = call();
    listener.play(TEN_SECONDS, { kind: 'reply', interruptible: true });
    say(LOUD, 15); // 300 ms: "uh-huh"
    say(QUIET, 20);
    expect(state.cleared).toBe(0);
    expect(listener.hasInput).toBe(false);
    expect(listener.interruptions).toBe(0);
  });

  it('stops a reply once the callee has spoken 400 ms, and keeps the whole utterance', async () => {
    const { listener, state, say } = call();
    let interrupted = 0;
    listener.play(TEN_SECONDS, { kind: 'reply', interruptible: true, onInterrupted: () => interrupted++ });
    say(LOUD, 19);
    expect(state.cleared).toBe(0);
    say(LOUD, 1);
    expect(state.cleared).toBe(1);
    expect(interrupted).toBe(1);
    expect(listener.interruptions).toBe(1);
    say(LOUD, 30);
    say(QUIET, 20);
    const audio = await listener.takeUtterance({ timeoutMs: 1_000 }).utterance;
    expect(audio?.length).toBe(160 * 70);
  });

  it('never stops audio marked not interruptible, and still keeps what was said over it', async () => {
    const { listener, state, say } = call();
    listener.play(TEN_SECONDS, { kind: 'reply', interruptible: false });
    say(LOUD, 60);
    say(QUIET, 20);
    expect(state.cleared).toBe(0);
    expect(state.queued).toBe(500);
    expect(await listener.takeUtterance({ timeoutMs: 1_000 }).utterance).not.toBeNull();
  });

  it('hands over speech that started before the gather asked, joined, and waits for speech in progress', async () => {
    const { listener, say } = call();
    say(LOUD, 10);
    say(QUIET, 20);
    say(LOUD, 10);
    const request = listener.takeUtterance({ timeoutMs: 1_000 });
    expect((await request.utterance)?.length).toBe(160 * (10 + 20));
    say(LOUD, 10);
    const next = listener.takeUtterance({ timeoutMs: 1_000 });
    say(LOUD, 5);
    say(QUIET, 20);
    // The second utterance's lead-in reaches back into the first's tail: it began while the gather took the first.
    expect((await next.utterance)?.length).toBeGreaterThan(160 * 15);
  });
});

describe('call listener: keypad menus and bridges', () => {
  it('ignores the callee while paused (a bridge) and listens again after resume', async () => {
    const { listener, say } = call();
    listener.pause();
    say(LOUD, 30);
    say(QUIET, 20);
    expect(listener.hasInput).toBe(false);
    listener.resume();
    say(LOUD, 10);
    say(QUIET, 20);
    expect((await listener.takeUtterance({ timeoutMs: 1_000 }).utterance)?.length).toBe(160 * 30);
  });

  it('stops any audio at once when asked (a digit pressed during a prompt), marking it interrupted', () => {
    const { listener, state } = call();
    let interrupted = 0;
    listener.play(TEN_SECONDS, { kind: 'prompt', interruptible: false, onInterrupted: () => interrupted++ });
    listener.interrupt();
    expect(state.cleared).toBe(1);
    expect(interrupted).toBe(1);
  });
});

describe('call listener: end of turn', () => {
  it('ends the turn after the configured silence', async () => {
    const { listener, say } = call({ endOfSpeechMs: 800 });
    const request = listener.takeUtterance({ timeoutMs: 10_000 });
    say(LOUD, 10);
    say(QUIET, 39);
    expect(listener.hasInput).toBe(true);
    say(QUIET, 1);
    expect((await request.utterance)?.length).toBe(160 * 50);
    expect(request.endedBy()).toBe('silence');
  });

  it('ends the turn at the longest utterance', async () => {
    const { listener, say } = call({ maxSpeechMs: 2_000 });
    const request = listener.takeUtterance({ timeoutMs: 10_000 });
    say(LOUD, 100);
    expect((await request.utterance)?.length).toBe(160 * 100);
    expect(request.endedBy()).toBe('length');
  });

  it('ends the turn at a pause whose words complete a branch, not at one whose words do not', async () => {
    const { listener, say } = call();
    const heard = ['I want to', 'I want to speak to sales'];
    const request = listener.takeUtterance({ timeoutMs: 10_000, recognize: async () => heard.shift() ?? '', completes: (words) => words.endsWith('sales') });
    say(LOUD, 10);
    say(QUIET, 8); // a pause: "I want to" completes nothing
    await new Promise((resolve) => setImmediate(resolve));
    expect(listener.hasInput).toBe(true);
    say(LOUD, 10);
    say(QUIET, 8); // the next pause completes the sales branch: the turn ends without the rest of the 400 ms
    expect(await request.utterance).not.toBeNull();
    expect(request.endedBy()).toBe('phrase');
    expect(await request.recognizedEarly()).toBe('I want to speak to sales');
  });
});
