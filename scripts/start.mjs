#!/usr/bin/env node
// The one run command: builds, starts Redis (AOF appendfsync always), embedded PGlite when DATABASE_URL
// is unset, carrier-sim, the gateway and every worker as separate processes; prints the base URL and a
// demo test key, and writes .switchboard/local.json for the CLI and scripts (docs/running.md).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const root = join(import.meta.dirname, '..');
const stateDir = join(root, '.switchboard');
const localJson = join(stateDir, 'local.json');
mkdirSync(stateDir, { recursive: true });

const build = spawnSync('npx', ['tsc', '-b', 'tsconfig.build.json'], { stdio: 'inherit', cwd: root });
if (build.status !== 0) process.exit(build.status ?? 1);

const devstack = require('../packages/devstack/dist/index.js');
const cleanups = [];
let stopping = false;
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  rmSync(localJson, { force: true });
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  process.exit(code);
}
process.once('SIGINT', () => void shutdown(0));
process.once('SIGTERM', () => void shutdown(0));

try {
  let redisUrl = process.env.REDIS_URL;
  if (!redisUrl) {
    mkdirSync(join(stateDir, 'redis'), { recursive: true });
    const redis = await devstack.startRedis({ port: Number(process.env.REDIS_PORT ?? (await devstack.freePort())), dir: join(stateDir, 'redis') });
    cleanups.push(() => redis.stop());
    redisUrl = redis.url;
  }

  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const port = await devstack.freePort();
    const pglite = spawn(process.execPath, [join(root, 'packages/devstack/dist/pglite-server.js'), join(stateDir, 'pgdata'), String(port)], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    cleanups.push(async () => {
      pglite.kill('SIGTERM');
      await new Promise((r) => pglite.once('exit', r));
    });
    databaseUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
    await devstack.waitFor(async () => {
      const pg = require('pg');
      const client = new pg.Client({ connectionString: databaseUrl });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return true;
      } finally {
        await client.end().catch(() => undefined);
      }
    }, 'embedded PGlite', 120_000);
  }

  const workers = ['dispatcher', 'webhook-delivery', 'voice-orchestrator'].filter((w) => existsSync(join(root, 'services', w, 'dist', 'main.js')));
  const secretsKeys = process.env.SECRETS_ENCRYPTION_KEYS || devstack.ensureLocalSecretsKey(stateDir);
  const stack = await devstack.startStack({
    databaseUrl,
    secretsKeys,
    redisUrl,
    prefix: process.env.QUEUE_PREFIX ?? 'sb',
    gatewayPort: Number(process.env.PORT ?? 8080),
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', MEDIA_ALLOW_PRIVATE_NETWORKS: 'true' },
    workers,
  });
  cleanups.push(() => stack.stop());
  if (process.env.DEVSTACK_ECHO === undefined) {
    for (const s of Object.values(stack.services)) s.child.stdout?.pipe(process.stdout);
  }

  const demo = await devstack.createAccountKey(databaseUrl, { account: 'demo', mode: 'test', scopes: ['*'], secretsKeys });
  writeFileSync(localJson, JSON.stringify({ base_url: stack.baseUrl, sim_url: stack.simUrl, database_url: databaseUrl, redis_url: redisUrl, demo_key: demo.key }, null, 2));
  process.stdout.write(
    [
      '',
      'Switchboard is running.',
      `  Base URL:      ${stack.baseUrl}`,
      `  Demo API key:  ${demo.key}   (test key: every upstream is the carrier simulator)`,
      `  Simulator:     ${stack.simUrl}   (SMPP on 127.0.0.1:${stack.simSmppPort})`,
      `  Services:      ${Object.values(stack.services).map((s) => s.name).join(', ')}`,
      '  Webhooks:      loopback and http:// targets are ALLOWED in this local run (WEBHOOK_ALLOW_PRIVATE_NETWORKS, WEBHOOK_ALLOW_HTTP).',
      `  Try:           curl -s ${stack.baseUrl}/v1/messages -H "Authorization: Bearer ${demo.key}" -H 'Content-Type: application/json' -d '{"channel":"sms","recipient":"+447911123400","content":{"text":"Hello"}}'`,
      '  Stop:          Ctrl-C',
      '',
    ].join('\n'),
  );
} catch (error) {
  process.stderr.write(`npm start failed: ${error.stack ?? error}\n`);
  await shutdown(1);
}
