import { partitioned, partitionOf, partitionPrefixes, publishEventsByAccount, queuePartitions, servedPartitions } from '@switchboard/queues';

describe('queue partitions', () => {
  it('keep the prefix as it is for one partition, so that QUEUE_PARTITIONS=1 writes the same keys as before', () => {
    expect(partitionPrefixes('{sb}', 1)).toEqual(['{sb}']);
    expect(partitionPrefixes('sb1234', 1)).toEqual(['sb1234']);
  });

  it('give each partition its own hash tag, built from the prefix’s first tag', () => {
    expect(partitionPrefixes('{sb}', 3)).toEqual(['{sb:0}', '{sb:1}', '{sb:2}']);
    expect(partitionPrefixes('app{sbx}:q', 2)).toEqual(['app{sbx:0}:q', 'app{sbx:1}:q']);
    expect(partitionPrefixes('sb1234', 2)).toEqual(['sb1234:0', 'sb1234:1']);
  });

  it('refuse a count that is not a whole number from 1 to the maximum', () => {
    for (const bad of [0, -1, 1.5, 65, Number.NaN]) expect(() => partitionPrefixes('{sb}', bad)).toThrow(/queue partitions/);
  });

  it('map an account by 32-bit FNV-1a of its id: the published vectors, so the mapping never drifts', () => {
    // FNV-1a test vectors: "a" → 0xe40c292c, "foobar" → 0xbf9cf968.
    expect(partitionOf('a', 1_000_000_007)).toBe(0xe40c292c % 1_000_000_007);
    expect(partitionOf('foobar', 1_000_000_007)).toBe(0xbf9cf968 % 1_000_000_007);
    expect(partitionOf('acc_anything', 1)).toBe(0);
  });

  it('spread many accounts over every partition', () => {
    const counts = [0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 6_000; i += 1) counts[partitionOf(`acc_${i.toString(36)}`, 6)] += 1;
    for (const count of counts) expect(count).toBeGreaterThan(800);
  });

  it('serve every partition by default, or the listed ones, and name an index out of range', () => {
    const all = queuePartitions('{sb}', 3);
    expect(servedPartitions(all, []).map((p) => p.prefix)).toEqual(['{sb:0}', '{sb:1}', '{sb:2}']);
    expect(servedPartitions(all, [0, 2]).map((p) => p.index)).toEqual([0, 2]);
    expect(() => servedPartitions(all, [3])).toThrow('partition 3 is not one of 0..2');
  });

  it('pick the part of an account’s partition', () => {
    const parts = partitioned(queuePartitions('{sb}', 4), (p) => p.prefix);
    const account = 'acc_one';
    expect(parts.forAccount(account)).toBe(`{sb:${partitionOf(account, 4)}}`);
    expect(parts.at(3)).toBe('{sb:3}');
  });

  it('publish each event through its account’s partition, one call per partition', async () => {
    const calls: Array<{ partition: number; ids: string[] }> = [];
    const parts = [0, 1, 2].map(
      (partition) => async (events: ReadonlyArray<{ id: string; account_id: string }>) => void calls.push({ partition, ids: events.map((e) => e.id) }),
    );
    const accounts = ['acc_a', 'acc_b', 'acc_c', 'acc_d', 'acc_e'];
    await publishEventsByAccount({ parts })(accounts.map((account_id, i) => ({ id: `evt_${i}`, account_id })));
    expect(calls.flatMap((c) => c.ids).sort()).toEqual(['evt_0', 'evt_1', 'evt_2', 'evt_3', 'evt_4']);
    for (const call of calls) {
      expect(call.ids.every((id) => partitionOf(accounts[Number(id.slice(4))], 3) === call.partition)).toBe(true);
    }
    expect(new Set(calls.map((c) => c.partition)).size).toBe(calls.length);
  });
});
