import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeUdpPort } from '../../src/sip/udp-port.probe';

export interface SippProcess {
  port: number;
  /** SIPp's exit code: 0 when its one call followed the scenario, 1 when it failed. */
  exited: Promise<number>;
  output(): string;
  stop(): Promise<void>;
}

const SCENARIOS = join(__dirname, '..', 'sipp');

/** Waits until something holds the UDP port: SIPp is listening. */
async function waitForUdpListener(address: string, port: number): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const taken = await probeUdpPort(address, port).then(
      () => false,
      () => true,
    );
    if (taken) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`SIPp never bound ${address}:${port}`);
}

/**
 * SIPp as a UAS on 127.0.0.1 running one scenario from test/sipp for one call, then exiting.
 * `extraArgs` adds e.g. `-rtp_echo` (SIPp echoes the RTP it gets on its media port); `rewrite` replaces one string
 * in a copy of the scenario.
 */
export async function startSipp(scenario: string, port: number, extraArgs: string[] = [], rewrite?: [string, string]): Promise<SippProcess> {
  let scenarioPath = join(SCENARIOS, scenario);
  const copyDir = rewrite ? mkdtempSync(join(tmpdir(), 'sb-sipp-')) : undefined;
  if (rewrite && copyDir) {
    // A copy with one line changed (e.g. another final status): SIPp validates status codes at load time.
    scenarioPath = join(copyDir, scenario);
    writeFileSync(scenarioPath, readFileSync(join(SCENARIOS, scenario), 'utf8').replace(rewrite[0], rewrite[1]));
  }
  const args = ['-sf', scenarioPath, '-i', '127.0.0.1', '-p', String(port), '-m', '1', '-nostdin', '-timeout', '60s', ...extraArgs];
  const child: ChildProcess = spawn('sipp', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  child.stderr?.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    if (copyDir) rmSync(copyDir, { recursive: true, force: true });
  };
  try {
    await Promise.race([waitForUdpListener('127.0.0.1', port), exited.then((code) => Promise.reject(new Error(`sipp exited ${code}: ${output}`)))]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, exited, output: () => output, stop };
}
