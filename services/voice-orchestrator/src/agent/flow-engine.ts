import type { AgentNode } from '@switchboard/schemas';
import type { AgentFlowDocument } from '@switchboard/store';
import type { TransferResult } from '@switchboard/telephony';
import type { BridgeAttempt } from '../calls/bridged-transfer';
import type { AgentMedia } from './agent-media';
import { gatherDigits } from './dtmf-gather';
import { conditionHolds, renderTemplate } from './flow-variables';
import type { LlmEndpoint } from './llm-chat.client';
import { runLlmConversation } from './llm-node';
import { END_OF_SPEECH_MS } from './speech-capture';
import { createCallListener, type CallListener, type UtteranceEnd } from './call-listener';
import type { RecognitionMethod } from '../speech/pocketsphinx-stt';

export type FlowEnd =
  | { kind: 'hangup' }
  | { kind: 'transferred'; referTo: string }
  | { kind: 'bridged'; to: string }
  | { kind: 'call_ended' }
  | { kind: 'unsupported'; node: string; type: string }
  | { kind: 'too_many_steps' };

export interface FlowEngineDeps {
  media: AgentMedia;
  /** 8 kHz μ-law for the text, in the agent's voice. */
  speak: (text: string) => Promise<Buffer>;
  /** Writes a transcript turn; resolves with its number. */
  transcript: (speaker: 'agent' | 'callee', text: string) => Promise<number>;
  /** Marks an agent turn the callee cut short (docs/voice-agents.md#full-duplex-listening). */
  markInterrupted: (turn: number) => Promise<void>;
  /** The `http` node's request through the target guard; throws on any failure (docs/voice-agents.md#http). */
  fetchJson: (method: 'GET' | 'POST', url: string, body: unknown, timeoutMs: number) => Promise<unknown>;
  /** The words heard in the utterance, from the vocabulary of the expected phrases. */
  recognize: (mulaw: Buffer, phrases: string[], method?: RecognitionMethod) => Promise<string>;
  /** Picks the branch whose phrase was heard; -1 for none. */
  matchPhrase: (heard: string, phrases: string[]) => number;
  /** The chat completions endpoint for `llm` nodes; undefined when none is configured for the call's mode. */
  llm?: LlmEndpoint;
  /** A blind transfer of the call to `to` (docs/voice-agents.md#transfer). */
  transfer: (to: string) => Promise<TransferResult>;
  /** Dials `to` as a second leg and bridges it to the call (docs/voice-agents.md#bridged-transfer). */
  bridge?: (to: string, ringTimeoutMs: number) => Promise<BridgeAttempt>;
  /** Where the parts of a speech turn go (docs/performance/voice.md#speech-turn): recognition, synthesis, queueing. */
  onSpeechTurn?: (timing: SpeechTurnTiming) => void;
}

/** Milliseconds of one speech turn, from the moment the end-of-speech rule closed the callee's utterance. */
export interface SpeechTurnTiming {
  /** The silence the rule waited for; null when a completed phrase or the length limit closed the utterance. */
  end_of_speech_wait_ms: number | null;
  ended_by: UtteranceEnd;
  stt_after_end_ms: number;
  tts_ms: number;
  end_to_queued_ms: number;
}

/** How long a bridged transfer's second leg rings, unless the node says (docs/voice-agents.md#bridged-transfer). */
const DEFAULT_BRIDGE_RING_SECONDS = 30;

/** The longest utterance a turn takes unless the flow says (docs/voice-agents.md#end-of-turn). */
const DEFAULT_MAX_UTTERANCE_SECONDS = 15;

/**
 * Speech over a `say` or `llm` reply shorter than this is a backchannel ("uh-huh", "okay"), unless the flow says:
 * those last 250 to 400 ms, an answer or an objection longer (docs/voice-agents.md#full-duplex-listening).
 */
const DEFAULT_BACKCHANNEL_MS = 400;

