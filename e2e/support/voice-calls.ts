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
