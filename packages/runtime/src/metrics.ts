/**
 * A small Prometheus text-format registry: counters and histograms with labels, enough for
 * `GET /metrics` without another dependency.
 */
type Labels = Record<string, string>;

function renderLabels(labels: Labels): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}="${String(labels[k]).replace(/["\\\n]/g, '_')}"`)
    .join(',');
}

/**
 * Rendered label sets by their raw values: metrics are recorded on every request, and the same few
 * label sets recur, so each is sorted and escaped once. Bounded so a label that varies cannot grow it.
 */
const renderedLabels = new Map<string, string>();
const RENDERED_LABELS_LIMIT = 10_000;

function labelKey(labels: Labels): string {
  let raw = '';
  for (const k in labels) raw += `${k}\u0000${labels[k]}\u0001`;
  let rendered = renderedLabels.get(raw);
  if (rendered === undefined) {
    rendered = renderLabels(labels);
    if (renderedLabels.size < RENDERED_LABELS_LIMIT) renderedLabels.set(raw, rendered);
  }
  return rendered;
}

export class Counter {
  private readonly values = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels = {}, by = 1): void {
    const key = labelKey(labels);
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const [key, value] of this.values) lines.push(`${this.name}${key ? `{${key}}` : ''} ${value}`);
    return lines.join('\n');
  }
  snapshot(): MetricSnapshot {
    return { type: 'counter', name: this.name, help: this.help, series: [...this.values] };
  }
  /** Adds another process's series of the same counter (cluster workers, see {@link mergeMetricSnapshots}). */
  absorb(series: Array<[string, number]>): void {
    for (const [key, value] of series) this.values.set(key, (this.values.get(key) ?? 0) + value);
  }
}

