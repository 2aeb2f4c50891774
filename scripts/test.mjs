#!/usr/bin/env node
// The one test command (README, "Test"). With no arguments it first runs the lint tier (ESLint and Prettier,
// docs/contributing.md) and stops there on a finding; a run given a tier or a path skips it. `--tier lint` runs
// only the lint; `--tier unit` runs the unit project through ts-jest alone: no build, no PostgreSQL, no Redis.
// Every other run builds every workspace, uses the PostgreSQL on 127.0.0.1:5432 or starts the embedded one in a temporary folder
// (TEST_DATABASE_URL=embedded chooses it even when 5432 answers), starts a private Redis, runs jest, and stops what it started.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const tierIndex = args.indexOf('--tier');
const tier = tierIndex >= 0 ? args[tierIndex + 1] : undefined;
const jestArgs = args.filter((_, i) => tierIndex < 0 || (i !== tierIndex && i !== tierIndex + 1));
// After the caller's arguments: --selectProjects takes every word after it as a project name.
const projects = tier ? ['--selectProjects', tier] : [];

// eslint and prettier --check, each over the whole repository; both run, so one run reports every finding.
function lint() {
  let status = 0;
  for (const [tool, ...toolArgs] of [
    ['eslint', '.'],
    ['prettier', '--check', '.', '--log-level', 'warn'],
  ]) {
    const run = spawnSync('npx', [tool, ...toolArgs], { stdio: 'inherit' });
    if (run.status !== 0) {
      process.stderr.write(`lint: ${tool} found problems; \`npm run lint:fix\` fixes what it can (docs/contributing.md)\n`);
      status = run.status ?? 1;
    }
  }
  return status;
}

function jest(env) {
  const child = spawn('npx', ['jest', ...jestArgs, ...projects], { stdio: 'inherit', env: { ...process.env, ...env } });
  // Ctrl-C reaches jest through the terminal; we wait for it, then stop our servers.
  const ignore = () => undefined;
  process.on('SIGINT', ignore);
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

if (tier === 'lint') process.exit(lint());
// A path or a test name narrows the run to some tests: that run skips the lint, as a tier does.
const targeted = jestArgs.some((arg) => !arg.startsWith('-'));
if (!tier && !targeted) {
  const lintStatus = lint();
  if (lintStatus !== 0) process.exit(lintStatus);
}
if (tier === 'unit') process.exit(await jest({}));

const build = spawnSync('npx', ['tsc', '-b', 'tsconfig.build.json'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
// The console page (docs/console.md): bundled by vite, served by the gateway at /console.
const consoleBuild = spawnSync('npm', ['run', 'build', '--silent', '-w', '@switchboard/console-web'], { stdio: 'inherit' });
if (consoleBuild.status !== 0) process.exit(consoleBuild.status ?? 1);

const { ensureChromium, ensurePostgres, ensureSdkTools, ensureVoiceTools, startRedis } = require('../packages/devstack/dist/index.js');
// Every apt package a test needs, installed here, once and one after another, when missing: test files run in
// parallel jest workers, and two apt-get runs at once would fight over dpkg's lock.
ensureVoiceTools(); // baresip, SIPp, sox, flite, pocketsphinx: the voice tests' real SIP peers, speech and audio
ensureSdkTools(); // python3, php-cli, php-curl, phpunit: the Python and PHP SDK suites
ensureChromium(); // the browser tests (/docs, the console, Bull Board)
const postgres = await ensurePostgres();
let status = 1;
try {
  const redis = await startRedis();
  try {
    status = await jest({ TEST_REDIS_URL: redis.url, TEST_DATABASE_URL: postgres.url, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  } finally {
    await redis.stop();
  }
} finally {
  await postgres.stop();
}
process.exit(status);
