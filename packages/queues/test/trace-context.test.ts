import { activeTraceId, enableTracing, queueTelemetry, runInRequestTrace, tracingEnabled, withOutgoingTrace } from '@switchboard/queues';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const HEADER = `00-${TRACE}-00f067aa0ba902b7-01`;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

// One file, in order: OpenTelemetry's providers are process globals, set once.
describe('traces', () => {
  it('do nothing while off, which they are without an OTLP endpoint', async () => {
    enableTracing({ service: 'test', otlpTracesUrl: undefined });
    expect(tracingEnabled()).toBe(false);
    expect(queueTelemetry()).toBeUndefined();
    await runInRequestTrace(HEADER, 'GET', async () => {
      expect(activeTraceId()).toBeUndefined();
      expect(await withOutgoingTrace('POST', async (headers) => headers)).toEqual({});
    });
  });

  it("run a request in the caller's trace, and an outgoing call sends a child traceparent", async () => {
    // Nothing is exported while this file runs (e2e/observability.test.ts checks the export): the batch waits a minute.
    enableTracing({ service: 'test', otlpTracesUrl: 'http://127.0.0.1:4318/v1/traces', exportDelayMs: 60_000 });
    expect(tracingEnabled()).toBe(true);
    let ended = false;
    await runInRequestTrace(HEADER, 'GET', async (end) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(activeTraceId()).toBe(TRACE);
      const headers = await withOutgoingTrace('POST', async (h) => h);
      const [, trace, span] = TRACEPARENT.exec(headers.traceparent ?? '') ?? [];
      expect(trace).toBe(TRACE);
      expect(span).not.toBe('00f067aa0ba902b7');
      end(200);
      ended = true;
    });
    expect(ended).toBe(true);
    expect(activeTraceId()).toBeUndefined();
  });

  it('start a new trace for a missing or malformed traceparent', async () => {
    for (const header of [undefined, 'garbage', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`]) {
      await runInRequestTrace(header, 'GET', async () => {
        expect(activeTraceId()).toMatch(/^[0-9a-f]{32}$/);
        expect(activeTraceId()).not.toBe('0'.repeat(32));
      });
    }
  });

  it("give BullMQ a context manager whose metadata is the job's traceparent, and consumer spans under it", () => {
    const telemetry = queueTelemetry()!;
    const remote = telemetry.contextManager.fromMetadata(telemetry.contextManager.active(), HEADER);
    expect(telemetry.contextManager.getMetadata(remote)).toBe(HEADER);
    const span = telemetry.tracer.startSpan('process message-send', { kind: 4 }, remote);
    const inSpan = span.setSpanOnContext(remote);
    telemetry.contextManager.with(inSpan, () => expect(activeTraceId()).toBe(TRACE));
    expect(TRACEPARENT.exec(telemetry.contextManager.getMetadata(inSpan))?.[1]).toBe(TRACE);
    span.end();
  });
});
