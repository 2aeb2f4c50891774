// Shared bench plumbing: the local stack from @switchboard/devstack (built by `npm run build`).
import { randomUUID } from 'node:crypto';
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

/**
 * One bare send straight at the simulator for autocannon: an RBM agentMessage (rcs) or a Cloud API message (chat),
 * each to the next of `recipient(n)`, as our adapters send them.
 */
export function simSendRequest(channel, recipient) {
  let n = 0;
  if (channel === 'rcs') {
    return {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sandbox-rbm-token' },
      setupRequest: (req) => ({
        ...req,
        path: `/v1/phones/${encodeURIComponent(recipient(n++))}/agentMessages?messageId=bench-${randomUUID()}&agentId=switchboard-sandbox`,
        body: JSON.stringify({ contentMessage: { text: 'bench' } }),
      }),
    };
  }
  return {
    method: 'POST',
    path: '/v21.0/100000000000002/messages',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sandbox-chat-token' },
    setupRequest: (req) => ({
      ...req,
      body: JSON.stringify({
        messaging_product: 'whatsapp',
        to: recipient(n++).slice(1),
        type: 'text',
        text: { body: 'bench' },
        biz_opaque_callback_data: `bench-${n}`,
      }),
    }),
  };
}
