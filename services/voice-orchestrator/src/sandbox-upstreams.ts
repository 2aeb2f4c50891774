import type { TrunkSettings } from './config';
import { parseSipTrunkUri } from './trunk-address';

/**
 * SANDBOX_UPSTREAMS, the upstreams test keys use, is one JSON object that the dispatcher and the voice orchestrator
 * share (docs/configuration.md#voice): the dispatcher reads `chat`, `rcs` and `sms`, this service `sip` and `llm`.
 * A key outside these is refused, so that a misspelt one does not leave its default in place silently.
 */
export const SANDBOX_UPSTREAM_KEYS = ['chat', 'rcs', 'sms', 'sip', 'llm'] as const;

export interface VoiceSandboxUpstreams {
  /** The carrier simulator's phones. */
  trunk: TrunkSettings;
  /** The carrier simulator's chat completions, the stand-in for test keys' `llm` nodes (docs/voice-agents.md#llm-stand-in). */
  llmBaseUrl: string;
}

/** The carrier simulator on its default ports, as `npm start` runs it. */
export const DEFAULT_VOICE_SANDBOX_UPSTREAMS: VoiceSandboxUpstreams = {
  trunk: { host: '127.0.0.1', port: 5070 },
  llmBaseUrl: 'http://127.0.0.1:8090',
};

const isHttpUrl = (text: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
};

/** The voice orchestrator's part of SANDBOX_UPSTREAMS; every problem is pushed to `problems`, named by its key. */
export function parseVoiceSandboxUpstreams(text: string, problems: string[]): VoiceSandboxUpstreams {
  const name = 'SANDBOX_UPSTREAMS';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    problems.push(`${name} must be a JSON object such as {"sip":"sip:127.0.0.1:5070"}: ${(error as Error).message}`);
    return DEFAULT_VOICE_SANDBOX_UPSTREAMS;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${name} must be a JSON object such as {"sip":"sip:127.0.0.1:5070"}`);
    return DEFAULT_VOICE_SANDBOX_UPSTREAMS;
  }
  const entries = value as Record<string, unknown>;
  const unknown = Object.keys(entries).filter((key) => !(SANDBOX_UPSTREAM_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) problems.push(`${name} has unknown keys ${unknown.join(', ')} (known: ${SANDBOX_UPSTREAM_KEYS.join(', ')})`);
  const result = { ...DEFAULT_VOICE_SANDBOX_UPSTREAMS };
  if (entries.sip !== undefined) {
    try {
      if (typeof entries.sip !== 'string') throw new Error(`got ${JSON.stringify(entries.sip)}`);
      result.trunk = parseSipTrunkUri(entries.sip);
    } catch (error) {
      problems.push(`${name}.sip must be a SIP URI such as sip:127.0.0.1:5070; ${(error as Error).message}`);
    }
  }
  if (entries.llm !== undefined) {
    if (typeof entries.llm === 'string' && isHttpUrl(entries.llm)) result.llmBaseUrl = entries.llm.replace(/\/+$/, '');
    else problems.push(`${name}.llm must be an http(s) URL, the carrier simulator's base URL`);
  }
  return result;
}
