import type { Logger } from '@switchboard/logger';
import type { PublishEvents } from '@switchboard/queues';
import type { AgentRow, CallProgressRepository, CallRow, CallStatus, StoredEvent } from '@switchboard/store';
import { parseSimCallerVoice, SIM_CALLER_VOICE_HEADER, type CallEnd, type TelephonyTrunk } from '@switchboard/telephony';
import { createLegMedia, type AgentMedia } from '../agent/agent-media';
import { createAnsweringMachineDetector, createGreetingEndDetector, type AnsweredBy } from '../agent/answering-machine.detector';
import { runAgentFlow, type FlowEngineDeps } from '../agent/flow-engine';
import { createCallRecorder } from '../recording/call-recorder';
import { bridgeSecondLeg } from './bridged-transfer';
import type { LineBudget } from './line-budget';
import type { LiveCalls } from './live-calls';
import { DEFAULT_SILENCE_TIMEOUT_SECONDS, watchForSilence } from './silence-watchdog';

export interface CallSessionDeps {
  progress: Pick<CallProgressRepository, 'answered' | 'ended' | 'addTurn' | 'markTurnInterrupted' | 'saveRecording' | 'setAnsweredBy' | 'awaitRedial'>;
  /** Queues the next attempt of a call to run after `delayMs` (docs/voice.md#retries). */
  redial: (callId: string, attempt: number, delayMs: number) => Promise<unknown>;
  orchestratorId: string;
  publishEvents: PublishEvents<StoredEvent>;
  liveCalls: LiveCalls;
  speak: (text: string, voice: string | null) => Promise<Buffer>;
  fetchJson: FlowEngineDeps['fetchJson'];
  recognize: FlowEngineDeps['recognize'];
  matchPhrase: FlowEngineDeps['matchPhrase'];
  /** The LLM endpoint for a call of this mode, with the agent's model if it names one. */
  llmFor: (mode: CallRow['mode'], model: string | undefined) => FlowEngineDeps['llm'];
  /** The process's lines: a bridged transfer's second leg needs one (docs/voice.md#capacity). */
  lines: LineBudget;
  logger: Logger;
  clock?: () => number;
}

const STATUS_OF_OUTCOME: Record<CallEnd['outcome'], CallStatus> = {
  completed: 'completed',
  busy: 'busy',
  'no-answer': 'no-answer',
  canceled: 'canceled',
  failed: 'failed',
};

/**
 * One call from INVITE to its last write (docs/voice.md#call-lifecycle): answered → `in-progress`; the flow starts
 * at the first RTP packet after the answer, so the agent never speaks before anyone can hear; the end's status and
 * reason come from the leg; the recording is saved last, with `call.recording_ready`.
 */
