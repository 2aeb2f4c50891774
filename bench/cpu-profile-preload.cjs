// Preloaded with `NODE_OPTIONS=--require` into a service a bench starts (node refuses --cpu-prof in
// NODE_OPTIONS): profiles the whole process life and writes a .cpuprofile into CPU_PROFILE_DIR at exit.
const inspector = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const session = new inspector.Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.start');
process.on('exit', () => {
  // The main thread's session answers synchronously, so the profile is written before the process ends.
  session.post('Profiler.stop', (error, result) => {
    if (!error) writeFileSync(join(process.env.CPU_PROFILE_DIR, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
  });
});
