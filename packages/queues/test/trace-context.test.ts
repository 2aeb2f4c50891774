import { activeTraceContext, childContext, enableTracing, formatTraceparent, outgoingTraceHeaders, parseTraceparent, queueTelemetry, runInRequestTrace } from '@switchboard/queues';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const HEADER = `00-${TRACE}-00f067aa0ba902b7-01`;

afterEach(() => enableTracing(false));

describe('W3C trace context', () => {
  it('parses a valid traceparent and formats it back', () => {
    const parsed = parseTraceparent(HEADER);
    expect(parsed).toEqual({ traceId: TRACE, spanId: '00f067aa0ba902b7', flags: '01' });
    expect(formatTraceparent(parsed!)).toBe(HEADER);
  });

  it.each(['', 'garbage', `01-${TRACE}-00f067aa0ba902b7-01`, `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`, `00-${TRACE}-${'0'.repeat(16)}-01`, `00-${TRACE}-00f067aa0ba902b7`])(
    'refuses %j',
    (header) => expect(parseTraceparent(header)).toBeUndefined(),
  );

  it('makes a child span in the same trace, or a new trace without a parent', () => {
    const parent = parseTraceparent(HEADER)!;
    const child = childContext(parent);
    expect(child.traceId).toBe(TRACE);
    expect(child.spanId).not.toBe(parent.spanId);
    expect(childContext(undefined).traceId).toMatch(/^[0-9a-f]{32}$/);
  });

  it('does nothing while tracing is off', () => {
    expect(queueTelemetry()).toBeUndefined();
    runInRequestTrace(HEADER, () => {
      expect(activeTraceContext()).toBeUndefined();
      expect(outgoingTraceHeaders()).toEqual({});
    });
  });

  it('runs a request under its trace, and an outgoing call gets a child traceparent', async () => {
    enableTracing();
    await runInRequestTrace(HEADER, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(activeTraceContext()?.traceId).toBe(TRACE);
      const outgoing = parseTraceparent(outgoingTraceHeaders().traceparent);
      expect(outgoing?.traceId).toBe(TRACE);
    });
    expect(activeTraceContext()).toBeUndefined();
  });

  it("gives BullMQ a context manager whose metadata is the job's traceparent", () => {
    enableTracing();
    const telemetry = queueTelemetry()!;
    const context = telemetry.contextManager.fromMetadata(undefined, HEADER);
    expect(telemetry.contextManager.getMetadata(context)).toBe(HEADER);
    const span = telemetry.tracer.startSpan('process', { kind: 0 }, context);
    const spanContext = span.setSpanOnContext(context);
    expect(spanContext.traceId).toBe(TRACE);
    telemetry.contextManager.with(spanContext, () => expect(activeTraceContext()).toBe(spanContext));
  });
});
