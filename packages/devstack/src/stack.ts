import { randomBytes } from 'node:crypto';
import { freePort } from './infra';
import type { CertificateFiles } from './local-tls';
import { testSecretsKeys } from './secrets-keys';
import { startService, type ServiceName, type ServiceProcess } from './service-process';

export interface StackOptions {
  databaseUrl: string;
  redisUrl: string;
  /** A Redis Cluster's nodes (REDIS_CLUSTER_NODES); the prefix must then carry a hash tag, e.g. `{sb…}`. */
  redisClusterNodes?: string[];
  /** BullMQ key prefix; a random one keeps parallel runs apart. */
  prefix?: string;
  /** Environment for every service. */
  env?: Record<string, string>;
  gatewayEnv?: Record<string, string>;
  dispatcherEnv?: Record<string, string>;
  simEnv?: Record<string, string>;
  /** The carrier simulator's behaviour, put once each simulator the stack starts is ready (`putSimBehaviour`). */
  simBehaviour?: SimBehaviourSettings;
  /**
   * Fields added to each sandbox upstream of SANDBOX_UPSTREAMS, such as `{ sms: { sender_rate: 10, binds: 2 } }`
   * (docs/configuration.md#dispatcher).
   */
  sandboxUpstreamFields?: SandboxUpstreamFields;
  voiceEnv?: Record<string, string>;
  /** Services to start after carrier-sim and the gateway. @defaultValue ['dispatcher'] */
  workers?: ServiceName[];
  gatewayPort?: number;
  /**
   * The gateway serves HTTPS with these files; every other service trusts the certificate
   * (NODE_EXTRA_CA_CERTS), as they call the gateway's base URL.
   */
  gatewayTls?: CertificateFiles;
  /** SECRETS_ENCRYPTION_KEYS of every service. @defaultValue testSecretsKeys(databaseUrl): random, per database */
  secretsKeys?: string;
  /** Every service's output copied to ours, as `npm start` shows it (startService's `echo`). @defaultValue false */
  echo?: boolean;
}

export interface Stack {
  baseUrl: string;
  simUrl: string;
  simSmppPort: number;
  prefix: string;
  /** The SECRETS_ENCRYPTION_KEYS the services run with, to read or write secrets beside them. */
  secretsKeys: string;
  /** The environment each kind of service was started with, to start more of them. */
  envFor(name: ServiceName): Record<string, string>;
  services: Partial<Record<ServiceName, ServiceProcess>> & { gateway: ServiceProcess; sim: ServiceProcess };
  startService(name: ServiceName, extraEnv?: Record<string, string>): Promise<ServiceProcess>;
  stop(): Promise<void>;
}

/** Extra fields of the sandbox upstream entries, per list of SANDBOX_UPSTREAMS. */
export type SandboxUpstreamFields = Partial<Record<'chat' | 'rcs' | 'sms', Record<string, unknown>>>;

/** The carrier simulator's run-time behaviour, as PUT /sim/behaviour takes it (docs/sandbox.md#behaviour-at-run-time). */
export interface SimBehaviourSettings {
  receipt_delay_ms?: number;
  enforce_chat_window?: boolean;
  receipt_backlog_max?: number;
}

/** Sets a running carrier simulator's behaviour; only the fields given change. */
export async function putSimBehaviour(simUrl: string, behaviour: SimBehaviourSettings): Promise<void> {
  const res = await fetch(`${simUrl}/sim/behaviour`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(behaviour) });
  if (!res.ok) throw new Error(`PUT ${simUrl}/sim/behaviour answered ${res.status}: ${await res.text()}`);
}

/**
 * The sandbox upstreams for one carrier simulator, as SANDBOX_UPSTREAMS: the dispatcher's lists (its HTTP base for
 * chat and RBM, its SMSC port, each entry with `fields` of its list) and the voice orchestrator's `sip` (its phones)
 * and `llm` (its chat completions). The names are the dispatcher's defaults, so breakers and metrics read as they do
 * under `npm start`.
 */
