import { metricNamesExposed, metricNamesIn, observabilityExpressions } from '../src';

describe('metric names in PromQL', () => {
  it('finds the metrics, not the functions, labels, groupings, strings or durations', () => {
    const expr =
      'histogram_quantile(0.95, sum by (queue, le) (rate(switchboard_job_latency_seconds_bucket{outcome="completed", queue=~"a|b"}[5m]))) / clamp_min(sum(rate(http_requests_total[5m] offset 1h)), 1e-9) > 0.5';
    expect(metricNamesIn(expr).sort()).toEqual(['http_requests_total', 'switchboard_job_latency_seconds']);
  });

  it('reads every expression of the dashboard and the alert rules', () => {
    const expressions = observabilityExpressions();
    expect(expressions.some((e) => e.source.startsWith('panel'))).toBe(true);
    expect(expressions.some((e) => e.source.startsWith('alert'))).toBe(true);
    for (const { source, expr } of expressions) expect({ source, names: metricNamesIn(expr).length > 0 }).toEqual({ source, names: true });
  });

  it('lists the names a scrape declares or has samples of, histograms by their base name', () => {
    const text = '# HELP a_total A\n# TYPE a_total counter\na_total{x="1"} 2\nb_seconds_bucket{le="1"} 1\nb_seconds_count 1\n';
    expect([...metricNamesExposed(text)].sort()).toEqual(['a_total', 'b_seconds']);
  });
});
