import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// `npm install` on a fresh clone prints no EBADENGINE and no unreviewed install script (README.md, "Test"): every
// package of the lock file supports the lowest Node that package.json's `engines` allows, and every package with
// an install script is named in `allowScripts`.
// semver is installed as a dependency of other packages, without a type package: required with the two functions used.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- semver has no types installed; the two functions used are typed here
const semver = require('semver') as { satisfies(version: string, range: string): boolean; minVersion(range: string): { version: string } | null };

const ROOT = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { name?: string; version?: string; engines?: { node?: string } | string[]; hasInstallScript?: boolean }>;
};
const nameOf = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

describe('the dependencies against package.json', () => {
  // The lowest version of each alternative of the range: `^20.19.0 || >=22.12.0` → 20.19.0 and 22.12.0.
  const lowest = manifest.engines.node.split('||').map((range) => semver.minVersion(range.trim())?.version ?? range);

  it.each(lowest)('every package supports Node %s, the lowest of an alternative of engines.node', (node) => {
    const unsupported = Object.entries(lock.packages)
      .filter(([path, pkg]) => path !== '' && !Array.isArray(pkg.engines) && pkg.engines?.node && !semver.satisfies(node, pkg.engines.node))
      .map(([path, pkg]) => `${nameOf(path)}@${pkg.version} needs node ${(pkg.engines as { node: string }).node}`);
    expect([...new Set(unsupported)]).toEqual([]);
  });

  it('names every package with an install script in allowScripts, approved or denied (README.md says why)', () => {
    const unreviewed = Object.entries(lock.packages)
      .filter(([path, pkg]) => pkg.hasInstallScript && path.includes('node_modules/') && !(nameOf(path) in (manifest.allowScripts ?? {})))
      .map(([path]) => nameOf(path));
    expect([...new Set(unreviewed)]).toEqual([]);
  });
});
