import { randomBytes } from 'node:crypto';
import { createAccountKey, createTestDatabase, eventually, startStack, type Stack, type TestDatabase } from '@switchboard/devstack';
import { freeUdpPort } from '../packages/telephony/test/support/free-port';
import { startSipp, type SippProcess } from '../packages/telephony/test/support/sipp.process';
import { FROM, type CallView } from './support/voice-calls';
import { TEST_REDIS_URL } from './webhooks-harness';

// The orchestrator's REFER (docs/voice-agents.md#transfer) against a third-party SIP peer: a live key's call goes through
// the configured trunk, which here is SIPp playing the transferee. SIPp checks our Refer-To and Referred-By and exits
// non-zero if any message is not as its scenario says; `-rtp_echo` returns our media so the flow can start.
describe("a voice agent's transfer node against SIPp as the transferee", () => {
  let database: TestDatabase;
  let stack: Stack;
  let key: string;
  let sipPort: number;
  let sipp: SippProcess | undefined;

  const api = async (method: string, path: string, body?: unknown) =>
    (
      await fetch(`${stack.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body && JSON.stringify(body),
      })
    ).json() as Promise<Record<string, unknown>>;
  const transferCall = async (scenario: string) => {
    sipp = await startSipp(scenario, sipPort, ['-rtp_echo', '-mi', '127.0.0.1', '-mp', String(await freeUdpPort())]);
    const agent = await api('POST', '/v1/voice/agents', {
      name: 'refer',
      flow: {
        start: 'xfer',
        nodes: {
          xfer: { type: 'transfer', to: '+15550199', on_error: 'bye' },
          bye: { type: 'hangup' },
        },
      },
    });
    const created = await api('POST', '/v1/voice/calls', { to: '+447911123456', from: FROM, agent_id: agent.id });
    return eventually(
      async () => (await api('GET', `/v1/voice/calls/${String(created.call_id)}`)) as unknown as CallView,
      (c) => !['ringing', 'in-progress'].includes(c.status),
      { what: 'the call to end', timeoutMs: 30_000, intervalMs: 250 },
    );
  };

  beforeAll(async () => {
    sipPort = await freeUdpPort();
    database = await createTestDatabase();
    stack = await startStack({
      databaseUrl: database.url,
      redisUrl: TEST_REDIS_URL,
      prefix: `sbvr${randomBytes(4).toString('hex')}`,
      workers: ['voice-orchestrator'],
      voiceEnv: { VOICE_SIP_TRUNK: `sip:127.0.0.1:${sipPort}` },
    });
    ({ key } = await createAccountKey(database.url, { account: 'voice-refer', mode: 'live', scopes: ['*'], numbers: [{ e164: FROM, channels: ['voice'] }] }));
  }, 120_000);
  afterEach(async () => {
    await sipp?.stop();
    sipp = undefined;
  });
  afterAll(async () => {
    await stack?.stop();
    await database?.drop();
  });

  it('202 and a NOTIFY with "SIP/2.0 200 OK": the transfer is accepted, we send BYE, the call completes', async () => {
    const call = await transferCall('refer-accept.xml');
    expect(call).toMatchObject({ status: 'completed', end_reason: 'completed' });
    expect(call.transcript.map((t) => `${t.speaker}: ${t.text}`)).toEqual([`agent: Transferred to sip:+15550199@127.0.0.1:${sipPort}`]);
    expect(await sipp!.exited).toBe(0);
  });

  it('a REFER declined with 603 takes on_error', async () => {
    const call = await transferCall('refer-decline.xml');
    expect(call).toMatchObject({ status: 'completed', end_reason: 'agent_hangup' });
    expect(call.transcript.map((t) => `${t.speaker}: ${t.text}`)).toEqual([`agent: Transfer to sip:+15550199@127.0.0.1:${sipPort} failed (REFER 603)`]);
    expect(await sipp!.exited).toBe(0);
  });
});
