#!/usr/bin/env node
// Builds the console page (docs/console.md#building-and-serving): type-checks, then `vite build` into dist/.
// Skipped when dist/ was built from the same sources: `npm start` and `npm test` call this on every run, and an
// e2e test that runs `npm start` must not empty dist/ under a gateway that another test is serving it from.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const here = import.meta.dirname;
const stampFile = join(here, 'dist', '.build-stamp');

function files(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

const hash = createHash('sha256');
for (const file of ['src', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package.json'].flatMap((p) => files(join(here, p)))) {
  hash.update(relative(here, file)).update('\0').update(readFileSync(file)).update('\0');
}
const stamp = hash.digest('hex');

if (existsSync(join(here, 'dist', 'index.html')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
  process.stdout.write('console-web: dist/ is up to date\n');
  process.exit(0);
}
for (const [command, args] of [
  ['tsc', ['-p', 'tsconfig.json']],
  ['vite', ['build', '--logLevel', 'warn']],
]) {
  const run = spawnSync('npx', ['--no-install', command, ...args], { cwd: here, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
writeFileSync(stampFile, stamp);
process.stdout.write('console-web: built dist/\n');
