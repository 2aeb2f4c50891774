// CPU and memory of a service that may be several processes: the gateway with GATEWAY_WORKERS > 1 is a
// primary and its cluster workers (docs/running.md#gateway-workers). Read from /proc (Linux).
import { readFileSync } from 'node:fs';

/** The process and its children (one level: the cluster primary forks the workers itself). */
export function processTree(pid) {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return [pid, ...(children === '' ? [] : children.split(/\s+/).map(Number))];
  } catch {
    return [pid];
  }
}

/** CPU time (user + system) a process has used so far, in ms (clock ticks of 10 ms); 0 once it is gone. */
export function cpuMs(pid) {
  try {
    // Fields after the command name, which may hold spaces: utime and stime are fields 14 and 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * CPU used by the whole tree since `start()`: each process's own counter, so workers forked meanwhile count
 * from zero and the dead ones' last reading is kept.
 */
export function treeCpuMeter(pid) {
  const last = new Map();
  const read = () => {
    for (const p of processTree(pid)) last.set(p, cpuMs(p) || last.get(p) || 0);
    return [...last.values()].reduce((a, b) => a + b, 0);
  };
  const start = read();
  return { elapsedMs: () => read() - start };
}

/** VmRSS of one process in MB; 0 once it is gone. */
export function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

/**
 * Samples the tree's RSS every 250 ms while `run` goes on. Reports the peak of the sum, and the peak of each
 * process: `primary` (the started process) and `workers` (the largest of its children), so that a target
 * "per service" and a target "per process" can both be read.
 */
export async function measureRss(pid, run) {
  const peak = { sum: 0, primary: 0, worker: 0, processes: 0 };
  const sample = () => {
    const [primary, ...workers] = processTree(pid);
    const primaryMb = rssMb(primary);
    const workerMbs = workers.map(rssMb);
    peak.sum = Math.max(peak.sum, primaryMb + workerMbs.reduce((a, b) => a + b, 0));
    peak.primary = Math.max(peak.primary, primaryMb);
    peak.worker = Math.max(peak.worker, 0, ...workerMbs);
    peak.processes = Math.max(peak.processes, 1 + workers.length);
  };
  sample();
  const timer = setInterval(sample, 250);
  try {
    return { result: await run(), rss: { peak_sum_mb: peak.sum, peak_primary_mb: peak.primary, peak_worker_mb: peak.worker, processes: peak.processes } };
  } finally {
    clearInterval(timer);
  }
}

/** The tree's RSS now: per process and summed. */
export function treeRss(pid) {
  const [primary, ...workers] = processTree(pid);
  const workerMbs = workers.map(rssMb);
  return { sum_mb: rssMb(primary) + workerMbs.reduce((a, b) => a + b, 0), primary_mb: rssMb(primary), worker_mb: workerMbs };
}
