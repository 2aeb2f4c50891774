#!/usr/bin/env node
// The one run command: builds, starts Redis (AOF appendfsync always), an embedded PostgreSQL when
// DATABASE_URL is unset (docs/architecture.md, "Embedded PostgreSQL"), carrier-sim, the gateway and every
// worker as separate processes; prints the base URL and a demo test key, and writes local.json for the CLI.
// State lives in SWITCHBOARD_HOME (default <repo>/.switchboard): the cluster, Redis' AOF and local.json.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

// Whoever started us (npm's shell, or a supervisor): when it goes, the whole stack stops (docs/running.md#stopping).
const parentAtStart = process.ppid;
const require = createRequire(import.meta.url);
const root = join(import.meta.dirname, '..');
const stateDir = resolve(process.env.SWITCHBOARD_HOME ?? join(root, '.switchboard'));
const localJson = join(stateDir, 'local.json');
mkdirSync(stateDir, { recursive: true });

const build = spawnSync('npx', ['tsc', '-b', 'tsconfig.build.json'], { stdio: 'inherit', cwd: root });
if (build.status !== 0) process.exit(build.status ?? 1);
// The console page (docs/console.md): bundled by vite, served by the gateway at /console.
const consoleBuild = spawnSync('npm', ['run', 'build', '--silent', '-w', '@switchboard/console-web'], { stdio: 'inherit', cwd: root });
if (consoleBuild.status !== 0) process.exit(consoleBuild.status ?? 1);

const devstack = require('../packages/devstack/dist/index.js');
const cleanups = [];
let stopping = false;
const supervisor = devstack.superviseStack(
  (reason) => {
    process.stderr.write(`npm start: ${reason}; stopping the whole stack\n`);
    void shutdown(1);
  },
  { parent: parentAtStart },
);
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  supervisor.end();
  rmSync(localJson, { force: true });
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
process.on('SIGHUP', () => void shutdown(0));

try {
  // The voice orchestrator speaks through flite and sox and listens through pocketsphinx (docs/voice.md): installed
  // with apt when missing, with the tests' SIP peers that share the same list.
  devstack.ensureVoiceTools();
  let redisUrl = process.env.REDIS_URL;
  if (!redisUrl) {
    mkdirSync(join(stateDir, 'redis'), { recursive: true });
    const redis = await devstack.startRedis({ port: await devstack.freePort(), dir: join(stateDir, 'redis') });
    cleanups.push(() => redis.stop());
    supervisor.watch('redis-server', redis.child);
    redisUrl = redis.url;
  }

  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const postgres = await devstack.startEmbeddedPostgres({ dataDir: join(stateDir, 'postgres') });
    cleanups.push(() => postgres.stop());
    supervisor.watch('postgres', postgres.child);
    databaseUrl = postgres.url;
  }

  const workers = ['dispatcher', 'webhook-delivery', 'voice-orchestrator'];
  // `npm start -- --https`: a self-signed certificate kept in the state dir (docs/running.md#https).
  const https = process.argv.includes('--https');
  const gatewayTls = https ? devstack.ensureLocalCertificate(stateDir) : undefined;
  const secretsKeys = process.env.SECRETS_ENCRYPTION_KEYS || devstack.ensureLocalSecretsKey(stateDir);
  const stack = await devstack.startStack({
    databaseUrl,
    secretsKeys,
    redisUrl,
    prefix: process.env.QUEUE_PREFIX ?? '{sb}',
    gatewayPort: Number(process.env.PORT ?? 8080),
    gatewayTls,
    // The services' stdout is our pipe, never a TTY: they write readable lines only when ours is one.
    env: {
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      LOG_FORMAT: process.env.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json'),
      // The local stack's webhook receivers and media are plain http on this machine (docs/webhooks.md#target-guard-ssrf).
      TARGET_ALLOW_HTTP: 'true',
      TARGET_ALLOW_PRIVATE_NETWORKS: 'true',
    },
    workers,
    echo: true,
  });
  cleanups.push(() => stack.stop());
  for (const s of Object.values(stack.services)) supervisor.watch(s.name, s.child);

  // The demo account owns a number on every channel, so docs/voice.md's walk-through and the Postman collection run
  // with the demo key as printed.
  const demo = await devstack.createDemoAccount(databaseUrl, { secretsKeys });
  const demoUser = await devstack.createConsoleUser(databaseUrl, {
    account: 'demo',
    email: 'demo@example.com',
    role: 'owner',
    baseUrl: stack.baseUrl,
    secretsKeys,
  });
  writeFileSync(
    localJson,
    JSON.stringify(
      { base_url: stack.baseUrl, sim_url: stack.simUrl, database_url: databaseUrl, redis_url: redisUrl, demo_key: demo.key, ca_file: gatewayTls?.certFile },
      null,
      2,
    ),
  );
  process.stdout.write(
    [
      '',
      'Switchboard is running.',
      `  Base URL:      ${stack.baseUrl}`,
      `  Demo API key:  ${demo.key}   (test key: every upstream is the carrier simulator)`,
      `  Demo number:   ${devstack.DEMO_NUMBER}   (the demo account's number for chat, SMS, RCS and voice: docs/voice.md#walk-through)`,
      `  Console:       ${demoUser.sign_in_url}   (one-time sign-in link for demo@example.com, owner; choose a password there)`,
      `  Simulator:     ${stack.simUrl}   (SMPP on 127.0.0.1:${stack.simSmppPort})`,
      `  Services:      ${Object.values(stack.services)
        .map((s) => s.name)
        .join(', ')}`,
      '  Webhooks:      loopback and http:// targets are ALLOWED in this local run (TARGET_ALLOW_PRIVATE_NETWORKS, TARGET_ALLOW_HTTP).',
      ...(gatewayTls ? [`  Certificate:   ${gatewayTls.certFile}   (self-signed for localhost and 127.0.0.1; trust it with --cacert)`] : []),
      `  Try:           curl -s ${gatewayTls ? `--cacert ${gatewayTls.certFile} ` : ''}${stack.baseUrl}/v1/messages -H "Authorization: Bearer ${demo.key}" -H 'Content-Type: application/json' -d '{"channel":"sms","recipient":"+447911123400","content":{"text":"Hello"}}'`,
      `  API reference: ${stack.baseUrl}/docs   (the OpenAPI document: ${stack.baseUrl}/v1/openapi.json)`,
      `  State:         ${stateDir}   (SWITCHBOARD_HOME: PostgreSQL's cluster, Redis' AOF, local.json; kept between runs)`,
      `  CLI:           SWITCHBOARD_HOME=${stateDir} npx switchboard keys create --account demo --test   (another shell needs this same SWITCHBOARD_HOME)`,
      '  Stop:          Ctrl-C, or SIGTERM or SIGINT to npm or to any process of the stack (docs/running.md#stopping)',
      '',
    ].join('\n'),
  );
} catch (error) {
  process.stderr.write(`npm start failed: ${error.stack ?? error}\n`);
  await shutdown(1);
}
