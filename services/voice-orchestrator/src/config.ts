import { describeCommonConfig, EnvReader, type Env, readCommonConfig, readJobLock, readTargetGuard, type CommonConfig } from '@switchboard/runtime';
import type { TargetPolicy } from '@switchboard/webhooks';
import { openAiServerUrlFormat, parseOpenAiServerUrl } from './openai-server-url';
import { readVoiceSandboxUpstreams } from './sandbox-upstreams';
import { describeSpeechConfig, readSpeechConfig, type SpeechConfig } from './speech/speech.config';
import { parseRtpPortRange, parseSipListenAddress, parseSipTrunkUri, RTP_PORTS_FORMAT, SIP_LISTEN_FORMAT, SIP_TRUNK_FORMAT } from './trunk-address';

/** Where calls go: the carrier simulator for test keys, the configured trunk for live keys (docs/voice-telephony.md#connecting-a-sip-trunk). */
export interface TrunkSettings {
  host: string;
  port: number;
  username?: string;
  password?: string;
}

export interface VoiceOrchestratorConfig extends CommonConfig {
  healthPort: number;
  healthHost: string;
  /** Calls this process holds at once; more wait in the queue (docs/voice.md#capacity). */
  capacity: number;
  sandboxTrunk: TrunkSettings;
  /** Unset: live keys' calls fail with `end_reason: sip_503` (docs/voice.md#call-lifecycle). */
  liveTrunk?: TrunkSettings;
  /** Local address of the SIP and RTP sockets, and the SIP port; the address must differ from the trunk's host. */
  sipListen: { address: string; port: number };
  sipPublicAddress?: string;
  /** TTS and STT engines, local or remote; the default voice, which an agent's `voice` overrides (docs/voice-agents.md#speech-providers). */
  speech: SpeechConfig;
  /** UDP ports the RTP sockets bind to, one per call; 0..0 lets the OS pick (docs/voice-telephony.md#rtp-ports). */
  rtpPorts: { min: number; max: number };
  /** On SIGTERM, how long calls in progress may go on ending by themselves before they are cut (docs/voice.md#shutdown). */
  shutdownGraceMs: number;
  /** VOICE_LOST_AFTER_MS divided by {@link LOST_AFTER_HEARTBEATS}. */
  heartbeatMs: number;
  /** A live call whose process has not beaten for this long ends `failed` / `orchestrator_lost`. */
  lostAfterMs: number;
  /** What an `http` node may reach: the webhook target guard (docs/webhooks.md). */
  httpNodePolicy: TargetPolicy;
  /** OpenAI-compatible chat completions for `llm` nodes: the simulator's stand-in for test keys (docs/voice-agents.md#llm). */
  sandboxLlmBaseUrl: string;
  /** Live keys' chat completions, from LLM_URL; unset, live keys have no model to call. */
  llm?: { baseUrl: string; apiKey?: string };
  /** LLM_URL's `model`, for both modes, unless the agent's `llm.model` names one. */
  llmModel: string;
  stalledIntervalMs: number;
  lockDurationMs: number;
}

/**
 * A call is lost after four and a half heartbeats of silence: three missed beats are a stalled process, not a lost one,
 * and the half keeps a beat that is merely late from counting as missed (docs/voice.md#orchestrator-lost).
 */
export const LOST_AFTER_HEARTBEATS = 4.5;

/** gpt-4o-mini when LLM_URL names no `model`: a small, fast model keeps a caller's wait for each reply short. */
export const DEFAULT_LLM_MODEL = 'gpt-4o-mini';
const LLM_URL_FORMAT = openAiServerUrlFormat({ model: DEFAULT_LLM_MODEL });

export function loadConfig(env: Env = process.env): Readonly<VoiceOrchestratorConfig> {
  const r = new EnvReader(env);
  const lostAfterMs = r.int('VOICE_LOST_AFTER_MS', 45_000, { min: 300 });
  const sandbox = readVoiceSandboxUpstreams(r);
  const llm = r.optionalString('LLM_URL') ? r.parsed('LLM_URL', (text) => parseOpenAiServerUrl(text, ['model']), LLM_URL_FORMAT) : undefined;
  const config: VoiceOrchestratorConfig = {
    ...readCommonConfig(r),
    healthPort: r.int('PORT', 8084, { min: 0, max: 65535 }),
    healthHost: r.string('HOST', '127.0.0.1'),
    capacity: r.int('VOICE_CAPACITY', 50, { min: 1, max: 10_000 }),
    sandboxTrunk: sandbox.trunk,
    liveTrunk: r.optionalString('VOICE_SIP_TRUNK') ? r.parsed('VOICE_SIP_TRUNK', parseSipTrunkUri, SIP_TRUNK_FORMAT) : undefined,
    // 127.0.0.2: the simulator's phones answer on 127.0.0.1, and sip.js takes a peer on its own address for itself
    // (docs/voice-telephony.md); port 0 picks a free one.
    sipListen: r.optionalString('VOICE_SIP_LISTEN')
      ? r.parsed('VOICE_SIP_LISTEN', parseSipListenAddress, SIP_LISTEN_FORMAT)
      : { address: '127.0.0.2', port: 0 },
    sipPublicAddress: r.optionalString('VOICE_SIP_PUBLIC_ADDRESS'),
    speech: readSpeechConfig(r),
    rtpPorts: r.optionalString('VOICE_RTP_PORTS') ? r.parsed('VOICE_RTP_PORTS', parseRtpPortRange, RTP_PORTS_FORMAT) : { min: 0, max: 0 },
    // At most 15 s: the whole shutdown must end within the runtime's 20 s limit (docs/architecture.md).
    shutdownGraceMs: r.int('VOICE_SHUTDOWN_GRACE_SECONDS', 0, { min: 0, max: 15 }) * 1000,
    heartbeatMs: Math.round(lostAfterMs / LOST_AFTER_HEARTBEATS),
    lostAfterMs,
    httpNodePolicy: readTargetGuard(r),
    sandboxLlmBaseUrl: sandbox.llmBaseUrl,
    llm: llm && { baseUrl: llm.baseUrl, apiKey: llm.apiKey },
    llmModel: llm?.params.model ?? DEFAULT_LLM_MODEL,
    ...readJobLock(r),
  };
  return r.finish('voice-orchestrator', config);
}

export function describeConfig(c: VoiceOrchestratorConfig) {
  return {
    ...describeCommonConfig(c),
    ...c,
    databaseUrl: undefined,
    redisUrl: undefined,
    liveTrunk: c.liveTrunk ? { ...c.liveTrunk, password: c.liveTrunk.password ? '***' : undefined } : null,
    llm: c.llm ? { baseUrl: c.llm.baseUrl } : null,
    speech: describeSpeechConfig(c.speech),
  };
}
