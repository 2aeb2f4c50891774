import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** A rendered Kubernetes object, as loosely typed as YAML gives it. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

export interface ValidationResult {
  apiVersion: string;
  kind: string;
  name: string;
  error: string | null;
}

const PACKAGE_DIR = join(__dirname, '..');
export const REPO_DIR = join(PACKAGE_DIR, '..', '..');
export const CHART_DIR = join(REPO_DIR, 'k8s', 'helm', 'switchboard');
/** The chart's own CI values: every optional component switched on. */
export const TEST_VALUES = join(CHART_DIR, 'ci', 'test-values.yaml');
/** The oldest Kubernetes the chart supports (Chart.yaml kubeVersion) is new enough for every API it uses. */
const KUBE_VERSION = '1.29.0';

function runNode(script: string, args: string[], input?: string): string {
  const result = spawnSync(process.execPath, [join(PACKAGE_DIR, 'bin', script), ...args], { input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${script} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}

/** Runs the packaged Helm (bin/helm.mjs) and returns its standard output. */
export function helm(args: string[]): string {
  return runNode('helm.mjs', args);
}

export interface RenderOptions {
  valuesFiles?: string[];
  set?: Record<string, string>;
}

/** `helm template` of k8s/helm/switchboard, hooks included, parsed into objects. */
export function renderChart({ valuesFiles = [], set = {} }: RenderOptions = {}): KubeObject[] {
  const args = ['template', 'sb', CHART_DIR, '--kube-version', KUBE_VERSION];
  for (const file of valuesFiles) args.push('-f', file);
  for (const [key, value] of Object.entries(set)) args.push('--set', `${key}=${value}`);
  return parseAllDocuments(helm(args))
    .map((doc) => doc.toJS() as KubeObject | null)
    .filter((object): object is KubeObject => object !== null);
}

/** Validates each object against its schema (bin/validate-objects.mjs). */
export function validateObjects(objects: unknown[]): ValidationResult[] {
  return JSON.parse(runNode('validate-objects.mjs', [], JSON.stringify(objects))) as ValidationResult[];
}
