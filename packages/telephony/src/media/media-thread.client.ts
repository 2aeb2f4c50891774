import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { FRAME_BYTES } from './audio-frame.reframer';
import type { MainToMediaThread, MediaThreadToMain } from './media-thread.protocol';
import type { RtpPortRange } from './rtp-port.range';

/** What the media thread reports about one leg, delivered on the main thread. */
export interface MediaThreadLegListener {
  onFirstPacket(): void;
  onAudioFrame(frame: Buffer): void;
  onDigit(digit: string): void;
  /** `playedThrough`: one past the number of the last frame sent. */
  onDrained(playedThrough: number): void;
  /** The thread died: the leg's socket and pacing are gone, and nothing more will be reported for it. */
  onThreadLost(reason: string): void;
}

/** Reported once each time the media thread dies: why, and how many legs it held then (docs/voice-telephony.md#media-thread). */
export interface MediaThreadLoss {
  reason: string;
  legs: number;
}

export interface MediaThread {
  /** Binds the leg's socket in the media thread; resolves with its port. */
  open(request: { bindAddress: string; ports?: RtpPortRange; words: Int32Array }, listener: MediaThreadLegListener): Promise<{ leg: number; port: number }>;
  post(message: Exclude<MainToMediaThread, { op: 'open' }>, transfer?: ArrayBuffer[]): void;
  /** Forgets the leg's listener and closes its socket. */
  close(leg: number): void;
}

/**
 * Under ts-jest this module runs from `src/`, where there is no JavaScript to start a thread from; the thread then
 * runs the build in `dist/` (`npx tsc -b tsconfig.build.json` first, as for every test that starts a service).
 */
function workerScript(): string {
  const beside = join(__dirname, 'media-thread.worker.js');
  if (existsSync(beside)) return beside;
  const built = resolve(__dirname, '../../dist/media/media-thread.worker.js');
  if (existsSync(built)) return built;
  throw new Error(`the media thread's script is missing: build @switchboard/telephony (looked for ${beside} and ${built})`);
}

const lossWatchers = new Set<(loss: MediaThreadLoss) => void>();

/** Calls `watcher` whenever the process's media thread dies (to log it); returns the function that stops it. */
export function onMediaThreadLost(watcher: (loss: MediaThreadLoss) => void): () => void {
  lossWatchers.add(watcher);
  return () => lossWatchers.delete(watcher);
}

function startMediaThread(): { thread: MediaThread; worker: Worker } {
  const worker = new Worker(workerScript());
  let lost = false;
  let nextLeg = 1;
  const listeners = new Map<number, MediaThreadLegListener>();
  const opening = new Map<number, { resolve: (port: number) => void; reject: (error: Error) => void }>();
  // The thread keeps the process alive exactly while a leg is open or opening, as the leg's own socket would on the
  // main thread; an idle thread never holds a process that is done.
  const holdWhileBusy = () => (listeners.size > 0 || opening.size > 0 ? worker.ref() : worker.unref());

  const deliver = (message: MediaThreadToMain): void => {
    if (message.op === 'events') {
      for (const [leg, kind, value] of message.events) {
        const listener = listeners.get(leg);
        if (!listener) continue;
        if (kind === 'audio') listener.onAudioFrame(Buffer.from(message.audio.buffer, message.audio.byteOffset + (value as number), FRAME_BYTES));
        else if (kind === 'digit') listener.onDigit(value as string);
        else if (kind === 'first') listener.onFirstPacket();
        else listener.onDrained(value as number);
      }
      return;
    }
    const waiter = opening.get(message.leg);
    opening.delete(message.leg);
    if (message.op === 'opened') return waiter?.resolve(message.port);
    listeners.delete(message.leg);
    holdWhileBusy();
    waiter?.reject(Object.assign(new Error(message.message), message.code ? { code: message.code } : {}));
  };
  // A thread that throws emits 'error' and then 'exit': the legs are told once, with the first reason. A leg still
  // opening has no session yet, so its open() fails instead.
  const fail = (error: Error) => {
    if (lost) return;
    lost = true;
    if (current?.thread === thread) current = undefined;
    const waiters = [...opening.values()];
    const open = [...listeners].filter(([leg]) => !opening.has(leg)).map(([, listener]) => listener);
    listeners.clear();
    opening.clear();
    for (const watcher of lossWatchers) watcher({ reason: error.message, legs: open.length });
    for (const waiter of waiters) waiter.reject(error);
    for (const listener of open) listener.onThreadLost(error.message);
  };
  // Listeners first: adding a 'message' listener refs the thread again.
  worker.on('message', deliver);
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the media thread exited with code ${code}`)));
  worker.unref();

  const thread: MediaThread = {
    open(request, listener) {
      const leg = nextLeg++;
      listeners.set(leg, listener);
      return new Promise((resolvePort, reject) => {
        opening.set(leg, { resolve: (port) => resolvePort({ leg, port }), reject });
        holdWhileBusy();
        worker.postMessage({ op: 'open', leg, ...request } satisfies MainToMediaThread);
      });
    },
    // After a loss the legs are ended by their owners, who may still queue audio or close: nothing to do then.
    post(message, transfer) {
      if (!lost) worker.postMessage(message, transfer);
    },
    close(leg) {
      listeners.delete(leg);
      if (lost) return;
      worker.postMessage({ op: 'close', leg } satisfies MainToMediaThread);
      holdWhileBusy();
    },
  };
  return { thread, worker };
}

let current: { thread: MediaThread; worker: Worker } | undefined;

/** The process's one media thread, started on first use and again if it died. */
export function processMediaThread(): MediaThread {
  current ??= startMediaThread();
  return current.thread;
}

/**
 * Test-only: stops the media thread as a crash would, so a test can check that the calls it held end and the next
 * call gets a new thread (packages/telephony/test/media-thread-loss.int.test.ts). Resolves once the loss was handled.
 */
export async function terminateMediaThreadForTests(): Promise<void> {
  await current?.worker.terminate();
}