export function sandboxUpstreamsEnv(simUrl: string, simSmppPort: number, simSipPort: number, fields: SandboxUpstreamFields = {}): Record<string, string> {
  const { hostname } = new URL(simUrl);
  return {
    SANDBOX_UPSTREAMS: JSON.stringify({
      chat: [{ name: 'sandbox-chat', base_url: simUrl, ...fields.chat }],
      rcs: [{ name: 'sandbox-rbm', base_url: simUrl, ...fields.rcs }],
      sms: [{ name: 'sandbox-smsc', host: hostname, port: simSmppPort, ...fields.sms }],
      sip: `sip:${hostname}:${simSipPort}`,
      llm: simUrl,
    }),
  };
}

/**
 * Starts carrier-sim, the gateway and the workers as real processes wired to each other: the
 * sim's webhooks point at the gateway, the workers' sandbox upstreams at the sim.
 */
export async function startStack(opts: StackOptions): Promise<Stack> {
  const prefix = opts.prefix ?? `sb${randomBytes(4).toString('hex')}`;
  const [gatewayPort, simPort, simSmppPort, simSipPort] = await Promise.all([opts.gatewayPort ?? freePort(), freePort(), freePort(), freePort()]);
  const baseUrl = `${opts.gatewayTls ? 'https' : 'http'}://127.0.0.1:${gatewayPort}`;
  const tlsEnv: Record<string, string> = opts.gatewayTls ? { TLS_CERT_FILE: opts.gatewayTls.certFile, TLS_KEY_FILE: opts.gatewayTls.keyFile } : {};
  const simUrl = `http://127.0.0.1:${simPort}`;
  const common: Record<string, string> = {
    DATABASE_URL: opts.databaseUrl,
    REDIS_URL: opts.redisUrl,
    ...(opts.redisClusterNodes ? { REDIS_CLUSTER_NODES: opts.redisClusterNodes.join(',') } : {}),
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    SECRETS_ENCRYPTION_KEYS: opts.secretsKeys ?? testSecretsKeys(opts.databaseUrl),
    ...(opts.gatewayTls ? { NODE_EXTRA_CA_CERTS: opts.gatewayTls.certFile } : {}),
    ...opts.env,
  };
  const sandboxUpstreams = sandboxUpstreamsEnv(simUrl, simSmppPort, simSipPort, opts.sandboxUpstreamFields);
  const envs: Record<string, Record<string, string>> = {
    'carrier-sim': {
      ...common,
      SIM_SMPP_PORT: String(simSmppPort),
      SIM_SIP_PORT: String(simSipPort),
      SIM_GATEWAY_URL: baseUrl,
      ...opts.simEnv,
      PORT: String(simPort),
    },
    'api-gateway': { ...common, ...tlsEnv, ...opts.gatewayEnv, PORT: String(gatewayPort) },
    dispatcher: { ...common, ...sandboxUpstreams, ...opts.dispatcherEnv },
    'voice-orchestrator': { ...common, ...sandboxUpstreams, ...opts.voiceEnv },
  };
  const envFor = (name: ServiceName) => envs[name] ?? { ...common, SIM_URL: simUrl, GATEWAY_URL: baseUrl };
  const started: ServiceProcess[] = [];
  const launch = async (name: ServiceName, extra: Record<string, string> = {}) => {
    const service = await startService(name, { ...envFor(name), ...extra }, { echo: opts.echo });
    started.push(service);
    if (name === 'carrier-sim' && opts.simBehaviour) await putSimBehaviour(service.url, opts.simBehaviour);
    return service;
  };
  try {
    const sim = await launch('carrier-sim');
    const gateway = await launch('api-gateway');
    const services: Stack['services'] = { sim, gateway };
    for (const worker of opts.workers ?? ['dispatcher']) services[worker] = await launch(worker);
    return {
      baseUrl,
      simUrl,
      simSmppPort,
      prefix,
      secretsKeys: common.SECRETS_ENCRYPTION_KEYS,
      envFor,
      services,
      startService: launch,
      stop: async () => {
        await Promise.all(started.reverse().map((s) => s.stop().catch(() => undefined)));
      },
    };
  } catch (error) {
    await Promise.all(started.map((s) => s.kill().catch(() => undefined)));
    throw error;
  }
}
