import { randomBytes } from 'node:crypto';
import { createAccountKey, createTestDatabase, eventually, startStack, type ServiceProcess, type Stack, type TestDatabase } from '@switchboard/devstack';
import { callee, FROM, type CallView } from './support/voice-calls';
import { TEST_REDIS_URL } from './webhooks-harness';

// A SIGTERM with a grace (docs/voice.md#shutdown): the orchestrator stops taking calls, lets the calls in progress
// end by themselves for up to VOICE_SHUTDOWN_GRACE_SECONDS, then cuts the rest as orchestrator_lost.
describe('voice orchestrator shutdown grace', () => {
  let database: TestDatabase;
  let stack: Stack;
  let key: string;
  /** The orchestrator running now: each test stops it and starts the next (with the same env, the grace included). */
  let orchestrator: ServiceProcess;

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as Record<string, unknown>;
  };
  const call = async (id: string) => (await api('GET', `/v1/voice/calls/${id}`)) as unknown as CallView;
  const answered = (id: string) =>
    eventually(
      () => call(id),
      (c) => c.status === 'in-progress',
      { what: 'the call to be answered', timeoutMs: 30_000, intervalMs: 100 },
    );
  const logLines = (message: string) =>
    orchestrator
      .logs()
      .split('\n')
      .filter((line) => line.includes(`"${message}"`))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeAll(async () => {
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: TEST_REDIS_URL,
      prefix: `sbvs${randomBytes(4).toString('hex')}`,
      workers: ['voice-orchestrator'],
      voiceEnv: { VOICE_SHUTDOWN_GRACE_SECONDS: '10', LOG_LEVEL: 'info' },
    });
    orchestrator = stack.services['voice-orchestrator']!;
    ({ key } = await createAccountKey(database.url, { account: 'voice-shutdown', scopes: ['*'], numbers: [{ e164: FROM, channels: ['voice'] }] }));
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await database?.drop();
  });

  afterEach(async () => {
    orchestrator = await stack.startService('voice-orchestrator');
  });

  it('lets a call that is ending finish as it would have: its goodbye plays and the agent hangs up', async () => {
    const agent = await api('POST', '/v1/voice/agents', {
      name: 'closing',
      flow: {
        start: 'bye',
        nodes: { bye: { type: 'say', text: 'Thank you for calling. We are closed for the night. Goodbye.', next: 'end' }, end: { type: 'hangup' } },
      },
    });
    const created = await api('POST', '/v1/voice/calls', { to: callee('05'), from: FROM, agent_id: agent.id });
    const id = created.call_id as string;
    await answered(id);
    await orchestrator.kill('SIGTERM');
    expect(await call(id)).toMatchObject({ status: 'completed', end_reason: 'agent_hangup' });
    // The call was still up when the shutdown began, and it had ended by the time the grace was over.
    expect(logLines('letting live calls end')).toEqual([expect.objectContaining({ calls: 1 })]);
    expect(logLines('grace over')).toEqual([expect.objectContaining({ calls_left: 0 })]);
  });

  it('cuts a call still up when the grace is over: failed / orchestrator_lost', async () => {
    const agent = await api('POST', '/v1/voice/agents', {
      name: 'long hold',
      flow: {
        start: 'wait',
        nodes: { wait: { type: 'gather', input: 'dtmf', timeout_seconds: 60, branches: [], no_input: 'end', no_match: 'end' }, end: { type: 'hangup' } },
      },
    });
    const created = await api('POST', '/v1/voice/calls', { to: callee('05'), from: FROM, agent_id: agent.id });
    const id = created.call_id as string;
    await answered(id);
    await orchestrator.kill('SIGTERM');
    expect(await call(id)).toMatchObject({ status: 'failed', end_reason: 'orchestrator_lost' });
    expect(logLines('grace over')).toEqual([expect.objectContaining({ calls_left: 1 })]);
  });
});
