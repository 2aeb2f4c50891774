import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeUdpAndTcpPort, freeUdpPort, tcpPortFree } from './free-port';
import { createNetstringReader, encodeNetstring } from './netstring.codec';

export interface BaresipEvent {
  type: string;
  id?: string;
  param?: string;
}

export interface BaresipProcess {
  sipPort: number;
  /** Where the sndfile module writes `dump-…-dec.wav` (what baresip received) and `-enc.wav` (what it sent). */
  recordingsDir: string;
  /** Runs a ctrl_tcp command (e.g. `sndcode` with the digits) and resolves with its response. */
  command(command: string, params?: string): Promise<{ ok: boolean; data: string }>;
  /** Resolves with the first event of this type (CALL_ESTABLISHED, CALL_DTMF_START, CALL_CLOSED…) from now on, or one already seen. */
  event(type: string): Promise<BaresipEvent>;
  stop(): Promise<void>;
}

export interface BaresipOptions {
  /** 8 kHz mono 16-bit WAV; baresip hangs up when it ends, so it must outlast the call. */
  sourceWav: string;
  /** The user part baresip answers to (it answers 404 to any other). @defaultValue 'callee' */
  user?: string;
}

interface BaresipPorts {
  sipPort: number;
  ctrlPort: number;
  /** First port of a range of 20 for RTP. */
  rtpPortBase: number;
}

/** How often a start that lost a port race is retried on fresh ports. */
const START_ATTEMPTS = 5;

/**
 * baresip's sip_listen binds UDP and TCP on the SIP port and its SIP/TLS transport on the next port up, so that
 * one must be free for TCP too. Ports are probed, then released, then bound by baresip: another process can take
 * one in between, which is why startBaresip retries on "Address already in use".
 */
async function pickPorts(): Promise<BaresipPorts> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const sipPort = await freeUdpAndTcpPort();
    if (sipPort >= 65535) continue;
    const ctrlPort = await freeUdpAndTcpPort();
    if (ctrlPort === sipPort + 1 || !(await tcpPortFree(sipPort + 1))) continue;
    return { sipPort, ctrlPort, rtpPortBase: await freeUdpPort() };
  }
  throw new Error('no ports free for baresip');
}

function configFile(o: BaresipOptions & BaresipPorts, recordingsDir: string): string {
  return [
    'poll_method epoll',
    `sip_listen 127.0.0.1:${o.sipPort}`,
    'call_local_timeout 120',
    'call_max_calls 4',
    // No sound card here: ALSA's null device plays into nothing; the source is the WAV file.
    'audio_player alsa,null',
    'audio_alert alsa,null',
    `audio_source aufile,${o.sourceWav}`,
    'ausrc_srate 8000',
    'auplay_srate 8000',
    'ausrc_channels 1',
    'auplay_channels 1',
    `rtp_ports ${o.rtpPortBase}-${o.rtpPortBase + 19}`,
    // Without it baresip advertises another interface's address in its SDP.
    'net_interface 127.0.0.1',
    'module_path /usr/lib/baresip/modules',
    'module g711.so',
    'module aufile.so',
    'module alsa.so',
    'module sndfile.so',
    'module_app account.so',
    'module_app menu.so',
    'module_app ctrl_tcp.so',
    `ctrl_tcp_listen 127.0.0.1:${o.ctrlPort}`,
    `snd_path ${recordingsDir}`,
    '',
  ].join('\n');
}

async function connectWithRetry(port: number, child: ChildProcess): Promise<Socket> {
  // Generous: on a loaded machine baresip can take seconds to load its modules.
  for (let attempt = 0; attempt < 300; attempt++) {
    if (child.exitCode !== null) throw new Error(`baresip exited with ${child.exitCode}`);
    const socket = await new Promise<Socket | undefined>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => resolve(s));
      s.once('error', () => resolve(undefined));
    });
    if (socket) return socket;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`baresip ctrl_tcp never listened on ${port}`);
}

/** A headless baresip that auto-answers PCMU calls on 127.0.0.1 on ports of its own, with its own config directory (`-f`). */
export async function startBaresip(options: BaresipOptions): Promise<BaresipProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnPorts({ ...options, ...(await pickPorts()) });
    } catch (error) {
      const lostPortRace = (error as Error).message.includes('Address already in use');
      if (!lostPortRace || attempt >= START_ATTEMPTS) throw error;
    }
  }
}

async function startOnPorts(o: BaresipOptions & BaresipPorts): Promise<BaresipProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-baresip-'));
  const recordingsDir = join(dir, 'recordings');
  mkdirSync(recordingsDir);
  writeFileSync(join(dir, 'config'), configFile(o, recordingsDir));
  writeFileSync(join(dir, 'accounts'), `<sip:${o.user ?? 'callee'}@127.0.0.1:${o.sipPort}>;regint=0;answermode=auto;audio_codecs=pcmu\n`);
  const child = spawn('baresip', ['-f', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (chunk) => (log = (log + chunk).slice(-20_000)));
  child.stderr?.on('data', (chunk) => (log = (log + chunk).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const ctrl = await connectWithRetry(o.ctrlPort, child).catch(async (error: Error) => {
    await kill();
    throw new Error(`${error.message}\n${log}`);
  });
  const emitter = new EventEmitter();
  const seen: BaresipEvent[] = [];
  const read = createNetstringReader();
  ctrl.on('data', (chunk) => {
    for (const message of read(chunk)) {
      const parsed = JSON.parse(message) as { event?: boolean; response?: boolean; token?: string } & BaresipEvent;
      if (parsed.event) {
        seen.push(parsed);
        emitter.emit('event', parsed);
      } else if (parsed.response) emitter.emit(`response:${parsed.token}`, parsed);
    }
  });
  let token = 0;
  return {
    sipPort: o.sipPort,
    recordingsDir,
    command: (command, params) =>
      new Promise((resolve) => {
        const t = `t${++token}`;
        emitter.once(`response:${t}`, resolve);
        ctrl.write(encodeNetstring(JSON.stringify({ command, params, token: t })));
      }),
    event: (type) => {
      const already = seen.find((e) => e.type === type);
      if (already) return Promise.resolve(already);
      return new Promise((resolve) => {
        const listener = (e: BaresipEvent) => {
          if (e.type !== type) return;
          emitter.off('event', listener);
          resolve(e);
        };
        emitter.on('event', listener);
      });
    },
    stop: async () => {
      ctrl.destroy();
      await kill();
    },
  };
}
