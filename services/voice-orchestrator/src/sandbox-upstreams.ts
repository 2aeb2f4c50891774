import { SANDBOX_UPSTREAM_KEYS, type EnvReader } from '@switchboard/runtime';
import type { TrunkSettings } from './config';
import { parseSipTrunkUri } from './trunk-address';

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

/**
 * The voice orchestrator's part of SANDBOX_UPSTREAMS, the object it shares with the dispatcher
 * (docs/configuration.md#voice): `sip` and `llm`. Every problem goes to `read`, named by its key.
 */
export function readVoiceSandboxUpstreams(read: EnvReader): VoiceSandboxUpstreams {
  const name = 'SANDBOX_UPSTREAMS';
  const entries = read.jsonObject(name, 'such as {"sip":"sip:127.0.0.1:5070"}');
  if (entries === undefined) return DEFAULT_VOICE_SANDBOX_UPSTREAMS;
  const unknown = Object.keys(entries).filter((key) => !(SANDBOX_UPSTREAM_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) read.problems.push(`${name} has unknown keys ${unknown.join(', ')} (known: ${SANDBOX_UPSTREAM_KEYS.join(', ')})`);
  const result = { ...DEFAULT_VOICE_SANDBOX_UPSTREAMS };
  if (entries.sip !== undefined) {
    try {
      if (typeof entries.sip !== 'string') throw new Error(`got ${JSON.stringify(entries.sip)}`);
      result.trunk = parseSipTrunkUri(entries.sip);
    } catch (error) {
      read.problems.push(`${name}.sip must be a SIP URI such as sip:127.0.0.1:5070; ${(error as Error).message}`);
    }
  }
  if (entries.llm !== undefined) {
    if (typeof entries.llm === 'string' && isHttpUrl(entries.llm)) result.llmBaseUrl = entries.llm.replace(/\/+$/, '');
    else read.problems.push(`${name}.llm must be an http(s) URL, the carrier simulator's base URL`);
  }
  return result;
}