export async function runCallSession(trunk: TelephonyTrunk, call: CallRow, agent: AgentRow | null, deps: CallSessionDeps): Promise<void> {
  const { progress, publishEvents, logger, clock = Date.now } = deps;
  const fields = { call_id: call.id };
  const now = () => new Date(clock());
  const leg = await trunk.originate({ to: call.to, from: call.from, ringTimeoutMs: call.ring_timeout_seconds * 1000, headers: simulatorHeaders(call, logger) });
  deps.liveCalls.add(call.id, leg);
  const recorder = createCallRecorder(clock);
  const media = createLegMedia(leg, recorder);
  const writes: Promise<unknown>[] = [];
  let maxDuration: NodeJS.Timeout | undefined;

  leg.once('answered', () => {
    // Unstarted, the recorder ignores every frame: a call without `record` keeps no audio in memory.
    if (call.record) recorder.start();
    maxDuration = setTimeout(() => void leg.hangup('max_duration'), call.max_duration_seconds * 1000);
    writes.push(progress.answered(call.id, now()).then((change) => change && publishEvents(change.events, fields)));
  });
  leg.on('audio', (frame) => recorder.calleeFrame(frame));
  const startFlow = () => {
    if (!agent) return;
    const silenceSeconds = agent.flow.silence_timeout_seconds ?? DEFAULT_SILENCE_TIMEOUT_SECONDS;
    // A bridged transfer's second leg ringing is the callee waiting on hold, not a silent callee.
    let secondLegRinging = false;
    const stopSilenceWatch = watchForSilence(leg, silenceSeconds * 1000, clock, () => secondLegRinging);
    const transcript = async (speaker: 'agent' | 'callee', text: string) => {
      const write = progress.addTurn(call.id, speaker, text, now());
      writes.push(write);
      return write;
    };
    const markInterrupted = async (turn: number) => {
      const write = progress.markTurnInterrupted(call.id, turn);
      writes.push(write);
      await write;
    };
    const variables: Record<string, unknown> = { ...(call.metadata ?? {}), to: call.to, from: call.from, call_id: call.id };
    const flow = runAgentFlow(agent.flow, variables, {
      media,
      speak: (text) => deps.speak(text, agent.voice),
      transcript,
      markInterrupted,
      fetchJson: deps.fetchJson,
      recognize: deps.recognize,
      matchPhrase: deps.matchPhrase,
      llm: deps.llmFor(call.mode, typeof agent.llm?.model === 'string' ? agent.llm.model : undefined),
      transfer: async (to) => {
        const result = await leg.transfer(to);
        logger.info('transfer', {
          ...fields,
          refer_to: result.referTo,
          accepted: result.accepted,
          refer_status: result.referStatus,
          notify_status: result.notifyStatus,
        });
        return result;
      },
      bridge: async (to, ringTimeoutMs) => {
        secondLegRinging = true;
        const attempt = await bridgeSecondLeg(
          leg,
          media,
          { to, from: call.from, ringTimeoutMs },
          { trunk, lines: deps.lines, transcript, logger, fields },
        ).finally(() => (secondLegRinging = false));
        // While bridged the agent is out of the conversation: a quiet pause between the two parties is theirs.
        if (attempt.connected) stopSilenceWatch();
        return attempt;
      },
      onSpeechTurn: (timing) => logger.info('speech turn', { ...fields, ...timing }),
    }).then(
      (end) => {
        // The callee's side took the call over: our leg's job is done (docs/voice-agents.md#transfer).
        if (end.kind === 'transferred') return leg.hangup('completed');
        if (end.kind === 'unsupported') logger.warn('flow reached a node this engine cannot run; hanging up', { ...fields, node: end.node, type: end.type });
        if (end.kind !== 'call_ended' && end.kind !== 'bridged') return leg.hangup('agent_hangup');
        return undefined;
      },
      (error: Error) => {
        logger.error('agent flow failed; hanging up', { ...fields, error: error.message });
        return leg.hangup('agent_hangup');
      },
    );
    writes.push(flow);
  };
  leg.once('media-ready', () => {
    if (!call.machine_detection) return startFlow();
    const classified = classifyAnswer(media).then(async (answeredBy) => {
      await progress.setAnsweredBy(call.id, answeredBy);
      logger.info('answer classified', { ...fields, answered_by: answeredBy });
      if (answeredBy !== 'machine') return startFlow();
      if (call.machine_detection === 'hangup') return void (await leg.hangup('machine_detected'));
      // `detect`: leave the message after the beep.
      await new Promise<void>((resolve) => {
        const stop = media.onAudio(createGreetingEndDetector(() => resolve()));
        void media.ended.then(() => resolve());
        void media.ended.then(stop);
      });
      startFlow();
    });
    writes.push(classified);
  });

  const end = await leg.ended;
  clearTimeout(maxDuration);
  deps.liveCalls.remove(call.id);
  if (redialWanted(call, end)) {
    const waiting = await progress.awaitRedial(call.id, deps.orchestratorId);
    if (waiting) {
      logger.info('call will be redialled', { ...fields, outcome: end.outcome, attempt: waiting.attempt, delay_seconds: call.retry?.delay_seconds });
      await deps.redial(call.id, waiting.attempt, (call.retry?.delay_seconds ?? 0) * 1000);
      return;
    }
  }
  // Transcript turns and the answer are written before the end, so `call.completed` carries them.
  await Promise.allSettled(writes);
  const status = statusOfEnd(end);
  const ended = await progress.ended(call.id, status, end.endReason, now());
  if (ended) await publishEvents(ended.events, fields);
  logger.info('call ended', {
    ...fields,
    status,
    end_reason: end.endReason,
    frames_late: leg.mediaStats.framesLate,
    frames_sent: leg.mediaStats.framesSent,
    frame_lateness_ms: leg.mediaStats.latenessMs,
  });
  if (!call.record) return;
  const recording = recorder.finish();
  if (!recording) return;
  const saved = await progress.saveRecording(call.id, recording.wav, recording.durationSeconds, now());
  if (saved) await publishEvents(saved.events, fields);
}

/**
 * A call cut because its orchestrator shuts down ends as a lost one does, `failed` / `orchestrator_lost`, answered
 * or not (docs/voice.md#shutdown); otherwise the leg's outcome decides.
 */
function statusOfEnd(end: CallEnd): CallStatus {
  return end.endReason === 'orchestrator_lost' ? 'failed' : STATUS_OF_OUTCOME[end.outcome];
}

/** Busy or unanswered, asked for, attempts left; never after 603 (declined) or a number error (docs/voice.md#retries). */
function redialWanted(call: CallRow, end: CallEnd): boolean {
  if (!call.retry || call.attempt >= call.retry.attempts) return false;
  if (end.outcome !== 'busy' && end.outcome !== 'no-answer') return false;
  if (end.endReason === 'declined') return false;
  return call.retry.on.includes(end.outcome);
}

function classifyAnswer(media: AgentMedia): Promise<AnsweredBy> {
  return new Promise((resolve) => {
    const stop = media.onAudio(
      createAnsweringMachineDetector((answeredBy) => {
        stop();
        resolve(answeredBy);
      }),
    );
    void media.ended.then(() => resolve('unknown'));
  });
}

/**
 * A test-mode call's `metadata.sim_caller_voice` goes to the simulator's phone in an INVITE header, once checked
 * (docs/voice.md#carrier-simulator); a live call's metadata never leaves in SIP.
 */
function simulatorHeaders(call: CallRow, logger: Logger): Record<`x-${string}`, string> | undefined {
  const asked = call.metadata?.sim_caller_voice;
  if (call.mode !== 'test' || asked === undefined) return undefined;
  const voice = parseSimCallerVoice(asked);
  if (!voice) {
    logger.warn('sim_caller_voice is not a voice of the simulator; the phone speaks its own', { call_id: call.id });
    return undefined;
  }
  return { [SIM_CALLER_VOICE_HEADER]: `${voice.engine}:${voice.voice}` };
}
