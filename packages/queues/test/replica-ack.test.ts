import type { Redis } from 'ioredis';
import { createReplicaAck, noReplicaAck } from '../src/replica-ack';

type Reply = [Error | null, unknown];

/** A pipeline stub: each exec answers the next scripted replies, after `gate` resolves. */
function stubRedis(script: Array<Reply[]>) {
  const sent: string[][] = [];
  const plainSets: string[] = [];
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  const redis = {
    pipeline() {
      const commands: string[] = [];
      const chain = {
        set: (key: string) => (commands.push(`set ${key}`), chain),
        wait: (n: number, ms: number) => (commands.push(`wait ${n} ${ms}`), chain),
        exec: async () => {
          sent.push(commands);
          await gate;
          return (
            script.shift() ?? [
              [null, 'OK'],
              [null, 1],
            ]
          );
        },
      };
      return chain;
    },
    set: (key: string) => (plainSets.push(key), Promise.resolve('OK')),
  } as unknown as Redis;
  return {
    redis,
    sent,
    plainSets,
    hold: () => {
      gate = new Promise((r) => (release = r));
    },
    release: () => release(),
  };
}

const logger = { warn: () => undefined };

describe('createReplicaAck', () => {
  it('is the no-op without REDIS_MIN_REPLICAS_ACK', () => {
    const { redis } = stubRedis([]);
    expect(createReplicaAck({ redis, keyPrefix: '{sb}', minReplicas: 0, logger })).toBe(noReplicaAck);
  });

  it('sends the marker and WAIT in one pipeline, routed by the prefix', async () => {
    const stub = stubRedis([
      [
        [null, 'OK'],
        [null, 2],
      ],
    ]);
    await createReplicaAck({ redis: stub.redis, keyPrefix: '{sb}', minReplicas: 2, logger, timeoutMs: 500 })();
    expect(stub.sent).toEqual([['set {sb}:replica-ack', 'wait 2 500']]);
  });

  it('runs one WAIT at a time; the callers arriving meanwhile share the next one', async () => {
    const stub = stubRedis([]);
    const ack = createReplicaAck({ redis: stub.redis, keyPrefix: '{sb}', minReplicas: 1, logger });
    stub.hold();
    const first = ack();
    await new Promise((r) => setImmediate(r));
    const later = [ack(), ack(), ack()];
    await new Promise((r) => setImmediate(r));
    expect(stub.sent).toHaveLength(1);
    stub.release();
    await Promise.all([first, ...later]);
    expect(stub.sent).toHaveLength(2);
  });

  it('answers 503 replication_unconfirmed when fewer replicas acknowledge, or the pipeline fails', async () => {
    const stub = stubRedis([
      [
        [null, 'OK'],
        [null, 0],
      ],
      [
        [null, 'OK'],
        [new Error('ERR WAIT cannot be used with replica instances'), null],
      ],
    ]);
    const ack = createReplicaAck({ redis: stub.redis, keyPrefix: '{sb}', minReplicas: 1, logger });
    await expect(ack()).rejects.toMatchObject({ status: 503, code: 'replication_unconfirmed' });
    await expect(ack()).rejects.toMatchObject({ status: 503, code: 'replication_unconfirmed' });
  });

  it('after a MOVED (a failover), follows it with a plain write and sends the pipeline again', async () => {
    const stub = stubRedis([
      [
        [new Error('MOVED 5499 127.0.0.1:7001'), null],
        [null, 1],
      ],
    ]);
    await createReplicaAck({ redis: stub.redis, keyPrefix: '{sb}', minReplicas: 1, logger })();
    expect(stub.plainSets).toEqual(['{sb}:replica-ack']);
    expect(stub.sent).toHaveLength(2);
  });
});
