import {
  DEFAULT_QUEUE_PREFIX,
  EnvReader,
  hasHashTag,
  MetricsRegistry,
  readCommonConfig,
  RETIRED_SETTINGS,
  readUnitPrices,
  retiredSettingProblems,
} from '@switchboard/runtime';

const read = (env: Record<string, string>) => {
  const reader = new EnvReader({ DATABASE_URL: 'postgres://x', ...env });
  return { config: readCommonConfig(reader), problems: reader.problems };
};

describe('shared Redis settings', () => {
  it('default to one node and a hash-tagged prefix', () => {
    const { config, problems } = read({});
    expect(config.redisClusterNodes).toEqual([]);
    expect(config.queuePrefix).toBe(DEFAULT_QUEUE_PREFIX);
    expect(hasHashTag(config.queuePrefix)).toBe(true);
    expect(config.otlpTracesUrl).toBeUndefined();
    expect(problems).toEqual([]);
  });

  it('read the cluster nodes, and refuse a cluster with an untagged prefix or a bad node', () => {
    expect(read({ REDIS_CLUSTER_NODES: 'a:1, b:2' }).config.redisClusterNodes).toEqual(['a:1', 'b:2']);
    expect(read({ REDIS_CLUSTER_NODES: 'a:1', QUEUE_PREFIX: 'sb' }).problems).toEqual([expect.stringContaining('QUEUE_PREFIX "sb" needs a hash tag')]);
    expect(read({ REDIS_CLUSTER_NODES: 'a:1,b', QUEUE_PREFIX: '{sb}' }).problems).toEqual(['REDIS_CLUSTER_NODES: "b" is not host:port']);
    // One node ignores the braces: an old untagged prefix still works there.
    expect(read({ QUEUE_PREFIX: 'sb' }).problems).toEqual([]);
  });

  it.each([
    ['{sb}', true],
    ['{sb}:x', true],
    ['app:{sb}', true],
    ['sb', false],
    ['{}sb', false],
    ['sb}{', false],
  ])('hash tag in %j: %s', (prefix, tagged) => expect(hasHashTag(prefix)).toBe(tagged));
});

describe('queue partition settings', () => {
  it('default to one partition, served whole', () => {
    expect(read({}).config).toMatchObject({ queuePartitions: 1, servePartitions: [] });
  });

  it('read the partitions a worker serves, and name an index that is not below QUEUE_PARTITIONS', () => {
    expect(read({ QUEUE_PARTITIONS: '6', SERVE_PARTITIONS: '2, 0,2' }).config).toMatchObject({ queuePartitions: 6, servePartitions: [0, 2] });
    expect(read({ QUEUE_PARTITIONS: '3', SERVE_PARTITIONS: '1,3,x' }).problems).toEqual([
      'SERVE_PARTITIONS: "3,x" is not a partition index below QUEUE_PARTITIONS (3)',
    ]);
    expect(read({ QUEUE_PARTITIONS: '0' }).problems).toEqual([expect.stringContaining('QUEUE_PARTITIONS must be an integer in 1..64')]);
  });
});

describe('tracing settings', () => {
  it('are one variable: an OTLP endpoint turns tracing on, and its traces path follows the OpenTelemetry convention', () => {
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318/' })).toEqual({
      config: expect.objectContaining({ otlpTracesUrl: 'http://otel:4318/v1/traces' }),
      problems: [],
    });
    expect(read({}).config.otlpTracesUrl).toBeUndefined();
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'otel:4318' }).problems).toEqual([
      expect.stringContaining('OTEL_EXPORTER_OTLP_ENDPOINT: "otel:4318/v1/traces" is not an http(s) URL'),
    ]);
    expect(read({ TRACING_ENABLED: 'true' }).problems).toEqual([expect.stringMatching(/^TRACING_ENABLED is no longer read; use OTEL_EXPORTER_OTLP_ENDPOINT/)]);
  });
});

describe('MetricsRegistry', () => {
  it('gives the same metric for the same name, and refreshes collectors before a scrape', async () => {
    const registry = new MetricsRegistry();
    expect(registry.counter('a_total', 'A')).toBe(registry.counter('a_total', 'A'));
    const depth = registry.gauge('depth', 'D');
    let calls = 0;
    registry.onCollect(async () => depth.set({ queue: 'q' }, ++calls));
    registry.onCollect(async () => {
      throw new Error('redis down');
    });
    expect(await registry.collect(10_000)).toContain('depth{queue="q"} 1');
    // A burst of scrapes shares one collection.
    expect(await Promise.all([registry.collect(10_500), registry.collect(10_900)])).toEqual([
      expect.stringContaining('depth{queue="q"} 1'),
      expect.stringContaining('depth{queue="q"} 1'),
    ]);
    expect(await registry.collect(11_000)).toContain('depth{queue="q"} 2');
    expect(registry.render().match(/# TYPE a_total/g)).toHaveLength(1);
  });
});

describe('retired settings', () => {
  it('are refused, each naming its replacement, so a deployment does not run on a default it did not choose', () => {
    expect(read({ MIGRATE_ON_START: 'false', WEBHOOK_ALLOW_HTTP: 'true', SMPP_HOST: 'smsc' }).problems).toEqual([
      expect.stringMatching(/^MIGRATE_ON_START is no longer read; use nothing/),
      expect.stringMatching(/^SMPP_HOST is no longer read; use SMS_UPSTREAMS/),
      expect.stringMatching(/^WEBHOOK_ALLOW_HTTP is no longer read; use TARGET_ALLOW_HTTP/),
    ]);
    expect(retiredSettingProblems({ HEALTH_PORT: '' })).toEqual([]);
    // A replacement is never itself retired.
    for (const replacement of Object.values(RETIRED_SETTINGS)) {
      for (const name of replacement.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? []) expect(RETIRED_SETTINGS[name]).toBeUndefined();
    }
  });
});

describe('UNIT_PRICES', () => {
  it('is one price list: a channel left out costs 1, and a bad pair is named', () => {
    const prices = (UNIT_PRICES?: string) => {
      const reader = new EnvReader(UNIT_PRICES === undefined ? {} : { UNIT_PRICES });
      return { prices: readUnitPrices(reader), problems: reader.problems };
    };
    expect(prices()).toEqual({ prices: { chat: 1, rcs: 1, sms: 1 }, problems: [] });
    expect(prices('sms=3, chat=0').prices).toEqual({ chat: 0, rcs: 1, sms: 3 });
    expect(prices('voice=2').problems).toEqual([expect.stringContaining('"voice=2" does not name chat, rcs or sms')]);
    expect(prices('sms=-1').problems).toEqual([expect.stringContaining('"sms=-1" is not a whole number')]);
  });
});
