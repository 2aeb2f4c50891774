import { describeCommonConfig, EnvReader, type Env, readCommonConfig, readJobLock, readTargetGuard, type CommonConfig } from '@switchboard/runtime';
import type { TargetPolicy } from '@switchboard/webhooks';
import { describeSpeechConfig, readSpeechConfig, type SpeechConfig } from './speech/speech.config';
import { parseRtpPortRange, parseSipTrunkUri, RTP_PORTS_FORMAT, SIP_TRUNK_FORMAT } from './trunk-address';

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
  /** Local address of the SIP and RTP sockets; it must differ from the trunk's host. */
  sipBindAddress: string;
  sipLocalPort: number;
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
  llm?: { baseUrl: string; apiKey?: string };
  llmModel: string;
  stalledIntervalMs: number;
  lockDurationMs: number;
}

/**
 * A call is lost after four and a half heartbeats of silence: three missed beats are a stalled process, not a lost one,
 * and the half keeps a beat that is merely late from counting as missed (docs/voice.md#orchestrator-lost).
 */
export const LOST_AFTER_HEARTBEATS = 4.5;

export function loadConfig(env: Env = process.env): Readonly<VoiceOrchestratorConfig> {
  const r = new EnvReader(env);
  const lostAfterMs = r.int('VOICE_LOST_AFTER_MS', 45_000, { min: 300 });
  const config: VoiceOrchestratorConfig = {
    ...readCommonConfig(r),
    healthPort: r.int('PORT', 8084, { min: 0, max: 65535 }),
    healthHost: r.string('HOST', '127.0.0.1'),
    capacity: r.int('VOICE_CAPACITY', 50, { min: 1, max: 10_000 }),
    sandboxTrunk: r.optionalString('SANDBOX_SIP_TRUNK') ? r.parsed('SANDBOX_SIP_TRUNK', parseSipTrunkUri, SIP_TRUNK_FORMAT) : { host: '127.0.0.1', port: 5070 },
    liveTrunk: r.optionalString('VOICE_SIP_TRUNK') ? r.parsed('VOICE_SIP_TRUNK', parseSipTrunkUri, SIP_TRUNK_FORMAT) : undefined,
    sipBindAddress: r.string('VOICE_SIP_BIND_ADDRESS', '127.0.0.2'),
    sipLocalPort: r.int('VOICE_SIP_LOCAL_PORT', 0, { min: 0, max: 65535 }),
    sipPublicAddress: r.optionalString('VOICE_SIP_PUBLIC_ADDRESS'),
    speech: readSpeechConfig(r),
    rtpPorts: r.optionalString('VOICE_RTP_PORTS') ? r.parsed('VOICE_RTP_PORTS', parseRtpPortRange, RTP_PORTS_FORMAT) : { min: 0, max: 0 },
    // At most 15 s: the whole shutdown must end within the runtime's 20 s limit (docs/architecture.md).
    shutdownGraceMs: r.int('VOICE_SHUTDOWN_GRACE_SECONDS', 0, { min: 0, max: 15 }) * 1000,
    heartbeatMs: Math.round(lostAfterMs / LOST_AFTER_HEARTBEATS),
    lostAfterMs,
    httpNodePolicy: readTargetGuard(r),
    sandboxLlmBaseUrl: r.string('SANDBOX_LLM_BASE_URL', 'http://127.0.0.1:8090'),
    llm: r.optionalString('LLM_BASE_URL') ? { baseUrl: r.string('LLM_BASE_URL'), apiKey: r.optionalString('LLM_API_KEY') } : undefined,
    llmModel: r.string('LLM_MODEL', 'gpt-4o-mini'),
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