/** A flow that loops without ever waiting for the callee would spin forever; no real flow takes this many steps. */
const MAX_STEPS = 1_000;

/**
 * Runs an agent's flow on an answered call (docs/voice-agents.md#node-types) until a `hangup` node, the end of the call,
 * or a node this engine cannot run. `variables` starts with the call's metadata and collects gathers and http results.
 */
export async function runAgentFlow(flow: AgentFlowDocument, variables: Record<string, unknown>, deps: FlowEngineDeps): Promise<FlowEnd> {
  const { media } = deps;
  const listener = createCallListener(media, {
    backchannelMs: flow.backchannel_ms ?? DEFAULT_BACKCHANNEL_MS,
    maxSpeechMs: (flow.max_utterance_seconds ?? DEFAULT_MAX_UTTERANCE_SECONDS) * 1000,
    endOfSpeechMs: flow.end_of_speech_ms ?? END_OF_SPEECH_MS,
  });
  try {
    return await runNodes(flow, variables, deps, listener);
  } finally {
    listener.stop();
  }
}

async function runNodes(flow: AgentFlowDocument, variables: Record<string, unknown>, deps: FlowEngineDeps, listener: CallListener): Promise<FlowEnd> {
  const { media } = deps;
  // The utterance that ended last and when it was recognised, until the reply to it is queued.
  let turn: { endedAt: number; recognizedAt: number; endedBy: UtteranceEnd } | undefined;
  const say = async (text: string, kind: 'prompt' | 'reply', interruptible: boolean, unlessInterruptedSince?: number): Promise<void> => {
    const rendered = renderTemplate(text, variables);
    const synthesisStarted = Date.now();
    const audio = await deps.speak(rendered);
    if (media.isEnded) return;
    // An `llm` reply the callee cut short is not spoken on (docs/voice-agents.md#full-duplex-listening).
    if (unlessInterruptedSince !== undefined && listener.interruptions !== unlessInterruptedSince) return;
    // The transcript write is not on the turn's path: the audio is queued first (its `at` is taken at once).
    const written = deps.transcript('agent', rendered);
    listener.play(audio, { kind, interruptible, onInterrupted: () => void written.then((turn) => deps.markInterrupted(turn)) });
    if (turn) {
      const queuedAt = Date.now();
      deps.onSpeechTurn?.({
        end_of_speech_wait_ms: turn.endedBy === 'silence' ? (flow.end_of_speech_ms ?? END_OF_SPEECH_MS) : null,
        ended_by: turn.endedBy,
        stt_after_end_ms: turn.recognizedAt - turn.endedAt,
        tts_ms: queuedAt - synthesisStarted,
        end_to_queued_ms: queuedAt - turn.endedAt,
      });
      turn = undefined;
    }
    await written;
  };

  let nodeId = flow.start;
  for (let step = 0; step < MAX_STEPS; step += 1) {
    if (media.isEnded) return { kind: 'call_ended' };
    const node = flow.nodes[nodeId];
    switch (node.type) {
      case 'say':
        await say(node.text, 'reply', node.interruptible !== false);
        await media.drained();
        nodeId = node.next;
        break;
      case 'gather': {
        const input = node.input;
        // What the callee said before the gather began answers it: asking would talk over the answer.
        const answered = input !== 'dtmf' && listener.hasInput;
        // Speech is no answer to a keypad menu: it does not stop its prompt (a digit does, in gatherDigits).
        if (node.prompt && !answered) await say(node.prompt, 'prompt', input !== 'dtmf' && node.interruptible !== false);
        const timeoutMs = node.timeout_seconds * 1000;
        const branches = node.branches;
        // Every way to say each branch, and the branch each one leads to (docs/voice-recognition.md).
        const spoken = branches.flatMap((b) => [b.match, ...(b.phrases ?? [])].map((phrase) => ({ phrase, next: b.next })));
        const phrases = spoken.map((s) => s.phrase);
        const method: RecognitionMethod = node.recognition ?? 'grammar';
        const dtmf = {
          maxDigits: node.max_digits ?? 1,
          finishKey: node.finish_key,
          firstDigitTimeoutMs: timeoutMs,
          interDigitTimeoutMs: (node.inter_digit_timeout_seconds ?? 3) * 1000,
        };
        let digits = '';
        let utterance: Buffer | null = null;
        let heardEarly: Promise<string> | undefined;
        let endedBy: UtteranceEnd = 'silence';
        if (input === 'dtmf') digits = await gatherDigits(media, Boolean(node.prompt), dtmf, () => listener.interrupt());
        else {
          const speech = listener.takeUtterance({
            timeoutMs,
            recognize: (audio) => deps.recognize(audio, phrases, method),
            // Spotted keywords are words that were said, so a branch found at a pause ends the turn; the grammar
            // method forces any speech into the branches' words and could not tell (docs/voice-agents.md#end-of-turn).
            completes: method === 'keywords' ? (words) => words !== '' && deps.matchPhrase(words, phrases) >= 0 : undefined,
          });
          warmUpReplies(flow, [...branches.map((b) => b.next), node.no_match], variables, deps.speak);
          // `both`: whichever comes first, a digit or an utterance; a digit also stops the prompt.
          const firstDigit = input === 'both' ? await media.nextDigit(24 * 3_600_000, speech.utterance) : null;
          if (firstDigit !== null) {
            speech.cancel();
            listener.interrupt();
            if (firstDigit === dtmf.finishKey) digits = '';
            else if (dtmf.maxDigits <= 1) digits = firstDigit;
            else
              digits =
                firstDigit + (await gatherDigits(media, false, { ...dtmf, maxDigits: dtmf.maxDigits - 1, firstDigitTimeoutMs: dtmf.interDigitTimeoutMs }));
          } else {
            utterance = await speech.utterance;
            heardEarly = speech.recognizedEarly();
            endedBy = speech.endedBy() ?? 'silence';
          }
        }
        const utteranceEndedAt = Date.now();
        if (media.isEnded) return { kind: 'call_ended' };
        let next: string | undefined;
        if (utterance) {
          const heard = await (heardEarly ?? deps.recognize(utterance, phrases, method));
          turn = { endedAt: utteranceEndedAt, recognizedAt: Date.now(), endedBy };
          await deps.transcript('callee', heard === '' ? '(not understood)' : heard);
          variables[node.save_as ?? 'input'] = heard;
          variables.last_input = heard;
          const index = heard === '' ? -1 : deps.matchPhrase(heard, phrases);
          next = index >= 0 ? spoken[index].next : node.no_match;
        } else if (digits !== '') {
          await deps.transcript('callee', `DTMF: ${digits}`);
          variables[node.save_as ?? 'input'] = digits;
          variables.last_input = digits;
          next = branches.find((b) => b.match === digits)?.next ?? node.no_match;
        } else next = node.no_input;
        nodeId = next;
        break;
      }
      case 'branch': {
        const hit = node.conditions.find((c) => conditionHolds(c.if, variables));
        nodeId = hit ? hit.next : node.else;
        break;
      }
      case 'http': {
        try {
          const url = renderTemplate(node.url, variables);
          const body = node.body === undefined ? undefined : (JSON.parse(renderTemplate(JSON.stringify(node.body), variables)) as unknown);
          variables[node.save_as] = await deps.fetchJson(node.method, url, body, node.timeout_ms ?? 3_000);
          nodeId = node.next;
        } catch (error) {
          variables.http_error = (error as Error).message;
          nodeId = node.on_error;
        }
        break;
      }
      case 'llm': {
        const onError = node.on_error ?? null;
        try {
          if (!deps.llm) throw new Error('no LLM endpoint is configured');
          const outcome = await runLlmConversation(node, {
            media,
            endpoint: deps.llm,
            saySentence: (sentence, since) => say(sentence, 'reply', node.interruptible !== false, since),
            listener,
            transcript: deps.transcript,
            recognize: deps.recognize,
            listenTimeoutMs: 8_000,
          });
          if (outcome.kind === 'call_ended') return { kind: 'call_ended' };
          variables.llm_outcome = outcome.kind;
          if (outcome.kind === 'goal_reached') variables.llm_result = outcome.result;
          nodeId = node.next;
        } catch (error) {
          variables.llm_error = (error as Error).message;
          if (!onError) throw error;
          nodeId = onError;
        }
        break;
      }
      case 'transfer': {
        // The last prompt ("Connecting you...") is heard before the callee's side is asked to move on.
        await media.drained();
        if (media.isEnded) return { kind: 'call_ended' };
        if (node.mode === 'bridge') {
          // The second party's audio is not the agent's: nothing may cut it, and the agent does not listen meanwhile.
          listener.pause();
          const ringSeconds = node.timeout_seconds ?? DEFAULT_BRIDGE_RING_SECONDS;
          const bridged = deps.bridge
            ? await deps.bridge(node.to, ringSeconds * 1000)
            : { connected: false as const, to: node.to, reason: 'bridging is not available' };
          if (media.isEnded) return { kind: 'call_ended' };
          if (bridged.connected) {
            await deps.transcript('agent', `Bridged to ${bridged.to}`);
            await bridged.finished;
            return { kind: 'bridged', to: bridged.to };
          }
          listener.resume();
          await deps.transcript('agent', `Bridge to ${bridged.to} failed (${bridged.reason})`);
          variables.transfer_error = bridged.reason;
          if (typeof node.on_error !== 'string') return { kind: 'hangup' };
          nodeId = node.on_error;
          break;
        }
        const result = await deps.transfer(node.to);
        if (media.isEnded) return { kind: 'call_ended' };
        if (result.accepted) {
          await deps.transcript('agent', `Transferred to ${result.referTo}`);
          return { kind: 'transferred', referTo: result.referTo };
        }
        const why =
          result.referStatus === 0 ? 'no answer to REFER' : `REFER ${result.referStatus}${result.notifyStatus ? `, NOTIFY ${result.notifyStatus}` : ''}`;
        await deps.transcript('agent', `Transfer to ${result.referTo} failed (${why})`);
        variables.transfer_error = why;
        if (typeof node.on_error !== 'string') return { kind: 'hangup' };
        nodeId = node.on_error;
        break;
      }
      case 'hangup':
        await media.drained();
        return { kind: 'hangup' };
      default:
        return unsupported(nodeId, node);
    }
  }
  return { kind: 'too_many_steps' };
}

/**
 * Synthesises, into the TTS cache, what the nodes a gather may lead to will say first, while the callee is still
 * talking: the reply is then ready when the turn ends (docs/voice-agents.md#speech-input). Texts that use variables are
 * skipped, as the gather's answer may change them. A failure here is the reply's to report, not this.
 */
function warmUpReplies(flow: AgentFlowDocument, nextIds: string[], variables: Record<string, unknown>, speak: FlowEngineDeps['speak']): void {
  for (const id of new Set(nextIds)) {
    const next: AgentNode | undefined = flow.nodes[id];
    const text = next?.type === 'say' ? next.text : next?.type === 'gather' ? next.prompt : undefined;
    if (text === undefined || text.includes('{{')) continue;
    speak(renderTemplate(text, variables)).catch(() => undefined);
  }
}

/**
 * A node of a type this engine does not run. The switch above covers every node type, so this compiles only while
 * it does; at run time it is reached by a stored flow whose node type has since been removed.
 */
function unsupported(nodeId: string, node: never): FlowEnd {
  const stored: { type: unknown } = node;
  return { kind: 'unsupported', node: nodeId, type: String(stored.type) };
}
