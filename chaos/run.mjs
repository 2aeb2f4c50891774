// The chaos suite (docs/operations.md#chaos-suite): each case starts its own world of real processes, puts it
// under a steady load, injects one fault and prints its figure. Exits non-zero when a case misses its target.
// Usage: npm run chaos [-- [--echo] <case>...]   (cases: see CASES below; all by default; --echo shows the services' output)
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devstack, lastWorldDiagnosis, log } from './lib.mjs';

const CASES = ['redis-kill', 'redis-failover', 'dispatcher-kill', 'chunk-kill', 'gateway-sigterm', 'postgres-restart', 'webhook-outage', 'fuzz'];
const CASE_TIMEOUT_MS = 4 * 60_000;

const wanted = process.argv.slice(2).filter((arg) => arg !== '--echo');
const unknown = wanted.filter((c) => !CASES.includes(c));
if (unknown.length > 0) {
  console.error(`unknown case(s): ${unknown.join(', ')}; known: ${CASES.join(', ')}`);
  process.exit(2);
}

const postgres = await devstack.ensurePostgres();
const rows = [];
try {
  for (const caseName of wanted.length > 0 ? wanted : CASES) {
    const chaosCase = await import(`./cases/${caseName}.mjs`);
    log(`${caseName}: ${chaosCase.target}`);
    const started = Date.now();
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no result after ${CASE_TIMEOUT_MS / 1000} s`)), CASE_TIMEOUT_MS);
    });
    let row;
    try {
      const result = await Promise.race([chaosCase.run({ postgresUrl: postgres.url }), timeout]);
      row = { case: caseName, ok: result.ok, figure: result.figure, target: chaosCase.target, details: result.details };
    } catch (error) {
      row = { case: caseName, ok: false, figure: `error: ${error.message}`, target: chaosCase.target };
    } finally {
      clearTimeout(timer);
    }
    row.seconds = Math.round((Date.now() - started) / 1000);
    if (!row.ok) {
      // The services' own account of the failure (their output is kept at LOG_LEVEL, warn by default).
      // Errors and the shutdown steps on stderr, the whole output in a file.
      const folder = mkdtempSync(join(tmpdir(), `sb-chaos-${caseName}-`));
      for (const p of lastWorldDiagnosis()) {
        const file = join(folder, `${p.service}-${p.pid}.log`);
        writeFileSync(file, p.logs);
        const notable = p.logs
          .split('\n')
          .filter((l) => /"level":"error"|uncaught|unhandled|shutdown|failed to start/i.test(l))
          .slice(-15);
        log(
          `${caseName}: ${p.service} pid ${p.pid} ${p.exit === 'running' ? 'was running' : `had exited (${p.exit})`}; output in ${file}${notable.length ? `; notable lines:\n${notable.join('\n')}` : ''}`,
        );
      }
    }
    rows.push(row);
    console.log(JSON.stringify({ chaos: row.case, ok: row.ok, figure: row.figure, target: row.target, seconds: row.seconds, details: row.details }));
  }
} finally {
  await postgres.stop();
}

console.log('');
for (const r of rows) console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.case.padEnd(17)} ${r.figure}  [target: ${r.target}; ${r.seconds} s]`);
const failed = rows.filter((r) => !r.ok);
console.log(failed.length === 0 ? `\nchaos: all ${rows.length} cases at target` : `\nchaos: ${failed.length} of ${rows.length} cases missed their target`);
process.exit(failed.length === 0 ? 0 : 1);
