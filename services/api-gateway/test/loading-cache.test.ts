import { createLoadingCache } from '../src/support/loading-cache';

describe('loading cache', () => {
  it('serves a value until its TTL passes, then loads again', async () => {
    let now = 0;
    let loads = 0;
    const get = createLoadingCache({ load: async (k) => `${k}:${++loads}`, ttlMs: 1000, clock: () => now });
    expect(await get('a')).toBe('a:1');
    now = 999;
    expect(await get('a')).toBe('a:1');
    now = 1000;
    expect(await get('a')).toBe('a:2');
  });

  it('shares one load between concurrent misses and does not cache failures', async () => {
    let loads = 0;
    let fail = true;
    const get = createLoadingCache({
      load: async () => {
        loads += 1;
        if (fail) throw new Error('down');
        return 'ok';
      },
      ttlMs: 1000,
    });
    await expect(Promise.all([get('k'), get('k'), get('k')])).rejects.toThrow('down');
    expect(loads).toBe(1);
    fail = false;
    expect(await get('k')).toBe('ok');
    expect(loads).toBe(2);
  });

  it('keeps at most maxEntries keys', async () => {
    let loads = 0;
    const get = createLoadingCache({ load: async (k) => `${k}${++loads}`, ttlMs: 60_000, maxEntries: 2 });
    await get('a');
    await get('b');
    await get('c');
    expect(await get('c')).toBe('c3');
    expect(await get('a')).toBe('a4');
  });
});
