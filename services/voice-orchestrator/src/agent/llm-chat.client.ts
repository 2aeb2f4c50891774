export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ChatReply {
  content: string;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
}

/** 15 s for a chat completion: a caller waits in silence meanwhile, and a reply later than that has lost the call anyway. */
export const LLM_TIMEOUT_MS = 15_000;

export interface LlmEndpoint {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

/** A complete sentence ends with . ! or ? followed by a space (or the end of the stream). */
const SENTENCE_END = /[.!?](\s+|$)/;

/**
 * Streams one OpenAI-compatible chat completion (docs/voice-agents.md#llm): each sentence is handed to `onSentence` as soon
 * as its last token arrived, so the agent starts speaking before the model has finished. Tool calls are assembled
 * from their deltas. A non-2xx answer or a broken stream throws.
 */
export async function streamChatCompletion(
  endpoint: LlmEndpoint,
  messages: ChatMessage[],
  tools: ChatTool[],
  onSentence: (sentence: string) => void,
): Promise<ChatReply> {
  const res = await fetch(`${endpoint.baseUrl.replace(/\/$/, '')}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}) },
    body: JSON.stringify({ model: endpoint.model, messages, tools: tools.length > 0 ? tools : undefined, stream: true }),
    signal: AbortSignal.timeout(endpoint.timeoutMs),
  });
  if (!res.ok || !res.body) throw new Error(`LLM answered HTTP ${res.status}`);
  let content = '';
  let pending = '';
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  const flushSentences = (final: boolean) => {
    for (;;) {
      const match = SENTENCE_END.exec(pending);
      if (!match) break;
      const end = match.index + match[0].length;
      const sentence = pending.slice(0, end).trim();
      pending = pending.slice(end);
      if (sentence) onSentence(sentence);
    }
    if (final && pending.trim()) {
      onSentence(pending.trim());
      pending = '';
    }
  };
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') continue;
      const delta = (
        JSON.parse(data) as {
          choices?: Array<{
            delta?: { content?: string; tool_calls?: Array<{ index: number; id?: string; function?: { name?: string; arguments?: string } }> };
          }>;
        }
      ).choices?.[0]?.delta;
      if (delta?.content) {
        content += delta.content;
        pending += delta.content;
        flushSentences(false);
      }
      for (const call of delta?.tool_calls ?? []) {
        const slot = (calls[call.index] ??= { id: call.id ?? '', name: '', arguments: '' });
        if (call.id) slot.id = call.id;
        if (call.function?.name) slot.name += call.function.name;
        if (call.function?.arguments) slot.arguments += call.function.arguments;
      }
    }
  }
  flushSentences(true);
  return { content, toolCalls: calls.filter(Boolean) };
}
