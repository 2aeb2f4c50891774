import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SDK_VERSION } from '../src/version';

// Tests run from build-test/test; the sources sit two folders up. The example itself is type-checked with the tests.
const packageDir = join(__dirname, '..', '..');

test('the README quick start is examples/quick-start.ts, which compiles with the tests', () => {
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
  const example = readFileSync(join(packageDir, 'examples', 'quick-start.ts'), 'utf8');
  const block = /## Quick start[^\n]*\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.equal(block, example);
});

test('package.json publishes the build with its types and no runtime dependencies', () => {
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(pkg.name, '@switchboard/sdk');
  assert.equal(pkg.dependencies, undefined);
  assert.deepEqual((pkg.exports as Record<string, Record<string, string>>)['.'], { types: './dist/index.d.ts', default: './dist/index.js' });
  assert.ok((pkg.files as string[]).includes('dist'));
  assert.equal(SDK_VERSION, pkg.version, 'src/version.ts (the User-Agent) follows package.json');
});
