import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { REPO_DIR } from './render-chart';

export const OBSERVABILITY_DIR = join(REPO_DIR, 'k8s', 'observability');

/** PromQL words that look like metric names but are not: aggregations, keywords, functions without `(`. */
const PROMQL_WORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset', 'inf', 'nan', 'le']);

/**
 * The metric names a PromQL expression reads. Label matchers, grouping clauses, strings, durations and
 * function calls are removed first; what is left that looks like an identifier is a metric name. A
 * histogram's `_bucket`, `_sum` and `_count` series name the histogram.
 */
export function metricNamesIn(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const match of stripped.matchAll(/(?<![a-zA-Z0-9_:.])[a-zA-Z_:][a-zA-Z0-9_:]*(\s*\()?/g)) {
    const [whole, call] = match;
    const word = whole.replace(/\s*\($/, '');
    if (call || PROMQL_WORDS.has(word.toLowerCase()) || /^\d/.test(word)) continue;
    names.add(word.replace(/_(bucket|sum|count)$/, ''));
  }
  return [...names];
}

/** Every PromQL expression of the Grafana dashboard and the alert rules in k8s/observability. */
export function observabilityExpressions(dir = OBSERVABILITY_DIR): Array<{ source: string; expr: string }> {
  const dashboard = JSON.parse(readFileSync(join(dir, 'grafana-dashboard.json'), 'utf8')) as {
    panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
  };
  const rules = parseYaml(readFileSync(join(dir, 'alerts.rules.yaml'), 'utf8')) as { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> };
  return [
    ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ source: `panel "${p.title}"`, expr: t.expr }))),
    ...rules.groups.flatMap((g) => g.rules.map((r) => ({ source: `alert ${r.alert}`, expr: String(r.expr) }))),
  ];
}

/** The metric names a Prometheus text exposition declares (`# TYPE`) or has samples of. */
export function metricNamesExposed(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const declared = /^# TYPE (\S+) /.exec(line);
    if (declared) names.add(declared[1]);
    else if (line && !line.startsWith('#')) names.add(line.split(/[{ ]/)[0].replace(/_(bucket|sum|count)$/, ''));
  }
  return names;
}
