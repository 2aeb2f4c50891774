import { randomBytes } from 'node:crypto';
import express, { Router, type Response } from 'express';
import { faultModeOf, standInReply, type StandInReply } from './chat-completions.rules';

interface ChatRequest {
  model?: unknown;
  messages?: unknown;
  stream?: unknown;
  tools?: unknown;
}

/** Pieces of a few words, as a model streams them. */
function chunksOf(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [];
}

function streamReply(res: Response, id: string, model: string, reply: StandInReply): void {
  res.status(200).setHeader('content-type', 'text/event-stream').setHeader('cache-control', 'no-cache');
  const send = (delta: Record<string, unknown>, finish: string | null) =>
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
    );
  const pieces = chunksOf(reply.content);
  let i = 0;
  const next = () => {
    if (i === 0) send({ role: 'assistant', content: '' }, null);
    if (i < pieces.length) {
      send({ content: pieces[i++] }, null);
      setTimeout(next, 20);
      return;
    }
    if (reply.toolCall) {
      send(
        {
          tool_calls: [
            { index: 0, id: `call_${id}`, type: 'function', function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.arguments) } },
          ],
        },
        null,
      );
    }
    send({}, reply.toolCall ? 'tool_calls' : 'stop');
    res.end('data: [DONE]\n\n');
  };
  next();
}

/**
 * An OpenAI-compatible `POST /v1/chat/completions` for `llm` nodes in tests and demos: JSON or SSE streaming,
 * tool calls, and fault modes by model name (`sim-fault-429`, `sim-fault-500`, `sim-slow`).
 */
export function createChatCompletionsRouter(): Router {
  const router = Router();
  router.post('/v1/chat/completions', express.json({ limit: '1mb' }), async (req, res) => {
    const body = (req.body ?? {}) as ChatRequest;
    if (!Array.isArray(body.messages)) {
      res.status(400).json({ error: { message: 'messages must be an array', type: 'invalid_request_error' } });
      return;
    }
    const model = typeof body.model === 'string' ? body.model : 'sim-llm';
    const fault = faultModeOf(model);
    if (fault?.kind === 'status') {
      if (fault.status === 429) res.setHeader('retry-after', '1');
      res.status(fault.status).json({ error: { message: `simulated ${fault.status}`, type: 'server_error' } });
      return;
    }
    if (fault?.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    const users = (body.messages as Array<{ role?: unknown; content?: unknown }>).filter((m) => m.role === 'user');
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the fake model answers any content with its String() form, as before
    const last = users.length > 0 ? String(users[users.length - 1].content ?? '') : null;
    const tools = Array.isArray(body.tools)
      ? (body.tools as Array<{ function?: { name?: unknown } }>).map((t) => (typeof t.function?.name === 'string' ? t.function.name : '')).filter(Boolean)
      : [];
    const reply = standInReply(last, tools);
    const id = randomBytes(6).toString('hex');
    if (body.stream === true) return streamReply(res, id, model, reply);
    res.json({
      id,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: reply.content,
            ...(reply.toolCall
              ? {
                  tool_calls: [
                    { id: `call_${id}`, type: 'function', function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.arguments) } },
                  ],
                }
              : {}),
          },
          finish_reason: reply.toolCall ? 'tool_calls' : 'stop',
        },
      ],
    });
  });
  return router;
}
