import type { AgentNodeOf } from '@switchboard/schemas';
import type { AgentMedia } from './agent-media';
import { streamChatCompletion, type ChatMessage, type ChatTool, type LlmEndpoint } from './llm-chat.client';
import type { CallListener } from './call-listener';

/** The function the model calls when the node's goal is reached (docs/voice-agents.md#llm). */
export const END_GOAL_TOOL: ChatTool = {
  type: 'function',
  function: {
    name: 'end_goal',
    description: 'Call this once the goal of the conversation is reached, with what was found out.',
    parameters: { type: 'object', additionalProperties: true, properties: {} },
  },
};

export interface LlmNodeDeps {
  media: AgentMedia;
  endpoint: LlmEndpoint;
  /**
   * Speaks one sentence (synthesis, transcript, playback); resolves once it is queued. Skipped when the callee
   * has interrupted the agent since `interruptionsBefore` (the rest of a reply they cut short).
   */
  saySentence: (sentence: string, interruptionsBefore: number) => Promise<void>;
  /** The call's listener: the callee's answer, said during the reply or after it (docs/voice-agents.md#full-duplex-listening). */
  listener: CallListener;
  transcript: (speaker: 'agent' | 'callee', text: string) => Promise<unknown>;
  recognize: (mulaw: Buffer, phrases: string[]) => Promise<string>;
  listenTimeoutMs: number;
}

export type LlmOutcome =
  { kind: 'goal_reached'; result: Record<string, unknown> } | { kind: 'turns_exhausted' } | { kind: 'no_input' } | { kind: 'call_ended' };

/**
 * A conversation of at most `maxTurns` model turns. The model speaks first; each reply is spoken sentence by
 * sentence while it streams; the callee's answer is recognised among the node's `expected_phrases` (the offline
 * recogniser needs a grammar), or, without them, the words of the goal and the model's last reply.
 */
export async function runLlmConversation(node: AgentNodeOf<'llm'>, deps: LlmNodeDeps): Promise<LlmOutcome> {
  const messages: ChatMessage[] = [
    {
      role: 'system',
      content: `${node.system_prompt}\nGoal: ${node.goal}\nYou are on a phone call: answer in short spoken sentences. Call end_goal once the goal is reached.`,
    },
  ];
  for (let turn = 0; turn < node.max_turns; turn += 1) {
    // Sentences are synthesised one after another, so they play in the order the model wrote them.
    let spoken = Promise.resolve();
    const interruptionsBefore = deps.listener.interruptions;
    const reply = await streamChatCompletion(deps.endpoint, messages, [END_GOAL_TOOL], (sentence) => {
      spoken = spoken.then(() => deps.saySentence(sentence, interruptionsBefore));
    });
    await spoken;
    messages.push({
      role: 'assistant',
      content: reply.content,
      ...(reply.toolCalls.length > 0
        ? { tool_calls: reply.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) }
        : {}),
    });
    const goal = reply.toolCalls.find((c) => c.name === END_GOAL_TOOL.function.name);
    if (goal) {
      await deps.media.drained();
      let result: Record<string, unknown> = {};
      try {
        result = JSON.parse(goal.arguments || '{}') as Record<string, unknown>;
      } catch {
        result = { raw: goal.arguments };
      }
      return { kind: 'goal_reached', result };
    }
    if (deps.media.isEnded) return { kind: 'call_ended' };
    const phrases = node.expected_phrases ?? [node.goal, reply.content];
    // Recognition starts at the callee's pause, so the words are usually ready when the turn ends.
    const speech = deps.listener.takeUtterance({ timeoutMs: deps.listenTimeoutMs, recognize: (audio) => deps.recognize(audio, phrases) });
    const utterance = await speech.utterance;
    if (deps.media.isEnded) return { kind: 'call_ended' };
    if (!utterance) return { kind: 'no_input' };
    const heard = await (speech.recognizedEarly() ?? deps.recognize(utterance, phrases));
    await deps.transcript('callee', heard === '' ? '(not understood)' : heard);
    messages.push({ role: 'user', content: heard });
  }
  return { kind: 'turns_exhausted' };
}
