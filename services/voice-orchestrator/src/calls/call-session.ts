import type { Logger } from '@switchboard/logger';
import type { PublishEvents } from '@switchboard/queues';
import type { AgentRow, CallProgressRepository, CallRow, CallStatus } from '@switchboard/store';
import type { CallEnd, TelephonyTrunk } from '@switchboard/telephony';
import { createLegMedia } from '../agent/agent-media';
import { runAgentFlow, type FlowEngineDeps } from '../agent/flow-engine';
import { createCallRecorder } from '../recording/call-recorder';
import type { LiveCalls } from './live-calls';

export interface CallSessionDeps {
  progress: Pick<CallProgressRepository, 'answered' | 'ended' | 'addTurn' | 'saveRecording'>;
  publishEvents: PublishEvents;
  liveCalls: LiveCalls;
  speak: (text: string, voice: string | null) => Promise<Buffer>;
  fetchJson: FlowEngineDeps['fetchJson'];
  recognize: FlowEngineDeps['recognize'];
  matchPhrase: FlowEngineDeps['matchPhrase'];
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
  const leg = await trunk.originate({ to: call.to, from: call.from, ringTimeoutMs: call.ring_timeout_seconds * 1000 });
  deps.liveCalls.add(call.id, leg);
  const recorder = createCallRecorder(clock);
  const media = createLegMedia(leg, recorder);
  const writes: Promise<unknown>[] = [];
  let maxDuration: NodeJS.Timeout | undefined;

  leg.once('answered', () => {
    recorder.start();
    maxDuration = setTimeout(() => void leg.hangup('max_duration'), call.max_duration_seconds * 1000);
    writes.push(progress.answered(call.id, now()).then((change) => change && publishEvents(change.events, fields)));
  });
  leg.on('audio', (frame) => recorder.calleeFrame(frame));
  leg.once('media-ready', () => {
    if (!agent) return;
    const variables: Record<string, unknown> = { ...(call.metadata ?? {}), to: call.to, from: call.from, call_id: call.id };
    const flow = runAgentFlow(agent.flow, variables, {
      media,
      speak: (text) => deps.speak(text, agent.voice),
      transcript: async (speaker, text) => {
        const write = progress.addTurn(call.id, speaker, text, now());
        writes.push(write);
        await write;
      },
      fetchJson: deps.fetchJson,
      recognize: deps.recognize,
      matchPhrase: deps.matchPhrase,
    }).then(
      (end) => {
        if (end.kind === 'unsupported') logger.warn('flow reached a node this engine cannot run; hanging up', { ...fields, node: end.node, type: end.type });
        if (end.kind !== 'call_ended') return leg.hangup('agent_hangup');
        return undefined;
      },
      (error: Error) => {
        logger.error('agent flow failed; hanging up', { ...fields, error: error.message });
        return leg.hangup('agent_hangup');
      },
    );
    writes.push(flow);
  });

  const end = await leg.ended;
  clearTimeout(maxDuration);
  deps.liveCalls.remove(call.id);
  // Transcript turns and the answer are written before the end, so `call.completed` carries them.
  await Promise.allSettled(writes);
  const ended = await progress.ended(call.id, STATUS_OF_OUTCOME[end.outcome], end.endReason, now());
  if (ended) await publishEvents(ended.events, fields);
  logger.info('call ended', { ...fields, status: STATUS_OF_OUTCOME[end.outcome], end_reason: end.endReason, frames_late: leg.mediaStats.framesLate, frames_sent: leg.mediaStats.framesSent });
  if (!call.record) return;
  const recording = recorder.finish();
  if (!recording) return;
  const saved = await progress.saveRecording(call.id, recording.wav, recording.durationSeconds, now());
  if (saved) await publishEvents(saved.events, fields);
}
