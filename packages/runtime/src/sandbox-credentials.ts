/**
 * The carrier simulator's fixed, public credentials: the simulator accepts and signs with these, and the services'
 * sandbox defaults send and verify with them, so both sides take them from here (docs/sandbox.md). They guard
 * nothing; they exist because the real wire formats carry credentials.
 */
export const SANDBOX_CREDENTIALS = {
  chat: { appSecret: 'sandbox-chat-app-secret', accessToken: 'sandbox-chat-token', wabaId: '100000000000001' },
  rbm: { clientToken: 'sandbox-rbm-client-token', accessToken: 'sandbox-rbm-token', agentId: 'switchboard-sandbox' },
  smpp: { systemId: 'switchboard', password: 'sandbox' },
} as const;

/**
 * The shared sandbox sender: a test key whose account has no number for a channel sends from it, and a reply to it
 * opens the chat window for every test key (docs/sandbox.md). The gateway and the dispatcher must agree on it.
 */
export const SANDBOX_SENDER = '+14155550100';

/**
 * The keys of SANDBOX_UPSTREAMS, one JSON object the dispatcher and the voice orchestrator share
 * (docs/configuration.md): the dispatcher's `chat`, `rcs` and `sms` lists, the voice orchestrator's `sip` and `llm`.
 * Each service refuses any other key, so a misspelt one does not leave its default in place silently.
 */
export const SANDBOX_UPSTREAM_KEYS = ['chat', 'rcs', 'sms', 'sip', 'llm'] as const;
