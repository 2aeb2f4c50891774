// Preloaded with NODE_OPTIONS=--require (which refuses --cpu-prof): profiles the whole process and writes
// <BENCH_PROFILE_DIR>/<service>-<pid>.cpuprofile when it exits, for `node bench/dispatch.mjs` runs.
const inspector = require('node:inspector');
const fs = require('node:fs');
const path = require('node:path');

const session = new inspector.Session();
session.connect();
session.post('Profiler.enable', () => session.post('Profiler.start'));
let written = false;
process.on('exit', () => {
  if (written) return;
  written = true;
  // The inspector answers synchronously within the same thread once the profiler is running.
  session.post('Profiler.stop', (error, result) => {
    if (error) return;
    const name = path.basename(path.dirname(path.dirname(process.argv[1] ?? 'node')));
    fs.writeFileSync(path.join(process.env.BENCH_PROFILE_DIR, `${name}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
  });
});
