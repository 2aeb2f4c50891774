import { createHash } from 'node:crypto';
import { Backoffs, type JobsOptions, type Queue } from 'bullmq';
import { Packr } from 'msgpackr';

/** One job for `addJobsInOneCall`: what `addBulk` takes, always under a job id of the caller's. */
export interface OneCallJob<Data> {
  name: string;
  data: Data;
  opts: JobsOptions & { jobId: string };
}

/** The Lua source of one of the installed BullMQ's scripts (its file names carry the number of keys). */
function bullmqScript(file: string, name: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- BullMQ ships no types for its script files.
  return (require(`bullmq/dist/cjs/scripts/${file}`) as Record<string, { content: string }>)[name].content;
}

// BullMQ packs with these options (its redis-queue-backend); the script reads them with cmsgpack.
const packer = new Packr({ useRecords: false, encodeUndefinedAsNil: true });

const FALLBACK_OPTIONS = ['priority', 'parent', 'deduplication', 'debounce', 'repeat', 'repeatJobKey', 'telemetry', 'timestamp'] as const;

/** A BullMQ script cut into its helper functions (`local function … end` at column 0) and the rest. */
function splitScript(content: string): { helpers: Map<string, string>; body: string } {
  const helpers = new Map<string, string>();
  const body: string[] = [];
  let helper: { name: string; lines: string[] } | null = null;
  for (const line of content.split('\n')) {
    if (helper) {
      helper.lines.push(line);
      if (line === 'end') {
        helpers.set(helper.name, helper.lines.join('\n'));
        helper = null;
      }
      continue;
    }
    const name = /^local function (\w+)\(/.exec(line)?.[1];
    if (name) helper = { name, lines: [line] };
    else body.push(line);
  }
  return { helpers, body: body.join('\n') };
}

/**
 * One script that runs BullMQ's addStandardJob or addDelayedJob per job, each as a local function whose
 * KEYS and ARGV are that job's. BullMQ's helper functions, the same text in both scripts, are defined once
 * outside the loop: defined inside it, Lua would build some 25 closures per job, which cost Redis more
 * than BullMQ's own one call per job (docs/performance/batch.md#batch-accept-benchbatchmjs). If the two scripts
 * ever disagree on a helper, each keeps its own, unhoisted.
 */
function loopScript(): string {
  const standard = splitScript(bullmqScript('addStandardJob-9', 'addStandardJob'));
  const delayed = splitScript(bullmqScript('addDelayedJob-6', 'addDelayedJob'));
  const shared =
    standard.helpers.size === delayed.helpers.size && [...standard.helpers].every(([name, text]) => delayed.helpers.get(name) === text) && !/\b(KEYS|ARGV)\b/.test([...standard.helpers.values()].join('\n'));
  const [hoisted, standardBody, delayedBody] = shared
    ? [[...standard.helpers.values()].join('\n'), standard.body, delayed.body]
    : ['', bullmqScript('addStandardJob-9', 'addStandardJob'), bullmqScript('addDelayedJob-6', 'addDelayedJob')];
  return `
local rcall = redis.call
${hoisted}
local standardKeys = {KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8], KEYS[9]}
local delayedKeys = {KEYS[10], KEYS[11], KEYS[12], KEYS[13], KEYS[14], KEYS[15]}
local function addStandard(KEYS, ARGV)
${standardBody}
end
local function addDelayed(KEYS, ARGV)
${delayedBody}
end
local jobs = cmsgpack.unpack(ARGV[1])
local results = {}
for i = 1, #jobs do
  local job = jobs[i]
  if job[4] == 1 then results[i] = addDelayed(delayedKeys, job) else results[i] = addStandard(standardKeys, job) end
end
return results
`;
}

/**
 * The script's text and SHA-1, worked out once. It runs by plain `EVALSHA` (then `EVAL` when Redis answers
 * NOSCRIPT, after a restart or `SCRIPT FLUSH`), never as a command defined on the client on first use: an
 * auto-pipelined client that opened a pipeline in the same tick would lack a command defined after it, which
 * ioredis answers by throwing outside the caller (docs/performance/batch.md#batch-accept-benchbatchmjs).
 */
let script: { lua: string; sha: string } | undefined;
function loopScriptOnce(): { lua: string; sha: string } {
  if (!script) {
    const lua = loopScript();
    script = { lua, sha: createHash('sha1').update(lua).digest('hex') };
  }
  return script;
}

type ScriptClient = { evalsha(...args: unknown[]): Promise<unknown>; eval(...args: unknown[]): Promise<unknown> };

async function runLoopScript(client: ScriptClient, keys: string[], payload: Buffer): Promise<unknown> {
  const { lua, sha } = loopScriptOnce();
  try {
    return await client.evalsha(sha, keys.length, ...keys, payload);
  } catch (error) {
    if (!String((error as Error).message).startsWith('NOSCRIPT')) throw error;
    return client.eval(lua, keys.length, ...keys, payload);
  }
}

type QueueInternals = Queue & { keys: Record<string, string>; opts: { telemetry?: unknown } };

function takesOneCall(queue: QueueInternals, jobs: ReadonlyArray<OneCallJob<unknown>>): boolean {
  if (queue.opts.telemetry) return false;
  const defaults = queue.defaultJobOptions as Record<string, unknown>;
  // Each job's own jobId and delay are added to the options the jobs share (optionsPacker), never a default's.
  if (defaults.jobId !== undefined || defaults.delay !== undefined) return false;
  return jobs.every((job) => FALLBACK_OPTIONS.every((name) => (job.opts as unknown as Record<string, unknown>)[name] === undefined && defaults[name] === undefined));
}

/** The options as BullMQ's `Job` constructor and `optsAsJSON` leave them for storage, for the options allowed here. */
function storedOptions(queue: QueueInternals, opts: JobsOptions): Record<string, unknown> {
  const merged: Record<string, unknown> = { attempts: 0, ...queue.defaultJobOptions, ...opts };
  if (merged.backoff !== undefined) merged.backoff = Backoffs.normalize(merged.backoff as NonNullable<JobsOptions['backoff']>);
  for (const name of Object.keys(merged)) if (merged[name] === undefined) delete merged[name];
  return merged;
}

/** Bytes of a msgpack string or array header for `length` (fixstr/fixarray, then the 8-, 16- and 32-bit forms). */
function headerSize(length: number, fixLimit: number, has8: boolean): number {
  if (length < fixLimit) return 1;
  if (has8 && length < 0x100) return 2;
  return length < 0x10000 ? 3 : 5;
}

function writeHeader(out: Buffer, at: number, length: number, fixBase: number, fixLimit: number, codes: [number | null, number, number]): number {
  if (length < fixLimit) return out.writeUInt8(fixBase | length, at);
  if (codes[0] !== null && length < 0x100) return out.writeUInt8(length, out.writeUInt8(codes[0], at));
  if (length < 0x10000) return out.writeUInt16BE(length, out.writeUInt8(codes[1], at));
  return out.writeUInt32BE(length, out.writeUInt8(codes[2], at));
}
const STR: [number, number, number] = [0xd9, 0xda, 0xdb];
const ARRAY: [null, number, number] = [null, 0xdc, 0xdd];
const strSize = (length: number) => headerSize(length, 32, true) + length;

/** A msgpack map split into its entry count and its entries, so that entries can be added after. */
function mapEntries(packed: Buffer): { count: number; entries: Buffer } {
  if (packed[0] >= 0x80 && packed[0] <= 0x8f) return { count: packed[0] & 0x0f, entries: Buffer.from(packed.subarray(1)) };
  if (packed[0] === 0xde) return { count: packed.readUInt16BE(1), entries: Buffer.from(packed.subarray(3)) };
  if (packed[0] === 0xdf) return { count: packed.readUInt32BE(1), entries: Buffer.from(packed.subarray(5)) };
  throw new Error(`not a msgpack map: 0x${packed[0].toString(16)}`);
}

const VARYING_OPTIONS = new Set(['jobId', 'delay']);

/** Whether two jobs' options differ at most in jobId and delay (values compared as they are, nested ones by reference). */
function sameOptionsBesidesIdAndDelay(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  for (const name in a) if (!VARYING_OPTIONS.has(name) && a[name] !== b[name]) return false;
  for (const name in b) if (!VARYING_OPTIONS.has(name) && !(name in a)) return false;
  return true;
}

/**
 * Each job's packed options, as `packer.pack(storedOptions(...))` would give them: the options the jobs share
 * are packed once, and each job's jobId and delay are added as entries of that map (the script decodes the
 * map, so where an entry sits does not matter).
 */
function optionsPacker(queue: QueueInternals) {
  let shared: { opts: Record<string, unknown>; count: number; entries: Buffer } | null = null;
  const jobIdKey = Buffer.from(packer.pack('jobId'));
  const delayKey = Buffer.from(packer.pack('delay'));
  return (opts: OneCallJob<unknown>['opts']): Buffer => {
    const own = opts as unknown as Record<string, unknown>;
    if (!shared || !sameOptionsBesidesIdAndDelay(shared.opts, own)) {
      shared = { opts: own, ...mapEntries(packer.pack(storedOptions(queue, { ...opts, jobId: undefined, delay: undefined }))) };
    }
    const extra = [jobIdKey, Buffer.from(packer.pack(opts.jobId))];
    if (opts.delay !== undefined) extra.push(delayKey, Buffer.from(packer.pack(opts.delay)));
    const count = shared.count + extra.length / 2;
    const header = Buffer.alloc(5);
    header[0] = 0xdf;
    header.writeUInt32BE(count, 1);
    return Buffer.concat([header, shared.entries, ...extra]);
  };
}

/**
 * The script's job list, msgpack-framed by hand into one buffer: Redis's cmsgpack reads no `bin` type, so
 * BullMQ's packed arguments travel as msgpack strings of their raw bytes, which the script hands on to
 * BullMQ's as they are. Each entry is BullMQ's ARGV for addStandardJob or addDelayedJob, plus 1 for a
 * delayed job.
 */
function scriptJobs(queue: QueueInternals, jobs: ReadonlyArray<OneCallJob<unknown>>, timestamp: number): Buffer {
  const packOptions = optionsPacker(queue);
  const packArgs = argumentsPacker(queue, timestamp);
  const entries = jobs.map((job) => {
    const args = packArgs(job);
    const data = JSON.stringify(job.data ?? {});
    const opts = packOptions(job.opts);
    const delayed = typeof job.opts.delay === 'number' && job.opts.delay > 0 ? 1 : 0;
    return { args, data, dataBytes: Buffer.byteLength(data), opts, delayed };
  });
  const size = entries.reduce((sum, e) => sum + 1 + strSize(e.args.reduce((n, part) => n + part.length, 0)) + strSize(e.dataBytes) + strSize(e.opts.length) + 1, headerSize(jobs.length, 16, false));
  const out = Buffer.allocUnsafe(size);
  let at = writeHeader(out, 0, jobs.length, 0x90, 16, ARRAY);
  for (const e of entries) {
    at = writeHeader(out, at, 4, 0x90, 16, ARRAY);
    at = writeHeader(out, at, e.args.reduce((n, part) => n + part.length, 0), 0xa0, 32, STR);
    for (const part of e.args) at += part.copy(out, at);
    at = writeHeader(out, at, e.dataBytes, 0xa0, 32, STR);
    at += out.write(e.data, at);
    at = writeHeader(out, at, e.opts.length, 0xa0, 32, STR);
    at += e.opts.copy(out, at);
    at = out.writeUInt8(e.delayed, at);
  }
  return out;
}

/**
 * Each job's packed BullMQ arguments, `[prefix, jobId, name, timestamp, then six nils]` as BullMQ packs them
 * for a job without parent, repeat or deduplication: only the job id differs between the jobs of one call,
 * so the parts before and after it are packed once (per job name) and the id is put between them.
 */
function argumentsPacker(queue: QueueInternals, timestamp: number) {
  const head = Buffer.from(packer.pack([queue.keys['']])); // a one-element array: its header, then the prefix
  head[0] = 0x9a; // …made the header of a ten-element array
  const tails = new Map<string, Buffer>();
  const tailOf = (name: string) => {
    let tail = tails.get(name);
    if (!tail) {
      tail = Buffer.concat([Buffer.from(packer.pack(name)), Buffer.from(packer.pack(timestamp)), Buffer.alloc(6, 0xc0)]);
      tails.set(name, tail);
    }
    return tail;
  };
  // In parts, written one after the other into the job list (no buffer of its own per job).
  return (job: OneCallJob<unknown>): Buffer[] => [head, Buffer.from(packer.pack(job.opts.jobId)), tailOf(job.name)];
}

/** BullMQ's negative answers of its add-job scripts (a missing parent and the like), as it reports them. */
function failedAdd(code: number): Error {
  return new Error(`Could not add job: BullMQ add-job script answered ${code}`);
}

/**
 * Adds many jobs in ONE Redis script call instead of BullMQ's one `EVALSHA` per job
 * (docs/performance/batch.md#batch-accept-benchbatchmjs). The script runs BullMQ's own add-job scripts, read
 * from the installed BullMQ, once per job inside a loop, so each job is stored exactly as `addBulk`
 * stores it (hash, wait list or delayed set, markers, events); what changes is the producer's work per job
 * (no `Job` object, no Redis command of its own) and Redis's (one script call). Being one script, no other
 * client sees the jobs half added.
 *
 * Only the options the send contracts use are taken this way; a job with anything else (priority, parent,
 * deduplication, repeat) or a queue with telemetry goes through `addBulk` unchanged.
 */
export async function addJobsInOneCall<Data>(queue: Queue, jobs: ReadonlyArray<OneCallJob<Data>>): Promise<void> {
  if (jobs.length === 0) return;
  const internals = queue as QueueInternals;
  if (!takesOneCall(internals, jobs)) {
    await queue.addBulk(jobs.map((job) => ({ name: job.name, data: job.data, opts: job.opts })) as Parameters<Queue['addBulk']>[0]);
    return;
  }
  const client = (await queue.backend.client) as unknown as ScriptClient;
  const k = internals.keys;
  const keys = [k.wait, k.paused, k.meta, k.id, k.completed, k.delayed, k.active, k.events, k.marker, k.marker, k.meta, k.id, k.delayed, k.completed, k.events];
  const timestamp = Date.now();
  const payload = scriptJobs(internals, jobs, timestamp);
  const results = (await runLoopScript(client, keys, payload)) as Array<string | number>;
  const failed = results.find((r): r is number => typeof r === 'number' && r < 0);
  if (failed !== undefined) throw failedAdd(failed);
}