/** A value that is set, not added to: e.g. a circuit breaker's state. */
export class Gauge {
  private readonly values = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  set(labels: Labels, value: number): void {
    this.values.set(labelKey(labels), value);
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} gauge`];
    for (const [key, value] of this.values) lines.push(`${this.name}${key ? `{${key}}` : ''} ${value}`);
    return lines.join('\n');
  }
  snapshot(): MetricSnapshot {
    return { type: 'gauge', name: this.name, help: this.help, series: [...this.values] };
  }
  /** Keeps the values already set and adds only label sets this gauge lacks: see {@link mergeMetricSnapshots}. */
  absorb(series: Array<[string, number]>): void {
    for (const [key, value] of series) if (!this.values.has(key)) this.values.set(key, value);
  }
}

export class Histogram {
  private readonly series = new Map<string, { buckets: number[]; sum: number; count: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly bounds: number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  ) {}
  observe(labels: Labels, value: number): void {
    const key = labelKey(labels);
    const s = this.series.get(key) ?? { buckets: this.bounds.map(() => 0), sum: 0, count: 0 };
    this.bounds.forEach((b, i) => {
      if (value <= b) s.buckets[i] += 1;
    });
    s.sum += value;
    s.count += 1;
    this.series.set(key, s);
  }
  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const [key, s] of this.series) {
      const sep = key ? `${key},` : '';
      this.bounds.forEach((b, i) => lines.push(`${this.name}_bucket{${sep}le="${b}"} ${s.buckets[i]}`));
      lines.push(`${this.name}_bucket{${sep}le="+Inf"} ${s.count}`);
      lines.push(`${this.name}_sum${key ? `{${key}}` : ''} ${s.sum}`);
      lines.push(`${this.name}_count${key ? `{${key}}` : ''} ${s.count}`);
    }
    return lines.join('\n');
  }
  snapshot(): MetricSnapshot {
    return { type: 'histogram', name: this.name, help: this.help, bounds: this.bounds, series: [...this.series] };
  }
  /** Adds another process's series of the same histogram, bucket by bucket (the bounds are the same code's). */
  absorb(series: Array<[string, HistogramSeries]>): void {
    for (const [key, other] of series) {
      const s = this.series.get(key) ?? { buckets: this.bounds.map(() => 0), sum: 0, count: 0 };
      other.buckets.forEach((n, i) => (s.buckets[i] = (s.buckets[i] ?? 0) + n));
      s.sum += other.sum;
      s.count += other.count;
      this.series.set(key, s);
    }
  }
}

interface HistogramSeries {
  buckets: number[];
  sum: number;
  count: number;
}

/** One metric's series as plain data, so that it can cross a process boundary (cluster IPC) and be merged. */
export type MetricSnapshot =
  | { type: 'counter' | 'gauge'; name: string; help: string; series: Array<[string, number]> }
  | { type: 'histogram'; name: string; help: string; bounds: number[]; series: Array<[string, HistogramSeries]> };

/**
 * One registry's worth of text from the snapshots of several processes (the gateway's cluster workers,
 * docs/running.md#gateway-workers): counters and histograms are summed, since each process counts only
 * what it served. Gauges are not summed: the gateway's gauges describe shared state (queue depths read
 * from Redis), so every worker would report the same figure; the first snapshot that has a label set
 * wins, and the caller puts its own, freshly collected snapshot first.
 */
export function mergeMetricSnapshots(snapshots: MetricSnapshot[][]): string {
  const merged = new MetricsRegistry();
  for (const snapshot of snapshots) {
    for (const metric of snapshot) {
      if (metric.type === 'histogram') merged.histogram(metric.name, metric.help, metric.bounds).absorb(metric.series);
      else if (metric.type === 'counter') merged.counter(metric.name, metric.help).absorb(metric.series);
      else merged.gauge(metric.name, metric.help).absorb(metric.series);
    }
  }
  return merged.render();
}

/** Refreshes gauges from an outside source (e.g. queue depths in Redis) just before a scrape renders them. */
export type MetricsCollector = () => Promise<void>;

/** How long a scrape waits for the collectors; a slow Redis must not make `/metrics` hang. */
const COLLECT_TIMEOUT_MS = 2_000;
/**
 * Scrapes closer together than this share one collection: the gateway's `/metrics` is public, and each
 * collection costs a few Redis commands per queue, so a burst of scrapes must not become a burst on Redis.
 */
const COLLECT_REUSE_MS = 1_000;

export class MetricsRegistry {
  private readonly metrics = new Map<string, Counter | Gauge | Histogram>();
  private readonly collectors: MetricsCollector[] = [];
  private collection: { startedAt: number; done: Promise<void> } | undefined;

  /**
   * Each metric exists once per registry: asking again by name returns the same one, so two workers of
   * one process (one per queue) share the series instead of rendering the name twice.
   */
  private named<M extends Counter | Gauge | Histogram>(name: string, make: () => M): M {
    const existing = this.metrics.get(name);
    if (existing) return existing as M;
    const made = make();
    this.metrics.set(name, made);
    return made;
  }
  gauge(name: string, help: string): Gauge {
    return this.named(name, () => new Gauge(name, help));
  }
  counter(name: string, help: string): Counter {
    return this.named(name, () => new Counter(name, help));
  }
  histogram(name: string, help: string, bounds?: number[]): Histogram {
    return this.named(name, () => new Histogram(name, help, bounds));
  }
  /** Runs `collector` before every {@link collect}; a collector that fails or is slow leaves its last values. */
  onCollect(collector: MetricsCollector): void {
    this.collectors.push(collector);
  }
  /** Every metric's series as plain data (see {@link mergeMetricSnapshots}); collectors are not run. */
  snapshot(): MetricSnapshot[] {
    return [...this.metrics.values()].map((m) => m.snapshot());
  }
  render(): string {
    return `${[...this.metrics.values()].map((m) => m.render()).join('\n')}\n`;
  }
  /** What `/metrics` serves: the collectors' fresh values, then {@link render}. */
  async collect(now: number = Date.now()): Promise<string> {
    if (this.collectors.length > 0) {
      if (!this.collection || now - this.collection.startedAt >= COLLECT_REUSE_MS) this.collection = { startedAt: now, done: this.runCollectors() };
      await this.collection.done;
    }
    return this.render();
  }
  private async runCollectors(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, COLLECT_TIMEOUT_MS)));
    await Promise.race([Promise.allSettled(this.collectors.map((c) => c())), timeout]);
    clearTimeout(timer);
  }
}
