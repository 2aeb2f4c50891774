import type { Env, EnvReader } from '@switchboard/runtime';
import { parseChatUpstreams, type ChatUpstreamConfig } from './chat-upstreams.config';
import { parseRcsUpstreams, type RcsUpstreamConfig } from './rcs-upstreams.config';
import { parseSmsUpstreams, type SmsUpstreamConfig } from './sms-upstreams.config';

export interface UpstreamSet {
  /** One or more Cloud API upstreams, tried like the SMSCs (docs/routing.md#several-upstreams-per-channel). */
  chat: ChatUpstreamConfig[];
  /** One or more RBM upstreams, tried like the SMSCs (docs/routing.md#several-upstreams-per-channel). */
  rcs: RcsUpstreamConfig[];
  /** One or more SMSCs, tried by priority and weight behind circuit breakers (docs/routing.md#several-upstreams-per-channel). */
  sms: SmsUpstreamConfig[];
}

/**
 * The carrier simulator's fixed sandbox credentials (docs/configuration.md). Only the addresses of the
 * simulator are configurable; test keys must reach the simulator whatever else is configured.
 */
const SANDBOX_CREDENTIALS = {
  chatAccessToken: 'sandbox-chat-token',
  chatWabaId: '100000000000001',
  rbmAccessToken: 'sandbox-rbm-token',
  rbmAgentId: 'switchboard-sandbox',
  smppSystemId: 'switchboard',
  smppPassword: 'sandbox',
} as const;

/**
 * The sandbox and live upstreams of every channel: the single-upstream variables or the JSON lists, never both, with
 * names that key one breaker each (docs/routing.md#several-upstreams-per-channel). Problems go to `read`.
 */
