import { eventually } from '@switchboard/devstack';

// What the voice e2e tests share: the account's number, the simulator's phones, the call as GET returns it, and the
// IVR flow of docs/voice.md's walk-through.
export const FROM = '+447911123499';
export const callee = (lastTwo: string) => `+4479111234${lastTwo}`;

export interface CallView {
  call_id: string;
  status: string;
  end_reason: string | null;
  answered_at: string | null;
  transcript: Array<{ speaker: string; text: string; at: string }>;
  recording: { url: string; duration_seconds: number } | null;
  metadata: Record<string, string>;
}

export const IVR_FLOW = {
  start: 'greet',
  nodes: {
    greet: { type: 'say', text: 'Hello {{name}}, this is Switchboard.', next: 'menu' },
    menu: {
      type: 'gather',
      input: 'dtmf',
      prompt: 'Press 1 for sales or 2 for support.',
      max_digits: 1,
      timeout_seconds: 8,
      save_as: 'choice',
      branches: [
        { match: '1', next: 'route' },
        { match: '2', next: 'route' },
      ],
      no_input: 'bye',
      no_match: 'bye',
    },
    route: { type: 'branch', conditions: [{ if: '{{choice}} == 1', next: 'sales' }], else: 'support' },
    sales: { type: 'say', text: 'Connecting you to sales.', next: 'bye' },
    support: { type: 'say', text: 'Connecting you to support.', next: 'bye' },
    bye: { type: 'hangup' },
  },
};

/** A greeting the simulator's phone 10 talks over with "I want to speak to sales" (docs/voice.md#carrier-simulator). */
export const talkedOverFlow = (greeting: string) => ({
  start: 'greet',
  nodes: {
    greet: { type: 'say', text: greeting, next: 'ask' },
    ask: {
      type: 'gather',
      input: 'speech',
      prompt: 'Which department?',
      timeout_seconds: 8,
      branches: [{ match: 'sales', next: 'sales' }],
      no_input: 'bye',
      no_match: 'bye',
    },
    sales: { type: 'say', text: 'Connecting you to sales.', next: 'bye' },
    bye: { type: 'hangup' },
  },
});

/**
 * The voice API as a test calls it: JSON in, JSON or bytes (a recording) out, with the account's key; `target` is
 * read at each call because the stack and the key are made in `beforeAll`.
 */
export function voiceApi(target: () => { baseUrl: string; key: string }) {
  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const { baseUrl, key } = target();
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const type = res.headers.get('content-type') ?? '';
    const payload = type.includes('json') ? await res.json() : Buffer.from(await res.arrayBuffer());
    return { status: res.status, type, body: payload as Record<string, unknown> & Buffer };
  };
  /** The call once it has ended (neither ringing nor in progress). */
  const callEnds = (id: string, what: string) =>
    eventually(
      async () => (await api('GET', `/v1/voice/calls/${id}`)).body as unknown as CallView,
      (c) => !['ringing', 'in-progress'].includes(c.status),
      { what, timeoutMs: 60_000, intervalMs: 250 },
    );
  return { api, callEnds };
}

/** Looks the callee up in the customer system at `baseUrl`, then tries a cloud metadata address the target guard refuses. */
export const customerLookupFlow = (baseUrl: string) => ({
  start: 'lookup',
  nodes: {
    lookup: { type: 'http', method: 'GET', url: `${baseUrl}/customers/{{to}}`, save_as: 'customer', next: 'greet', on_error: 'bye' },
    greet: { type: 'say', text: 'Hello {{customer.name}}.', next: 'metadata' },
    metadata: { type: 'http', method: 'GET', url: 'http://169.254.169.254/latest/meta-data', save_as: 'secrets', next: 'leaked', on_error: 'refused' },
    leaked: { type: 'say', text: 'This must not be reached.', next: 'bye' },
    refused: { type: 'say', text: 'Lookup refused.', next: 'bye' },
    bye: { type: 'hangup' },
  },
});
