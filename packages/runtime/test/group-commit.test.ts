import { createGroupCommit } from '../src/group-commit';

/** A write whose completion the test controls, recording the groups it was given. */
function controlledWrites() {
  const groups: string[][] = [];
  const release: Array<() => void> = [];
  const writeMany = (key: string, inputs: string[]) => {
    groups.push([key, ...inputs]);
    return new Promise<string[]>((resolve) => release.push(() => resolve(inputs.map((input) => `${input}!`))));
  };
  return { groups, release, writeMany };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

it('writes a lone input at once, and gathers those arriving meanwhile into the next group, in order', async () => {
  const { groups, release, writeMany } = controlledWrites();
  const write = createGroupCommit({ writeMany, maxGroup: 10 });
  const first = write('rcs', 'a');
  const rest = [write('rcs', 'b'), write('rcs', 'c')];
  await turn();
  expect(groups).toEqual([['rcs', 'a']]);
  release.shift()?.();
  await expect(first).resolves.toBe('a!');
  await turn();
  expect(groups).toEqual([['rcs', 'a'], ['rcs', 'b', 'c']]);
  release.shift()?.();
  await expect(Promise.all(rest)).resolves.toEqual(['b!', 'c!']);
});

it('keeps keys apart and caps a group at maxGroup', async () => {
  const { groups, release, writeMany } = controlledWrites();
  const write = createGroupCommit({ writeMany, maxGroup: 2 });
  const all = [write('chat', 'a'), write('rcs', 'x'), write('chat', 'b'), write('chat', 'c'), write('chat', 'd')];
  for (let i = 0; i < 4; i += 1) {
    await turn();
    release.splice(0).forEach((go) => go());
  }
  await expect(Promise.all(all)).resolves.toEqual(['a!', 'x!', 'b!', 'c!', 'd!']);
  expect(groups).toEqual([['chat', 'a'], ['rcs', 'x'], ['chat', 'b', 'c'], ['chat', 'd']]);
});

it('retries each input of a failed group alone when writeOne is given, so one bad input fails only its caller', async () => {
  let unblock: () => void = () => undefined;
  const write = createGroupCommit({
    writeMany: async (_key: string, inputs: string[]): Promise<string[]> => {
      throw new Error(`group of ${inputs.length} refused`);
    },
    // A group of one goes through writeOne too: the first input holds the key until the test unblocks it.
    writeOne: async (_key: string, input: string) => {
      if (input === 'first') await new Promise<void>((resolve) => (unblock = resolve));
      if (input === 'bad') throw new Error('bad input');
      return `${input} alone`;
    },
    maxGroup: 5,
  });
  const first = write('k', 'first');
  const later = [write('k', 'good'), write('k', 'bad')];
  await turn();
  unblock();
  await expect(first).resolves.toBe('first alone');
  const settled = await Promise.allSettled(later);
  expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual(['good alone', 'bad input']);
});