export function readUpstreamSets(read: EnvReader, env: Env): { sandbox: UpstreamSet; live: UpstreamSet } {
  const smsList = (variable: string, fallback: SmsUpstreamConfig[], credentials?: { systemId: string; password: string }) => {
    const raw = env[variable];
    if (raw === undefined || raw.trim() === '') return fallback;
    const defaults = {
      systemId: fallback[0]?.systemId ?? SANDBOX_CREDENTIALS.smppSystemId,
      password: fallback[0]?.password ?? SANDBOX_CREDENTIALS.smppPassword,
    };
    const parsed = parseSmsUpstreams(variable, raw, defaults, credentials);
    read.problems.push(...parsed.problems);
    return parsed.upstreams;
  };
  const chatList = (variable: string, fallback: ChatUpstreamConfig[], credentials?: { accessToken: string; wabaId: string }) => {
    const raw = env[variable];
    if (raw === undefined || raw.trim() === '') return fallback;
    const defaults = {
      accessToken: fallback[0]?.accessToken ?? SANDBOX_CREDENTIALS.chatAccessToken,
      wabaId: fallback[0]?.wabaId ?? SANDBOX_CREDENTIALS.chatWabaId,
    };
    const parsed = parseChatUpstreams(variable, raw, defaults, credentials);
    read.problems.push(...parsed.problems);
    return parsed.upstreams;
  };
  const rcsList = (variable: string, fallback: RcsUpstreamConfig[], credentials?: { accessToken: string; agentId: string }) => {
    const raw = env[variable];
    if (raw === undefined || raw.trim() === '') return fallback;
    const defaults = {
      accessToken: fallback[0]?.accessToken ?? SANDBOX_CREDENTIALS.rbmAccessToken,
      agentId: fallback[0]?.agentId ?? SANDBOX_CREDENTIALS.rbmAgentId,
    };
    const parsed = parseRcsUpstreams(variable, raw, defaults, credentials);
    read.problems.push(...parsed.problems);
    return parsed.upstreams;
  };
  const simBaseUrl = 'http://127.0.0.1:8090';
  const sandboxChatCredentials = { accessToken: SANDBOX_CREDENTIALS.chatAccessToken, wabaId: SANDBOX_CREDENTIALS.chatWabaId };
  const sandboxChat: ChatUpstreamConfig = {
    name: 'sandbox-chat',
    baseUrl: read.string('SANDBOX_CHAT_API_BASE_URL', simBaseUrl),
    ...sandboxChatCredentials,
    priority: 1,
    weight: 1,
  };
  const sandboxRcsCredentials = { accessToken: SANDBOX_CREDENTIALS.rbmAccessToken, agentId: SANDBOX_CREDENTIALS.rbmAgentId };
  // As with SANDBOX_SMS_UPSTREAMS, the list wins over the single address, which stacks always set.
  const sandbox: UpstreamSet = {
    chat: chatList('SANDBOX_CHAT_UPSTREAMS', [sandboxChat], sandboxChatCredentials),
    rcs: rcsList(
      'SANDBOX_RCS_UPSTREAMS',
      [{ name: 'sandbox-rbm', baseUrl: read.string('SANDBOX_RBM_API_BASE_URL', simBaseUrl), ...sandboxRcsCredentials, priority: 1, weight: 1 }],
      sandboxRcsCredentials,
    ),
    sms: [],
  };
  const sandboxCredentials = { systemId: SANDBOX_CREDENTIALS.smppSystemId, password: SANDBOX_CREDENTIALS.smppPassword };
  const sandboxSmsc: SmsUpstreamConfig = {
    name: 'sandbox-smsc',
    host: read.string('SANDBOX_SMPP_HOST', '127.0.0.1'),
    port: read.int('SANDBOX_SMPP_PORT', 2775, { min: 1, max: 65535 }),
    ...sandboxCredentials,
    priority: 1,
    weight: 1,
  };
  sandbox.sms = smsList('SANDBOX_SMS_UPSTREAMS', [sandboxSmsc], sandboxCredentials);
  const singleChatVariables = ['CHAT_API_BASE_URL', 'CHAT_ACCESS_TOKEN', 'CHAT_WABA_ID'];
  const liveChat: ChatUpstreamConfig = {
    name: 'chat',
    baseUrl: read.string('CHAT_API_BASE_URL', sandbox.chat[0]?.baseUrl ?? simBaseUrl),
    accessToken: read.string('CHAT_ACCESS_TOKEN', SANDBOX_CREDENTIALS.chatAccessToken),
    wabaId: read.string('CHAT_WABA_ID', SANDBOX_CREDENTIALS.chatWabaId),
    priority: 1,
    weight: 1,
  };
  const singleRcsVariables = ['RBM_API_BASE_URL', 'RBM_ACCESS_TOKEN', 'RBM_AGENT_ID'];
  const liveRbm: RcsUpstreamConfig = {
    name: 'rbm',
    baseUrl: read.string('RBM_API_BASE_URL', sandbox.rcs[0]?.baseUrl ?? simBaseUrl),
    accessToken: read.string('RBM_ACCESS_TOKEN', SANDBOX_CREDENTIALS.rbmAccessToken),
    agentId: read.string('RBM_AGENT_ID', SANDBOX_CREDENTIALS.rbmAgentId),
    priority: 1,
    weight: 1,
  };
  if (env.RCS_UPSTREAMS !== undefined && singleRcsVariables.some((v) => env[v] !== undefined)) {
    read.problems.push(`RCS_UPSTREAMS and ${singleRcsVariables.join('/')} are alternatives: set one or the other`);
  }
  if (env.CHAT_UPSTREAMS !== undefined && singleChatVariables.some((v) => env[v] !== undefined)) {
    read.problems.push(`CHAT_UPSTREAMS and ${singleChatVariables.join('/')} are alternatives: set one or the other`);
  }
  const live: UpstreamSet = {
    // Without any live chat setting, live keys use the sandbox list: the same adapters and breakers.
    chat: chatList('CHAT_UPSTREAMS', singleChatVariables.some((v) => env[v] !== undefined) ? [liveChat] : sandbox.chat),
    rcs: rcsList('RCS_UPSTREAMS', singleRcsVariables.some((v) => env[v] !== undefined) ? [liveRbm] : sandbox.rcs),
    sms: [],
  };
  const singleSmsVariables = ['SMPP_HOST', 'SMPP_PORT', 'SMPP_SYSTEM_ID', 'SMPP_PASSWORD'];
  const liveSmsc: SmsUpstreamConfig = {
    name: 'smsc',
    host: read.string('SMPP_HOST', sandboxSmsc.host),
    port: read.int('SMPP_PORT', sandboxSmsc.port, { min: 1, max: 65535 }),
    systemId: read.string('SMPP_SYSTEM_ID', sandboxSmsc.systemId),
    password: read.string('SMPP_PASSWORD', sandboxSmsc.password),
    priority: 1,
    weight: 1,
  };
  if (env.SMS_UPSTREAMS !== undefined && singleSmsVariables.some((v) => env[v] !== undefined)) {
    read.problems.push(`SMS_UPSTREAMS and ${singleSmsVariables.join('/')} are alternatives: set one or the other`);
  }
  // Without any live SMS setting, live keys use the sandbox list: the same sessions and breakers.
  live.sms = smsList('SMS_UPSTREAMS', singleSmsVariables.some((v) => env[v] !== undefined) ? [liveSmsc] : sandbox.sms);
  for (const u of live.sms) {
    const twin = sandbox.sms.find((s) => s.name === u.name);
    if (twin && (twin.host !== u.host || twin.port !== u.port || twin.systemId !== u.systemId)) {
      read.problems.push(`live SMSC "${u.name}" has the name of a different sandbox SMSC; names key the breakers, so use another`);
    }
  }
  for (const u of live.chat) {
    const twin = sandbox.chat.find((s) => s.name === u.name);
    if (twin && (twin.baseUrl !== u.baseUrl || twin.accessToken !== u.accessToken || twin.wabaId !== u.wabaId)) {
      read.problems.push(`live chat upstream "${u.name}" has the name of a different sandbox chat upstream; names key the breakers, so use another`);
    }
  }
  // Breakers are keyed by name alone, so one name cannot serve two channels.
  const smsNames = new Set([...sandbox.sms, ...live.sms].map((u) => u.name));
  for (const name of new Set([...sandbox.chat, ...live.chat].map((u) => u.name))) {
    if (smsNames.has(name)) read.problems.push(`upstream name "${name}" is used by both an SMSC and a chat upstream; names key the breakers, so use another`);
  }
  const chatNames = new Set([...sandbox.chat, ...live.chat].map((u) => u.name));
  for (const name of new Set([...sandbox.rcs, ...live.rcs].map((u) => u.name))) {
    if (smsNames.has(name) || chatNames.has(name))
      read.problems.push(`upstream name "${name}" is used by an RBM upstream and another channel's; names key the breakers, so use another`);
  }
  for (const u of live.rcs) {
    const twin = sandbox.rcs.find((s) => s.name === u.name);
    if (twin && (twin.baseUrl !== u.baseUrl || twin.accessToken !== u.accessToken || twin.agentId !== u.agentId)) {
      read.problems.push(`live RBM upstream "${u.name}" has the name of a different sandbox RBM upstream; names key the breakers, so use another`);
    }
  }
  for (const [name, value] of Object.entries({
    SANDBOX_CHAT_API_BASE_URL: sandboxChat.baseUrl,
    SANDBOX_RBM_API_BASE_URL: sandbox.rcs[0]?.baseUrl ?? simBaseUrl,
    CHAT_API_BASE_URL: liveChat.baseUrl,
    RBM_API_BASE_URL: liveRbm.baseUrl,
  })) {
    if (!/^https?:\/\/[^\s/]+/.test(value)) read.problems.push(`${name} must be an http(s) URL, got "${value}"`);
  }
  return { sandbox, live };
}
