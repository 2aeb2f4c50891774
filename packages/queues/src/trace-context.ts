import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { ContextManager, Span, Telemetry, Tracer } from 'bullmq';

/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/) carried from an HTTP request through the
 * BullMQ jobs it leads to, to the webhooks they send (docs/observability.md#traces). Off unless
 * TRACING_ENABLED. This is propagation only: trace and span ids are made and handed on, no span is
 * recorded or exported, so any tracing system that reads `traceparent` can join the request's trace.
 */
export interface TraceContext {
  traceId: string;
  /** The id of the span that is current here: the parent of whatever this process calls next. */
  spanId: string;
  flags: string;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const storage = new AsyncLocalStorage<TraceContext | undefined>();
let enabled = false;

/** A `traceparent` header's context; undefined for a missing or malformed one (all-zero ids are invalid). */
export function parseTraceparent(header: string | undefined): TraceContext | undefined {
  const match = TRACEPARENT.exec(header?.trim().toLowerCase() ?? '');
  if (!match || /^0+$/.test(match[1]) || /^0+$/.test(match[2])) return undefined;
  return { traceId: match[1], spanId: match[2], flags: match[3] };
}

export function formatTraceparent(c: TraceContext): string {
  return `00-${c.traceId}-${c.spanId}-${c.flags}`;
}

/** A new span under `parent`, or the root of a new trace (sampled) when there is none. */
export function childContext(parent: TraceContext | undefined): TraceContext {
  return { traceId: parent?.traceId ?? randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex'), flags: parent?.flags ?? '01' };
}

/** Turns propagation on for this process: queues and workers opened afterwards carry the context. */
export function enableTracing(on = true): void {
  enabled = on;
}

export function tracingEnabled(): boolean {
  return enabled;
}

export function activeTraceContext(): TraceContext | undefined {
  return storage.getStore();
}

/** Runs `fn` as a new span under the request's `traceparent` (or a new trace); a no-op while tracing is off. */
export function runInRequestTrace<R>(traceparent: string | undefined, fn: () => R): R {
  return enabled ? storage.run(childContext(parseTraceparent(traceparent)), fn) : fn();
}

/** The `traceparent` for an outgoing HTTP call made here (a client span of the current one); {} when off. */
export function outgoingTraceHeaders(): { traceparent?: string } {
  const current = enabled ? storage.getStore() : undefined;
  return current ? { traceparent: formatTraceparent(childContext(current)) } : {};
}

const contextManager: ContextManager<TraceContext | undefined> = {
  with: (context, fn) => storage.run(context, fn),
  active: () => storage.getStore(),
  getMetadata: (context) => (context ? formatTraceparent(context) : ''),
  fromMetadata: (active, metadata) => parseTraceparent(metadata) ?? active,
};

function span(context: TraceContext): Span<TraceContext | undefined> {
  const ignore = () => undefined;
  return { setSpanOnContext: () => context, setAttribute: ignore, setAttributes: ignore, addEvent: ignore, recordException: ignore, end: ignore };
}

const tracer: Tracer<TraceContext | undefined> = {
  startSpan: (_name, _options, parent) => span(childContext(parent ?? storage.getStore())),
};

/**
 * BullMQ's telemetry hooks fed with our context: `Queue.add` stores the current `traceparent` in the
 * job's options, and a worker runs the job under it. Undefined while tracing is off, so BullMQ skips it.
 */
export function queueTelemetry(): Telemetry<TraceContext | undefined> | undefined {
  return enabled ? { tracer, contextManager } : undefined;
}
