import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QueueKeys } from 'bullmq';
import { partitionPrefixes, PARTITIONED_QUEUES } from '@switchboard/queues';
import { EnvReader, readCommonConfig } from '@switchboard/runtime';
import { ALL_QUEUES, WORKER_QUEUES, renderChart, TEST_VALUES, type KubeObject } from '../src';
import { byComponent, ofKind, type Loose } from './chart-objects';

let objects: KubeObject[];
const prefixOf = (rendered: KubeObject[]) => ofKind(rendered, 'ConfigMap')[0].data.QUEUE_PREFIX as string;

beforeAll(() => {
  objects = renderChart({ valuesFiles: [TEST_VALUES] });
});

describe('KEDA ScaledObjects', () => {
  it('scale each worker on exactly the queues it consumes, and every queue of packages/queues is scaled on', () => {
    const scaled: string[] = [];
    for (const [worker, queues] of Object.entries(WORKER_QUEUES)) {
      const triggers: Loose[] = byComponent(objects, 'ScaledObject', worker).spec.triggers;
      const named = new Set(triggers.map((t) => t.metadata.listName.split(':').slice(-2)[0]));
      expect([...named].sort()).toEqual([...queues].sort());
      scaled.push(...named);
    }
    expect(scaled.sort()).toEqual([...ALL_QUEUES].sort());
  });

  it("count each queue's wait list and prioritized zset under the services' own key prefix, as BullMQ names them", () => {
    const prefix = prefixOf(objects);
    expect(prefix).toBe(readCommonConfig(new EnvReader({ DATABASE_URL: 'postgres://x' })).queuePrefix);
    const keys = new QueueKeys(prefix);
    for (const [worker, queues] of Object.entries(WORKER_QUEUES)) {
      const listNames = byComponent(objects, 'ScaledObject', worker).spec.triggers.map((t: Loose) => t.metadata.listName);
      expect(listNames.sort()).toEqual(queues.flatMap((q) => [keys.toKey(q, 'wait'), keys.toKey(q, 'prioritized')]).sort());
    }
  });

  it('follow a changed prefix (a Redis Cluster hash tag) in the services and the triggers alike', () => {
    // In a values file, as an operator would write it: `--set` reads braces as a list.
    const file = join(mkdtempSync(join(tmpdir(), 'sb-chart-')), 'values.yaml');
    writeFileSync(file, 'queuePrefix: "{sb}"\n');
    const tagged = renderChart({ valuesFiles: [TEST_VALUES, file] });
    expect(prefixOf(tagged)).toBe('{sb}');
    const triggers: Loose[] = byComponent(tagged, 'ScaledObject', 'dispatcher').spec.triggers;
    expect(triggers.every((t) => t.metadata.listName.startsWith('{sb}:'))).toBe(true);
  });

  // The chart's shared queues (scaledobjects.yaml) must be exactly the queues packages/queues keeps under the shared tag: any other list fails here.
  it('count every partition’s backlog with queuePartitions above 1, under the prefixes the services use', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sb-chart-')), 'values.yaml');
    writeFileSync(file, 'queuePartitions: 3\n');
    const partitioned = renderChart({ valuesFiles: [TEST_VALUES, file] });
    expect(ofKind(partitioned, 'ConfigMap')[0].data.QUEUE_PARTITIONS).toBe('3');
    const prefixes = partitionPrefixes(prefixOf(partitioned), 3);
    for (const [worker, queues] of Object.entries(WORKER_QUEUES)) {
      const spec = byComponent(partitioned, 'ScaledObject', worker).spec;
      const listNames = spec.triggers.map((t: Loose) => t.metadata.listName);
      const expected = queues.flatMap((q) =>
        (PARTITIONED_QUEUES.includes(q) ? prefixes : [prefixOf(partitioned)]).flatMap((prefix) => {
          const keys = new QueueKeys(prefix);
          return [keys.toKey(q, 'wait'), keys.toKey(q, 'prioritized')];
        }),
      );
      expect(listNames.sort()).toEqual(expected.sort());
      expect(spec.advanced.scalingModifiers.formula.split(' + ').sort()).toEqual(spec.triggers.map((t: Loose) => t.name).sort());
    }
  });

  it('sum every trigger of a worker into one backlog per replica, and never scale a worker to zero', () => {
    for (const worker of Object.keys(WORKER_QUEUES)) {
      const spec = byComponent(objects, 'ScaledObject', worker).spec;
      const names = spec.triggers.map((t: Loose) => t.name);
      expect(spec.advanced.scalingModifiers.formula.split(' + ').sort()).toEqual([...names].sort());
      expect(spec.advanced.scalingModifiers.metricType).toBe('AverageValue');
      expect(spec.minReplicaCount).toBeGreaterThanOrEqual(1);
      for (const trigger of spec.triggers) {
        expect(trigger.type).toBe('redis');
        expect(trigger.authenticationRef).toEqual({ name: 'sb-switchboard-redis' });
      }
    }
    expect(ofKind(objects, 'TriggerAuthentication')[0].spec.secretTargetRef).toEqual([{ parameter: 'password', name: 'redis-auth', key: 'password' }]);
  });

  it('use the redis-cluster scaler with its address list when Redis is a cluster', () => {
    const cluster = renderChart({ valuesFiles: [TEST_VALUES], set: { 'keda.redis.type': 'redis-cluster', 'keda.redis.address': 'r-0:6379\\,r-1:6379' } });
    const trigger = byComponent(cluster, 'ScaledObject', 'webhook-delivery').spec.triggers[0];
    expect(trigger.type).toBe('redis-cluster');
    expect(trigger.metadata).toMatchObject({ addresses: 'r-0:6379,r-1:6379' });
    expect(trigger.metadata.address).toBeUndefined();
  });
});
