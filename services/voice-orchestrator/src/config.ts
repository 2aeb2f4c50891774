import { describeCommonConfig, EnvReader, type Env, readCommonConfig, type CommonConfig } from '@switchboard/runtime';
import type { TargetPolicy } from '@switchboard/webhooks';

/** Where calls go: the carrier simulator for test keys, the configured trunk for live keys (docs/voice.md#connecting-a-sip-trunk). */
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
  /** Unset: live keys' calls fail with `end_reason: no_trunk`. */
  liveTrunk?: TrunkSettings;
  /** Local address of the SIP and RTP sockets; it must differ from the trunk's host. */
  sipBindAddress: string;
  sipLocalPort: number;
  sipPublicAddress?: string;
  /** Default flite voice; an agent's `voice` overrides it. */
  ttsVoice: string;
  ttsCacheEntries: number;
  heartbeatMs: number;
  /** A live call whose process has not beaten for this long ends `failed` / `orchestrator_lost`. */
  lostAfterMs: number;
  /** What an `http` node may reach: the webhook target guard (docs/webhooks.md). */
  httpNodePolicy: TargetPolicy;
  stalledIntervalMs: number;
  lockDurationMs: number;
}

export function loadConfig(env: Env = process.env): Readonly<VoiceOrchestratorConfig> {
  const r = new EnvReader(env);
  const liveHost = r.optionalString('VOICE_SIP_TRUNK_HOST');
  const config: VoiceOrchestratorConfig = {
    ...readCommonConfig(r),
    healthPort: r.int('HEALTH_PORT', 8084, { min: 0, max: 65535 }),
    healthHost: r.string('HEALTH_HOST', '127.0.0.1'),
    capacity: r.int('VOICE_CAPACITY', 50, { min: 1, max: 10_000 }),
    sandboxTrunk: { host: r.string('SANDBOX_SIP_HOST', '127.0.0.1'), port: r.int('SANDBOX_SIP_PORT', 5070, { min: 1, max: 65535 }) },
    liveTrunk: liveHost
      ? {
          host: liveHost,
          port: r.int('VOICE_SIP_TRUNK_PORT', 5060, { min: 1, max: 65535 }),
          username: r.optionalString('VOICE_SIP_USERNAME'),
          password: r.optionalString('VOICE_SIP_PASSWORD'),
        }
      : undefined,
    sipBindAddress: r.string('VOICE_SIP_BIND_ADDRESS', '127.0.0.2'),
    sipLocalPort: r.int('VOICE_SIP_LOCAL_PORT', 0, { min: 0, max: 65535 }),
    sipPublicAddress: r.optionalString('VOICE_SIP_PUBLIC_ADDRESS'),
    ttsVoice: r.string('VOICE_TTS_VOICE', 'slt'),
    ttsCacheEntries: r.int('VOICE_TTS_CACHE_ENTRIES', 500, { min: 0 }),
    heartbeatMs: r.int('VOICE_HEARTBEAT_MS', 10_000, { min: 100 }),
    lostAfterMs: r.int('VOICE_LOST_AFTER_MS', 45_000, { min: 300 }),
    httpNodePolicy: {
      allowHttp: r.bool('WEBHOOK_ALLOW_HTTP', false),
      allowPrivateNetworks: r.bool('WEBHOOK_ALLOW_PRIVATE_NETWORKS', false),
      allowedHosts: r.list('WEBHOOK_ALLOWED_HOSTS', []),
    },
    stalledIntervalMs: r.int('STALLED_INTERVAL_MS', 30_000, { min: 100 }),
    lockDurationMs: r.int('LOCK_DURATION_MS', 30_000, { min: 100 }),
  };
  if (config.lostAfterMs <= config.heartbeatMs * 2) r.problems.push('VOICE_LOST_AFTER_MS must be more than twice VOICE_HEARTBEAT_MS');
  return r.finish('voice-orchestrator', config);
}

export function describeConfig(c: VoiceOrchestratorConfig) {
  return { ...describeCommonConfig(c), ...c, databaseUrl: undefined, redisUrl: undefined, liveTrunk: c.liveTrunk ? { ...c.liveTrunk, password: c.liveTrunk.password ? '***' : undefined } : null };
}
