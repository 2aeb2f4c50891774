import { Cluster, Redis } from 'ioredis';
import { createProducerConnection, createWorkerConnection, parseClusterNodes } from '@switchboard/queues';

describe('Redis connections', () => {
  it('parses cluster seed nodes, and names the entry that is not host:port', () => {
    expect(parseClusterNodes(['10.0.0.1:6379', 'redis-1.redis:7000', '[::1]:6380'])).toEqual([
      { host: '10.0.0.1', port: 6379 },
      { host: 'redis-1.redis', port: 7000 },
      { host: '::1', port: 6380 },
    ]);
    expect(() => parseClusterNodes(['redis-1'])).toThrow('"redis-1" is not host:port');
    expect(() => parseClusterNodes(['redis-1:0'])).toThrow('"redis-1:0"');
  });

  it('connects to one node by URL, or to a cluster with the URL password on every node', () => {
    const single = createProducerConnection({ redisUrl: 'redis://127.0.0.1:1', redisClusterNodes: [] }, { lazyConnect: true });
    expect(single).toBeInstanceOf(Redis);
    single.disconnect();

    const cluster = createWorkerConnection(
      { redisUrl: 'redis://:s%40cret@ignored:6379', redisClusterNodes: ['127.0.0.1:1', '127.0.0.1:2'] },
      { lazyConnect: true },
    ) as unknown as Cluster;
    expect(cluster).toBeInstanceOf(Cluster);
    expect(cluster.options.redisOptions).toMatchObject({ password: 's@cret', maxRetriesPerRequest: null });
    cluster.disconnect();
  });
});
