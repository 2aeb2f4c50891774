/**
 * The deterministic LLM stand-in's answers (docs/voice-agents.md#llm-stand-in), keyed on the last user message, so tests
 * and demos of `llm` nodes behave the same on every run.
 */
export interface StandInReply {
  content: string;
  toolCall?: { name: string; arguments: Record<string, unknown> };
}

const DEPARTMENTS = ['sales', 'support', 'billing'];

export function standInReply(lastUserMessage: string | null, toolNames: string[]): StandInReply {
  if (lastUserMessage === null) return { content: 'Hello! Thank you for calling. Which department would you like, sales or support?' };
  const text = lastUserMessage.toLowerCase();
  const department = DEPARTMENTS.find((d) => text.includes(d));
  if (department) {
    const reply: StandInReply = { content: `Certainly. Connecting you to ${department}.` };
    if (toolNames.length > 0) reply.toolCall = { name: toolNames[0], arguments: { department } };
    return reply;
  }
  return { content: 'Sorry, I did not catch that. Would you like sales or support?' };
}

/** Fault modes chosen by the requested model name. */
export type FaultMode = { kind: 'status'; status: 429 | 500 } | { kind: 'slow'; delayMs: number } | null;

export function faultModeOf(model: string): FaultMode {
  if (model === 'sim-fault-429') return { kind: 'status', status: 429 };
  if (model === 'sim-fault-500') return { kind: 'status', status: 500 };
  if (model === 'sim-slow') return { kind: 'slow', delayMs: 3_000 };
  return null;
}
