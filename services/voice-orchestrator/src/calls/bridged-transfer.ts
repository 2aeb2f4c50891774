import type { Logger } from '@switchboard/logger';
import type { CallEnd, CallLeg, TelephonyTrunk } from '@switchboard/telephony';
import type { AgentMedia } from '../agent/agent-media';
import type { LineBudget } from './line-budget';

/** What a `transfer` node with `mode: "bridge"` got (docs/voice-agents.md#bridged-transfer). */
export type BridgeAttempt =
  | { connected: true; to: string; /** Settles once both legs have ended. */ finished: Promise<void> }
  | { connected: false; to: string; /** `busy`, `no_answer`, `declined`, `sip_<code>`, `no_free_line`, `call_ended`. */ reason: string };

export interface BridgeRequest {
  to: string;
  /** Caller id of the second leg: the call's own `from`. */
  from: string;
  ringTimeoutMs: number;
}

export interface BridgeDeps {
  /** The trunk that carries the call: the second leg goes out the same way. */
  trunk: TelephonyTrunk;
  lines: LineBudget;
  /** Digits pressed while bridged, as transcript turns: the callee's as `callee`, the second party's as `agent`. */
  transcript: (speaker: 'agent' | 'callee', text: string) => Promise<unknown>;
  logger: Logger;
  fields: Record<string, unknown>;
}

/**
 * A peer that answers but sends no RTP while it is silent (DTX) would never make its leg media-ready; after this
 * long from the answer the bridge starts anyway (docs/voice-telephony.md#telephony-layer).
 */
const MEDIA_READY_GRACE_MS = 2_000;

/**
 * Relayed frames go into the other leg's paced playback queue. Frames arriving in bursts (jitter) may queue up;
 * beyond this backlog (100 ms) the queue is dropped, so the delay between the two parties never grows.
 */
const MAX_RELAY_BACKLOG_FRAMES = 5;

/**
 * Dials `to` as a second leg through the call's trunk and, once its media is ready, relays 20 ms frames and RFC 4733
 * digits both ways until either side hangs up, then hangs up the other (docs/voice-agents.md#bridged-transfer). The callee
 * hears nothing while the second leg rings. The second party's audio goes through `media`, so the recording keeps it
 * on the agent's (right) channel. The second leg holds one of the process's lines for as long as it lasts.
 */
export async function bridgeSecondLeg(first: CallLeg, media: AgentMedia, request: BridgeRequest, deps: BridgeDeps): Promise<BridgeAttempt> {
  const { to } = request;
  if (!deps.lines.take()) return { connected: false, to, reason: 'no_free_line' };
  let second: CallLeg;
  try {
    second = await deps.trunk.originate({ to, from: request.from, ringTimeoutMs: request.ringTimeoutMs });
  } catch (error) {
    deps.lines.release();
    throw error;
  }
  const fields = { ...deps.fields, second_leg: second.id, bridged_to: to };
  void second.ended.then((end) => {
    deps.lines.release();
    deps.logger.info('second leg ended', { ...fields, outcome: end.outcome, end_reason: end.endReason });
  });
  // The callee hanging up while the second party's phone rings cancels the second leg.
  const cancelSecond = () => void second.hangup('callee_hangup');
  void first.ended.then(cancelSecond);

  const ready = await new Promise<CallEnd | 'ready'>((resolve) => {
    let grace: NodeJS.Timeout | undefined;
    second.once('media-ready', () => resolve('ready'));
    second.once('answered', () => (grace = setTimeout(() => resolve('ready'), MEDIA_READY_GRACE_MS)));
    void second.ended.then((end) => {
      clearTimeout(grace);
      resolve(end);
    });
  });
  if (ready !== 'ready') return { connected: false, to, reason: first.state === 'ended' ? 'call_ended' : ready.endReason };
  if (first.state === 'ended') return { connected: false, to, reason: 'call_ended' };
  deps.logger.info('bridged', fields);
  return { connected: true, to, finished: relayUntilHangup(first, second, media, deps) };
}

async function relayUntilHangup(first: CallLeg, second: CallLeg, media: AgentMedia, deps: BridgeDeps): Promise<void> {
  const toSecond = (frame: Buffer) => {
    if (second.queuedFrames > MAX_RELAY_BACKLOG_FRAMES) second.clearPlayback();
    second.play(frame);
  };
  const toFirst = (frame: Buffer) => {
    if (first.queuedFrames > MAX_RELAY_BACKLOG_FRAMES) media.clearPlayback();
    media.play(frame);
  };
  const digitFromCallee = (digit: string) => {
    second.sendDtmf(digit);
    void deps.transcript('callee', `DTMF: ${digit}`);
  };
  const digitFromSecond = (digit: string) => {
    first.sendDtmf(digit);
    void deps.transcript('agent', `DTMF: ${digit}`);
  };
  first.on('audio', toSecond);
  first.on('dtmf', digitFromCallee);
  second.on('audio', toFirst);
  second.on('dtmf', digitFromSecond);
  const whoEnded = await Promise.race([first.ended.then(() => 'callee' as const), second.ended.then(() => 'second' as const)]);
  first.off('audio', toSecond);
  first.off('dtmf', digitFromCallee);
  second.off('audio', toFirst);
  second.off('dtmf', digitFromSecond);
  // The second party hanging up ends the call as a transfer that did its job.
  if (whoEnded === 'second') await first.hangup('completed');
  else await second.hangup('callee_hangup');
}
