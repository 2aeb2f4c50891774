import { SANDBOX_CREDENTIALS, SANDBOX_UPSTREAM_KEYS, type EnvReader } from '@switchboard/runtime';
import { DEFAULT_SENDER_RATE as DEFAULT_CHAT_SENDER_RATE, parseChatUpstreams, type ChatUpstreamConfig } from './chat-upstreams.config';
import { parseRcsUpstreams, type RcsUpstreamConfig } from './rcs-upstreams.config';
import { DEFAULT_BINDS, DEFAULT_WINDOW, parseSmsUpstreams, type SmsUpstreamConfig } from './sms-upstreams.config';
import { parseJsonList } from './upstream-list.parser';

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
 * A live SMSC and a sandbox one of the same name must be one SMSC: one session (a second bind set with the same
 * system_id would split the receipts) and one sender schedule, so binds, window and rate must agree too.
 */
const sameSmsc = (a: SmsUpstreamConfig, b: SmsUpstreamConfig) =>
  a.host === b.host && a.port === b.port && a.systemId === b.systemId && a.binds === b.binds && a.window === b.window && a.senderRate === b.senderRate;

type ListParser<T> = (variable: string, value: unknown) => { upstreams: T[]; problems: string[] };

/**
 * SANDBOX_UPSTREAMS, the carrier simulator's addresses as one JSON object shared with the voice orchestrator
 * (docs/sandbox.md); each key optional. Answers the object, or an empty one with a problem in `read`.
 */
function readSandboxUpstreams(read: EnvReader): Record<string, unknown> {
  const object = read.jsonObject('SANDBOX_UPSTREAMS', `with any of ${SANDBOX_UPSTREAM_KEYS.join(', ')}`) ?? {};
  for (const key of Object.keys(object))
    if (!(SANDBOX_UPSTREAM_KEYS as readonly string[]).includes(key))
      read.problems.push(`SANDBOX_UPSTREAMS.${key} is not a known key (${SANDBOX_UPSTREAM_KEYS.join(', ')})`);
  return object;
}

/**
 * The sandbox and live upstreams of every channel, each a JSON list, with names that key one breaker each
 * (docs/routing.md#several-upstreams-per-channel). Test keys always use the simulator's fixed credentials; a live list
 * without a variable is the sandbox list. Problems go to `read`.
 */
export function readUpstreamSets(read: EnvReader): { sandbox: UpstreamSet; live: UpstreamSet } {
  const take = <T>(parsed: { upstreams: T[]; problems: string[] }): T[] => {
    read.problems.push(...parsed.problems);
    return parsed.upstreams;
  };
  const list = <T>(variable: string, fallback: T[], parse: ListParser<T>): T[] => {
    const raw = read.optionalString(variable);
    if (raw === undefined || raw.trim() === '') return fallback;
    const json = parseJsonList(variable, raw);
    if (json.problems.length > 0) return take({ upstreams: [], problems: json.problems });
    return take(parse(variable, json.value));
  };
  const sandboxUpstreams = readSandboxUpstreams(read);
  const sandboxList = <T>(key: 'chat' | 'rcs' | 'sms', fallback: T[], parse: ListParser<T>): T[] =>
    sandboxUpstreams[key] === undefined ? fallback : take(parse(`SANDBOX_UPSTREAMS.${key}`, sandboxUpstreams[key]));
  const chatCredentials = { accessToken: SANDBOX_CREDENTIALS.chat.accessToken, wabaId: SANDBOX_CREDENTIALS.chat.wabaId };
  const rcsCredentials = { accessToken: SANDBOX_CREDENTIALS.rbm.accessToken, agentId: SANDBOX_CREDENTIALS.rbm.agentId };
  const smsCredentials = { systemId: SANDBOX_CREDENTIALS.smpp.systemId, password: SANDBOX_CREDENTIALS.smpp.password };
  const common = { priority: 1, weight: 1 };
  const sandbox: UpstreamSet = {
    chat: sandboxList(
      'chat',
      [{ name: 'sandbox-chat', baseUrl: DEFAULT_SIM_URL, ...chatCredentials, ...common, senderRate: DEFAULT_CHAT_SENDER_RATE }],
      (v, value) => parseChatUpstreams(v, value, chatCredentials, chatCredentials),
    ),
    rcs: sandboxList('rcs', [{ name: 'sandbox-rbm', baseUrl: DEFAULT_SIM_URL, ...rcsCredentials, ...common, senderRate: 0 }], (v, value) =>
      parseRcsUpstreams(v, value, rcsCredentials, rcsCredentials),
    ),
    sms: sandboxList(
      'sms',
      [{ name: 'sandbox-smsc', ...DEFAULT_SIM_SMPP, ...smsCredentials, ...common, binds: DEFAULT_BINDS, window: DEFAULT_WINDOW, senderRate: 0 }],
      (v, value) => parseSmsUpstreams(v, value, smsCredentials, smsCredentials),
    ),
  };
  // Without a live list, live keys use the sandbox list: the same adapters, sessions and breakers.
  const live: UpstreamSet = {
    chat: list('CHAT_UPSTREAMS', sandbox.chat, (v, value) => parseChatUpstreams(v, value, chatCredentials)),
    rcs: list('RCS_UPSTREAMS', sandbox.rcs, (v, value) => parseRcsUpstreams(v, value, rcsCredentials)),
    sms: list('SMS_UPSTREAMS', sandbox.sms, (v, value) => parseSmsUpstreams(v, value, smsCredentials)),
  };
  for (const u of live.sms) {
    const twin = sandbox.sms.find((s) => s.name === u.name);
    if (twin && !sameSmsc(twin, u)) {
      read.problems.push(`live SMSC "${u.name}" has the name of a different sandbox SMSC; names key the breakers, so use another`);
    }
  }
  for (const u of live.chat) {
    const twin = sandbox.chat.find((s) => s.name === u.name);
    if (twin && (twin.baseUrl !== u.baseUrl || twin.accessToken !== u.accessToken || twin.wabaId !== u.wabaId || twin.senderRate !== u.senderRate)) {
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
    if (twin && (twin.baseUrl !== u.baseUrl || twin.accessToken !== u.accessToken || twin.agentId !== u.agentId || twin.senderRate !== u.senderRate)) {
      read.problems.push(`live RBM upstream "${u.name}" has the name of a different sandbox RBM upstream; names key the breakers, so use another`);
    }
  }
  return { sandbox, live };
}
