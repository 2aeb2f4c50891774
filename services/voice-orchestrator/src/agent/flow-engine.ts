import type { AgentFlowDocument } from '@switchboard/store';
import type { AgentMedia } from './agent-media';
import { gatherDigits } from './dtmf-gather';
import { conditionHolds, renderTemplate } from './flow-variables';

export type FlowEnd = { kind: 'hangup' } | { kind: 'call_ended' } | { kind: 'unsupported'; node: string; type: string } | { kind: 'too_many_steps' };

export interface FlowEngineDeps {
  media: AgentMedia;
  /** 8 kHz μ-law for the text, in the agent's voice. */
  speak: (text: string) => Promise<Buffer>;
  transcript: (speaker: 'agent' | 'callee', text: string) => Promise<void>;
  /** The `http` node's request through the target guard; throws on any failure (docs/voice.md#http). */
  fetchJson: (method: 'GET' | 'POST', url: string, body: unknown, timeoutMs: number) => Promise<unknown>;
}

/** A flow that loops without ever waiting for the callee would spin forever; no real flow takes this many steps. */
const MAX_STEPS = 1_000;

type Node = Record<string, unknown> & { type: string };

/**
 * Runs an agent's flow on an answered call (docs/voice.md#node-types) until a `hangup` node, the end of the call,
 * or a node this engine cannot run. `variables` starts with the call's metadata and collects gathers and http results.
 */
export async function runAgentFlow(flow: AgentFlowDocument, variables: Record<string, unknown>, deps: FlowEngineDeps): Promise<FlowEnd> {
  const { media } = deps;
  const say = async (text: string): Promise<void> => {
    const rendered = renderTemplate(text, variables);
    const audio = await deps.speak(rendered);
    if (media.isEnded) return;
    await deps.transcript('agent', rendered);
    media.play(audio);
  };

  let nodeId = flow.start;
  for (let step = 0; step < MAX_STEPS; step += 1) {
    if (media.isEnded) return { kind: 'call_ended' };
    const node = flow.nodes[nodeId] as Node;
    switch (node.type) {
      case 'say':
        await say(node.text as string);
        await media.drained();
        nodeId = node.next as string;
        break;
      case 'gather': {
        if (node.prompt) await say(node.prompt as string);
        const input = node.input as string;
        const timeoutMs = (node.timeout_seconds as number) * 1000;
        let digits = '';
        if (input === 'dtmf' || input === 'both') {
          digits = await gatherDigits(media, Boolean(node.prompt), {
            maxDigits: (node.max_digits as number | undefined) ?? 1,
            finishKey: node.finish_key as string | undefined,
            firstDigitTimeoutMs: timeoutMs,
            interDigitTimeoutMs: ((node.inter_digit_timeout_seconds as number | undefined) ?? 3) * 1000,
          });
        } else {
          // Speech recognition is not wired into the engine yet (docs/voice.md#status): the prompt plays, then no input.
          await media.drained();
          await new Promise((resolve) => setTimeout(resolve, timeoutMs));
        }
        if (media.isEnded) return { kind: 'call_ended' };
        if (digits === '') {
          nodeId = node.no_input as string;
          break;
        }
        await deps.transcript('callee', `DTMF: ${digits}`);
        variables[(node.save_as as string | undefined) ?? 'input'] = digits;
        variables.last_input = digits;
        const branch = (node.branches as Array<{ match: string; next: string }>).find((b) => b.match === digits);
        nodeId = branch ? branch.next : (node.no_match as string);
        break;
      }
      case 'branch': {
        const hit = (node.conditions as Array<{ if: string; next: string }>).find((c) => conditionHolds(c.if, variables));
        nodeId = hit ? hit.next : (node.else as string);
        break;
      }
      case 'http': {
        try {
          const url = renderTemplate(node.url as string, variables);
          const body = node.body === undefined ? undefined : JSON.parse(renderTemplate(JSON.stringify(node.body), variables));
          variables[node.save_as as string] = await deps.fetchJson(node.method as 'GET' | 'POST', url, body, (node.timeout_ms as number | undefined) ?? 3_000);
          nodeId = node.next as string;
        } catch (error) {
          variables.http_error = (error as Error).message;
          nodeId = node.on_error as string;
        }
        break;
      }
      case 'hangup':
        await media.drained();
        return { kind: 'hangup' };
      default:
        return { kind: 'unsupported', node: nodeId, type: node.type };
    }
  }
  return { kind: 'too_many_steps' };
}
