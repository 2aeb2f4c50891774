import { randomBytes } from 'node:crypto';
import { createAccountKey, createTestDatabase, eventually, startStack, type Stack, type TestDatabase } from '@switchboard/devstack';
import { callee, FROM, type CallView } from './support/voice-calls';
import { TEST_REDIS_URL } from './webhooks-harness';

// Speech gathers against the carrier simulator's phones that speak espeak-ng rather than flite, over real SIP and
// RTP (docs/voice-recognition.md): 08 says "I would like to talk to billing please" (en-us), 09 says "what time do
// you close today" (en-gb), which no branch should take.
describe('speech recognition of callers in other voices', () => {
  let database: TestDatabase;
  let stack: Stack;
  let key: string;

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const callEnds = (id: string) =>
    eventually(
      async () => (await api('GET', `/v1/voice/calls/${id}`)).body as unknown as CallView,
      (c) => !['ringing', 'in-progress'].includes(c.status),
      { what: 'the speech call to end', timeoutMs: 60_000, intervalMs: 250 },
    );
  const menu = {
    name: 'departments',
    flow: {
      start: 'ask',
      nodes: {
        ask: {
          type: 'gather',
          input: 'speech',
          recognition: 'keywords',
          prompt: 'Which department would you like?',
          timeout_seconds: 8,
          branches: [
            { match: 'sales', phrases: ['purchase', 'order'], next: 'sales' },
            { match: 'support', phrases: ['technical problem', 'not working'], next: 'support' },
            { match: 'billing', phrases: ['invoice', 'payment'], next: 'billing' },
          ],
          no_input: 'silent',
          no_match: 'unknown',
        },
        sales: { type: 'say', text: 'Connecting you to sales.', next: 'bye' },
        support: { type: 'say', text: 'Connecting you to support.', next: 'bye' },
        billing: { type: 'say', text: 'Connecting you to billing.', next: 'bye' },
        unknown: { type: 'say', text: 'Sorry, I did not understand.', next: 'bye' },
        silent: { type: 'say', text: 'I did not hear you.', next: 'bye' },
        bye: { type: 'hangup' },
      },
    },
  };
  const agentReplies = async (phone: string) => {
    const agent = await api('POST', '/v1/voice/agents', menu);
    expect(agent.status).toBe(201);
    const created = await api('POST', '/v1/voice/calls', { to: callee(phone), from: FROM, agent_id: agent.body.id });
    const call = await callEnds(created.body.call_id as string);
    expect(call.status).toBe('completed');
    return call.transcript.map((t) => `${t.speaker}: ${t.text}`);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: TEST_REDIS_URL,
      prefix: `sbvr${randomBytes(4).toString('hex')}`,
      workers: ['voice-orchestrator'],
    });
    ({ key } = await createAccountKey(database.url, { account: 'voice-recognition-e2e', scopes: ['*'], numbers: [{ e164: FROM, channels: ['voice'] }] }));
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await database?.drop();
  });

  it('routes a callee speaking espeak-ng by a speech gather', async () => {
    const turns = await agentReplies('08');
    expect(turns[0]).toBe('agent: Which department would you like?');
    expect(turns[1]).toMatch(/^callee: .*\bbilling\b/);
    expect(turns[2]).toBe('agent: Connecting you to billing.');
  });

  it('ends a phrase outside the grammar in no_match', async () => {
    const turns = await agentReplies('09');
    expect(turns[0]).toBe('agent: Which department would you like?');
    // Speech was heard (not no_input), and none of the branches took it.
    expect(turns[1]).toBe('callee: (not understood)');
    expect(turns[2]).toBe('agent: Sorry, I did not understand.');
  });
});
