import { SANDBOX_CREDENTIALS, type EnvReader } from '@switchboard/runtime';
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

/** Where `npm start` runs the carrier simulator: its HTTP and SMPP ports on this host (docs/sandbox.md). */
const DEFAULT_SIM_URL = 'http://127.0.0.1:8090';
const DEFAULT_SIM_SMPP = { host: '127.0.0.1', port: 2775 };

/**
 * The sandbox and live upstreams of every channel, each a JSON list, with names that key one breaker each
 * (docs/routing.md#several-upstreams-per-channel). Test keys always use the simulator's fixed credentials; a live list
 * without a variable is the sandbox list. Problems go to `read`.
 */
export function readUpstreamSets(read: EnvReader): { sandbox: UpstreamSet; live: UpstreamSet } {
  const list = <T>(variable: string, fallback: T[], parse: (variable: string, raw: string) => { upstreams: T[]; problems: string[] }): T[] => {
    const raw = read.optionalString(variable);
    if (raw === undefined || raw.trim() === '') return fallback;
    const parsed = parse(variable, raw);
    read.problems.push(...parsed.problems);
    return parsed.upstreams;
  };
  const chatCredentials = { accessToken: SANDBOX_CREDENTIALS.chat.accessToken, wabaId: SANDBOX_CREDENTIALS.chat.wabaId };
  const rcsCredentials = { accessToken: SANDBOX_CREDENTIALS.rbm.accessToken, agentId: SANDBOX_CREDENTIALS.rbm.agentId };
  const smsCredentials = { systemId: SANDBOX_CREDENTIALS.smpp.systemId, password: SANDBOX_CREDENTIALS.smpp.password };
  const sandbox: UpstreamSet = {
    chat: list('SANDBOX_CHAT_UPSTREAMS', [{ name: 'sandbox-chat', baseUrl: DEFAULT_SIM_URL, ...chatCredentials, priority: 1, weight: 1 }], (v, raw) =>
      parseChatUpstreams(v, raw, chatCredentials, chatCredentials),
    ),
    rcs: list('SANDBOX_RCS_UPSTREAMS', [{ name: 'sandbox-rbm', baseUrl: DEFAULT_SIM_URL, ...rcsCredentials, priority: 1, weight: 1 }], (v, raw) =>
      parseRcsUpstreams(v, raw, rcsCredentials, rcsCredentials),
    ),
    sms: list('SANDBOX_SMS_UPSTREAMS', [{ name: 'sandbox-smsc', ...DEFAULT_SIM_SMPP, ...smsCredentials, priority: 1, weight: 1 }], (v, raw) =>
      parseSmsUpstreams(v, raw, smsCredentials, smsCredentials),
    ),
  };
  // Without a live list, live keys use the sandbox list: the same adapters, sessions and breakers.
  const live: UpstreamSet = {
    chat: list('CHAT_UPSTREAMS', sandbox.chat, (v, raw) => parseChatUpstreams(v, raw, chatCredentials)),
    rcs: list('RCS_UPSTREAMS', sandbox.rcs, (v, raw) => parseRcsUpstreams(v, raw, rcsCredentials)),
    sms: list('SMS_UPSTREAMS', sandbox.sms, (v, raw) => parseSmsUpstreams(v, raw, smsCredentials)),
  };
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
  return { sandbox, live };
}
