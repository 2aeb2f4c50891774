// 10,000 fuzzed requests (bodies, headers, ids, queries) against a live gateway: no answer may be a 5xx
// (docs/errors.md: bad input gets a 4xx problem naming the field). CHAOS_FUZZ_SEED reruns one sequence.
import { randomInt } from 'node:crypto';
import { fuzzedRequests } from '../fuzz-requests.mjs';
import { startWorld } from '../lib.mjs';

export const name = 'fuzz';
export const target = '0 5xx of 10,000 fuzzed requests';
const COUNT = Number(process.env.CHAOS_FUZZ_COUNT ?? 10_000);
const CONCURRENCY = 16;

export async function run({ postgresUrl }) {
  const seed = Number(process.env.CHAOS_FUZZ_SEED ?? randomInt(2 ** 31));
  const world = await startWorld({ postgresUrl, workers: [] });
  try {
    const requests = fuzzedRequests({ key: world.key, count: COUNT, seed });
    const byClass = new Map();
    const serverErrors = [];
    const notProblem = [];
    let unsendable = 0;
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const r = requests[next++];
        let res;
        try {
          res = await fetch(`${world.stack.baseUrl}${r.path}`, { method: r.method, headers: r.headers, body: r.body });
        } catch (error) {
          // fetch refuses some inputs itself (invalid header values); the gateway never saw those.
          if (error instanceof TypeError && !error.cause) unsendable += 1;
          else serverErrors.push({ method: r.method, path: r.path.slice(0, 200), error: error.cause?.code ?? error.message });
          continue;
        }
        const body = await res.text();
        const cls = `${String(res.status)[0]}xx`;
        byClass.set(cls, (byClass.get(cls) ?? 0) + 1);
        if (res.status >= 500)
          serverErrors.push({
            method: r.method,
            path: r.path.slice(0, 200),
            headers: r.headers,
            body: r.body?.slice(0, 300),
            status: res.status,
            answer: body.slice(0, 300),
          });
        else if (res.status >= 400 && !(res.headers.get('content-type') ?? '').startsWith('application/problem+json'))
          notProblem.push({ method: r.method, path: r.path.slice(0, 120), status: res.status });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const classes = [...byClass]
      .sort()
      .map(([c, n]) => `${n}×${c}`)
      .join(', ');
    return {
      ok: serverErrors.length === 0 && byClass.size > 0,
      figure: `${serverErrors.length} 5xx or dropped of ${requests.length - unsendable} sent (${classes}; ${notProblem.length} 4xx not problem+json; seed ${seed})`,
      details: { seed, sent: requests.length - unsendable, unsendable, server_errors: serverErrors.slice(0, 10), not_problem: notProblem.slice(0, 10) },
    };
  } finally {
    await world.stop();
  }
}
