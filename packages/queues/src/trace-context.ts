import {
  context,
  propagation,
  ROOT_CONTEXT,
  trace,
  SpanKind as OtelSpanKind,
  type Context,
  type Span as OtelSpan,
  type Tracer as OtelTracer,
} from '@opentelemetry/api';
import type { TracerProvider } from '@opentelemetry/sdk-trace';
import type { ContextManager, Span, Telemetry, Tracer } from 'bullmq';

/**
 * OpenTelemetry traces (docs/observability.md#traces), on exactly when an OTLP endpoint is configured
 * (OTEL_EXPORTER_OTLP_ENDPOINT): a request's W3C `traceparent` is carried through the BullMQ jobs it leads
 * to, to the webhooks they send, with a span per request, per job (BullMQ's own producer and consumer spans)
 * and per webhook attempt, all exported over OTLP/HTTP.
 */
export interface TracingOptions {
  /** `service.name` of the spans. */
  service: string;
  /** OTLP/HTTP traces URL (`…/v1/traces`); none: tracing stays off. */
  otlpTracesUrl: string | undefined;
  /** @defaultValue 1000 ms: how long finished spans wait to be exported together. */
  exportDelayMs?: number;
}

let provider: TracerProvider | undefined;
let tracer: OtelTracer | undefined;

/** Turns tracing on for this process when spans have somewhere to go; queues and workers opened afterwards carry the context. */
export function enableTracing(options: TracingOptions): void {
  if (options.otlpTracesUrl === undefined || provider) return;
  // Loaded only when tracing is on: the SDK and the OTLP exporter are about 300 modules and 20 MB of a
  // process's memory that a service with tracing off never uses (docs/performance/batch.md#gateway-memory).
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded on demand, as said above */
  const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks') as typeof import('@opentelemetry/context-async-hooks');
  const { W3CTraceContextPropagator } = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { BatchSpanProcessor, TracerProvider } = require('@opentelemetry/sdk-trace') as typeof import('@opentelemetry/sdk-trace');
  const spanProcessors = [
    new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: options.otlpTracesUrl }), scheduledDelayMillis: options.exportDelayMs ?? 1_000 }),
  ];
  provider = new TracerProvider({ resource: resourceFromAttributes({ 'service.name': options.service }), spanProcessors });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  tracer = provider.getTracer('switchboard');
}

export function tracingEnabled(): boolean {
  return tracer !== undefined;
}

/** Exports the spans still waiting; a step of the shutdown. */
export async function flushTraces(): Promise<void> {
  await provider?.forceFlush();
}

/** The current span's trace id, or undefined while tracing is off or outside a trace. */
export function activeTraceId(): string | undefined {
  return tracer ? trace.getSpan(context.active())?.spanContext().traceId : undefined;
}

/**
 * Runs `fn` in a server span under the request's `traceparent` (a new trace when it is missing or
 * malformed, as the W3C spec asks). `fn` gets the function that ends the span. A no-op while off.
 */
export function runInRequestTrace<R>(traceparent: string | undefined, name: string, fn: (end: (status?: number) => void) => R): R {
  if (!tracer) return fn(() => undefined);
  const parent = propagation.extract(ROOT_CONTEXT, traceparent ? { traceparent } : {});
  const span = tracer.startSpan(name, { kind: OtelSpanKind.SERVER }, parent);
  return context.with(trace.setSpan(parent, span), () =>
    fn((status) => {
      if (status !== undefined) span.setAttribute('http.response.status_code', status);
      span.end();
    }),
  );
}

/** Runs `call` in a client span and hands it the `traceparent` header to send; no header while off. */
export async function withOutgoingTrace<R>(name: string, call: (headers: { traceparent?: string }) => Promise<R>): Promise<R> {
  if (!tracer) return call({});
  const span = tracer.startSpan(name, { kind: OtelSpanKind.CLIENT });
  const headers: { traceparent?: string } = {};
  propagation.inject(trace.setSpan(context.active(), span), headers);
  try {
    return await call(headers);
  } finally {
    span.end();
  }
}

function bullSpan(span: OtelSpan): Span<Context> {
  return {
    setSpanOnContext: (ctx) => trace.setSpan(ctx, span),
    setAttribute: (key, value) => void span.setAttribute(key, value),
    setAttributes: (attributes) => void span.setAttributes(attributes),
    addEvent: (name, attributes) => void span.addEvent(name, attributes),
    recordException: (exception, time) => span.recordException(exception as Error, time),
    end: () => span.end(),
  };
}

const contextManager: ContextManager<Context> = {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- BullMQ types the callback with `any`; OpenTelemetry returns what it returns
  with: (ctx, fn) => context.with(ctx, fn),
  active: () => context.active(),
  getMetadata: (ctx) => {
    const carrier: { traceparent?: string } = {};
    propagation.inject(ctx, carrier);
    return carrier.traceparent ?? '';
  },
  fromMetadata: (active, metadata) => propagation.extract(active, { traceparent: metadata }),
};

/**
 * BullMQ's telemetry hooks on OpenTelemetry: `Queue.add` stores the current `traceparent` in the job's
 * options (`opts.telemetry.metadata`), a worker runs the job in a consumer span under it. Undefined while
 * tracing is off, so BullMQ skips it. BullMQ's SpanKind numbers are OpenTelemetry's.
 */
export function queueTelemetry(): Telemetry<Context> | undefined {
  const active = tracer;
  if (!active) return undefined;
  const bullTracer: Tracer<Context> = {
    startSpan: (name, options, ctx) => bullSpan(active.startSpan(name, { kind: (options?.kind ?? 0) as number as OtelSpanKind }, ctx)),
  };
  return { tracer: bullTracer, contextManager };
}
