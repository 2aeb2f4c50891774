// Shared bench plumbing: the local stack from @switchboard/devstack (built by `npm run build`).
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';

const require = createRequire(import.meta.url);
export const devstack = require('../packages/devstack/dist/index.js');
export const autocannon = require('autocannon');

export function startBareExpress(port) {
  const child = spawn(process.execPath, [new URL('./bare-express.mjs', import.meta.url).pathname, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve) => child.stdout.once('data', () => resolve(child)));
}

export function runAutocannon(opts) {
  return new Promise((resolve, reject) => {
    autocannon(opts, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

export function summarise(name, result) {
  return {
    name,
    rps: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
