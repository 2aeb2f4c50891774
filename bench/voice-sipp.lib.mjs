// SIPp (sip-tester) as the callee of the voice bench's concurrency part: one UAS process that answers every call
// with PCMU and echoes the RTP it gets (-rtp_echo), the scenario the telephony package's own tests use. Plus the
// orchestrator's CPU time and peak RSS, read from /proc (Linux only).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createSocket } from 'node:dgram';
import { fileURLToPath } from 'node:url';

const SCENARIO = fileURLToPath(new URL('../packages/telephony/test/sipp/answer-echo.xml', import.meta.url));

/** A UDP port nothing is bound to on 127.0.0.1 right now. */
export async function freeUdpPort() {
  const socket = createSocket('udp4');
  await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise((resolve) => socket.close(resolve));
  return port;
}

/** Starts SIPp answering any number of calls on 127.0.0.1:<port>; its RTP echo listens on a port of its own. */
export async function startSippEcho() {
  const port = await freeUdpPort();
  const mediaPort = await freeUdpPort();
  const child = spawn(
    'sipp',
    ['-sf', SCENARIO, '-i', '127.0.0.1', '-p', String(port), '-mi', '127.0.0.1', '-mp', String(mediaPort), '-rtp_echo', '-nostdin', '-max_socket', '2048'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let errors = '';
  child.stderr.on('data', (chunk) => (errors = (errors + chunk).slice(-4000)));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // SIPp binds at once; give it a moment and make sure it did not exit on a bad argument.
  const early = await Promise.race([exited.then((code) => ({ code })), new Promise((resolve) => setTimeout(resolve, 500))]);
  if (early) throw new Error(`sipp exited ${early.code}: ${errors}`);
  return {
    port,
    pid: child.pid,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU seconds (user + system) a process has used so far, and its peak resident set in MiB. */
export function processUsage(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpuSeconds, peakRssMiB: hwm ? Math.round(Number(hwm[1]) / 1024) : null };
}

/** Percentile of a histogram { ms: count } of frame lateness. */
export function histogramPercentile(histogram, p) {
  const entries = Object.entries(histogram)
    .map(([ms, n]) => [Number(ms), n])
    .sort((a, b) => a[0] - b[0]);
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  let seen = 0;
  for (const [ms, n] of entries) {
    seen += n;
    if (seen >= (p / 100) * total) return ms;
  }
  return null;
}
