#!/usr/bin/env node
// The one test command (README, .ci/run): builds every workspace, installs/starts real PostgreSQL and a
// private Redis on loopback, then runs the unit, integration and end-to-end jest projects.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const tierIndex = args.indexOf('--tier');
const tier = tierIndex >= 0 ? args[tierIndex + 1] : undefined;
const jestArgs = args.filter((_, i) => tierIndex < 0 || (i !== tierIndex && i !== tierIndex + 1));

const build = spawnSync('npx', ['tsc', '-b', 'tsconfig.build.json'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const { ensurePostgres, startRedis } = require('../packages/devstack/dist/index.js');
if (tier !== 'unit') require('../packages/devstack/dist/index.js').ensureVoiceTools(); // baresip, SIPp, sox, flite: the telephony tests' real SIP peers
const pgUrl = await ensurePostgres();
const redis = await startRedis();
let status = 1;
try {
  const projects = tier ? ['--selectProjects', tier] : [];
  const run = spawnSync('npx', ['jest', ...projects, ...jestArgs], {
    stdio: 'inherit',
    env: { ...process.env, TEST_REDIS_URL: redis.url, TEST_DATABASE_URL: pgUrl, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  });
  status = run.status ?? 1;
} finally {
  await redis.stop();
}
process.exit(status);
