import { randomUUID } from 'node:crypto';
import { createAccountKey, eventually, type Stack } from '@switchboard/devstack';
import { partitionOf } from '@switchboard/queues';
import { verify, type ReceiverProcess } from '../webhooks-harness';
import { callee, FROM } from './voice-calls';

// What the queue-partition e2e tests share (docs/storage-layout.md#redis-keys-and-cluster): accounts spread over the
// partitions, and a campaign in which each of them sends, replays, batches and (one of them) calls.

export interface CampaignAccount {
  name: string;
  key: string;
  accountId: string;
  callbackSecret: string;
  partition: number;
}

/**
 * `perPartition` accounts in each of `partitions`. Account ids are random (`acc_…`), so accounts are made until
 * every partition has its share, and only those are kept: each partition gets the same traffic.
 */
export async function accountsPerPartition(databaseUrl: string, partitions: number, perPartition: number, tag: string): Promise<CampaignAccount[]> {
  const kept: CampaignAccount[] = [];
  const count = (p: number) => kept.filter((a) => a.partition === p).length;
  for (let i = 0; kept.length < partitions * perPartition; i += 1) {
    if (i > partitions * perPartition * 40) throw new Error('accounts do not spread over the partitions');
    const name = `${tag}-${i}`;
    const created = await createAccountKey(databaseUrl, { account: name, scopes: ['*'] });
    const partition = partitionOf(created.accountId, partitions);
    if (count(partition) < perPartition) kept.push({ name, key: created.key, accountId: created.accountId, callbackSecret: created.callbackSecret, partition });
  }
  return kept;
}

export interface CampaignOptions {
  stack: Stack;
  receiver: ReceiverProcess;
  accounts: readonly CampaignAccount[];
  /** Items per account's batch. */
  batchSize: number;
  /** The account that places voice calls (its key gets the sandbox caller number); none without a voice orchestrator. */
  voiceAccount?: CampaignAccount;
  databaseUrl: string;
}

const api = (stack: Stack, key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${stack.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** Recipients whose last two digits the sandbox delivers normally (docs/sandbox.md#sandbox-numbers: 01…06 behave otherwise). */
const recipient = (account: number, item: number) => `+4479112${String(account).padStart(3, '0')}${String(10 + item).padStart(2, '0')}`;

/**
 * Every account sends one message with an Idempotency-Key and a callback URL, replays it, and sends a batch;
 * the voice account places a call to a busy phone. Resolves once every message is delivered, every single send's
 * `message.sent` and `message.delivered` webhooks arrived signed with its account's secret, and the call ended
 * with its events delivered.
 */
export async function runCampaign({ stack, receiver, accounts, batchSize, voiceAccount, databaseUrl }: CampaignOptions): Promise<void> {
  const voiceKey = voiceAccount
    ? (await createAccountKey(databaseUrl, { account: voiceAccount.name, scopes: ['*'], numbers: [{ e164: FROM, channels: ['voice'] }] })).key
    : undefined;
  const sends = await Promise.all(
    accounts.map(async (account, a) => {
      const body = { channel: 'sms', recipient: recipient(a, 0), content: { text: `partition ${account.partition}` }, callback_url: receiver.url(`/p/${a}`) };
      const idempotencyKey = randomUUID();
      const first = await api(stack, account.key, 'POST', '/v1/messages', body, { 'idempotency-key': idempotencyKey });
      expect(first.status).toBe(202);
      const { id } = (await first.json()) as { id: string };
      const replay = await api(stack, account.key, 'POST', '/v1/messages', body, { 'idempotency-key': idempotencyKey });
      expect(replay.status).toBe(202);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(((await replay.json()) as { id: string }).id).toBe(id);
      const items = Array.from({ length: batchSize }, (_, i) => ({ recipient: recipient(a, i + 1), content: { text: `batch ${i}` } }));
      const batch = await api(stack, account.key, 'POST', '/v1/messages/batch', { channel: 'sms', messages: items }, { 'idempotency-key': randomUUID() });
      expect(batch.status).toBe(202);
      const { results } = (await batch.json()) as { results: Array<{ id: string }> };
      return { account, a, id, batchIds: results.map((r) => r.id) };
    }),
  );
  const call = voiceKey
    ? await api(stack, voiceKey, 'POST', '/v1/voice/calls', { to: callee('01'), from: FROM, callback_url: receiver.url('/call') })
    : undefined;
  if (call) expect(call.status).toBe(201);
  const callId = call ? ((await call.json()) as { call_id: string }).call_id : undefined;

  for (const { account, a, id, batchIds } of sends) {
    const events = await eventually(
      async () => receiver.received(`/p/${a}`).map((d) => verify(account.callbackSecret, d)),
      (got) => ['message.sent', 'message.delivered'].every((t) => got.some((e) => e.type === t && e.data.id === id)),
      { what: `message.sent and message.delivered of account ${account.name} (partition ${account.partition})`, timeoutMs: 90_000 },
    );
    expect(events.every((e) => e.data.id === id)).toBe(true);
    const states = await eventually(
      () => Promise.all(batchIds.map(async (m) => ((await (await api(stack, account.key, 'GET', `/v1/messages/${m}`)).json()) as { status?: string }).status)),
      (s) => s.every((status) => status === 'delivered'),
      { what: `the batch of account ${account.name} delivered`, timeoutMs: 90_000 },
    );
    expect(states).toHaveLength(batchSize);
  }
  if (voiceAccount && voiceKey && callId) {
    const ended = await eventually(
      async () => ((await (await api(stack, voiceKey, 'GET', `/v1/voice/calls/${callId}`)).json()) as { status: string }).status,
      (status) => !['ringing', 'in-progress'].includes(status),
      { what: 'the call to the busy phone to end', timeoutMs: 60_000 },
    );
    expect(ended).toBe('busy');
    await eventually(
      async () => receiver.received('/call').map((d) => verify(voiceAccount.callbackSecret, d)),
      (got) => got.some((e) => JSON.stringify(e.data).includes(callId)),
      { what: 'the call’s events delivered', timeoutMs: 60_000 },
    );
  }
}
