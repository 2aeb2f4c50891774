// Preloaded with `NODE_OPTIONS=--require <this file>` into every service a bench starts (docs/performance/memory.md#memory):
// every 250 ms it samples the process's resident set split into anonymous and file-backed memory
// (/proc/self/smaps_rollup) and process.memoryUsage(), and writes to MEMORY_PROBE_DIR/<service>-<pid>.json the
// reading 8 s after start (idle, with the count of loaded modules), the reading at the highest RSS, the GC
// pauses seen so far (count, major collections) and the process's CPU time. Other node processes ignore it.
const { readFileSync, writeFileSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');
// PerformanceObserver is node:perf_hooks' own, also a global.
const { constants } = require('node:perf_hooks');

const service = /services\/([^/]+)\/dist\/main\.js$/.exec(process.argv[1] ?? '')?.[1];
if (service && process.env.MEMORY_PROBE_DIR) {
  mkdirSync(process.env.MEMORY_PROBE_DIR, { recursive: true });
  const file = join(process.env.MEMORY_PROBE_DIR, `${service}-${process.pid}.json`);
  const started = Date.now();
  const gc = { pauses: 0, major: 0, pause_ms: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.pauses += 1;
      gc.pause_ms += entry.duration;
      if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) gc.major += 1;
    }
  }).observe({ entryTypes: ['gc'] });
  const mb = (bytes) => Math.round(bytes / 1048576);
  const rollupMb = (text, field) => Math.round(Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0) / 1024);
  let idle = null;
  let peak = { rss: 0 };
  const sample = () => {
    const rollup = readFileSync('/proc/self/smaps_rollup', 'utf8');
    const usage = process.memoryUsage();
    const rss = rollupMb(rollup, 'Rss');
    const anon = rollupMb(rollup, 'Anonymous');
    const now = {
      at_s: Math.round((Date.now() - started) / 1000),
      rss,
      anon,
      file: rss - anon,
      heap_total: mb(usage.heapTotal),
      heap_used: mb(usage.heapUsed),
      external: mb(usage.external),
      array_buffers: mb(usage.arrayBuffers),
    };
    if (!idle && Date.now() - started >= 8000) idle = { ...now, modules: Object.keys(require.cache).length };
    if (now.rss > peak.rss) peak = now;
    const cpu = process.cpuUsage();
    writeFileSync(
      file,
      JSON.stringify({
        service,
        exec_argv: process.execArgv,
        idle,
        peak,
        last: now,
        gc: { ...gc, pause_ms: Math.round(gc.pause_ms) },
        cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
      }),
    );
  };
  setInterval(sample, 250).unref();
}
