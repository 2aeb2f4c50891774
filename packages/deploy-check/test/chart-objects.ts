import type { KubeObject } from '../src';

/** Small readers over rendered objects, shared by the chart tests. */
// `any`: the tests walk rendered manifests of every shape, and a typed reader per kind would only repeat them.
export type Loose = Record<string, any>;

export function ofKind(objects: KubeObject[], kind: string): Loose[] {
  return objects.filter((o) => o.kind === kind) as Loose[];
}

export function component(object: Loose): string {
  return object.metadata.labels['app.kubernetes.io/component'];
}

export function byComponent(objects: KubeObject[], kind: string, name: string): Loose {
  const found = ofKind(objects, kind).find((o) => component(o) === name);
  if (!found) throw new Error(`no ${kind} for ${name}`);
  return found;
}

/** The environment a Deployment's container sees: its ConfigMap and Secret, then its own `env`. */
/** The pod address a rendered `status.podIP` reference stands for in these tests. */
export const SAMPLE_POD_IP = '10.0.0.7';

export function environmentOf(objects: KubeObject[], deployment: Loose): Record<string, string> {
  const container = deployment.spec.template.spec.containers[0];
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) Object.assign(env, ofKind(objects, 'ConfigMap').find((c) => c.metadata.name === source.configMapRef.name)?.data);
    if (source.secretRef) Object.assign(env, ofKind(objects, 'Secret').find((s) => s.metadata.name === source.secretRef.name)?.stringData);
  }
  // A value from the downward API reads as a pod would see it.
  for (const { name, value, valueFrom } of container.env ?? []) env[name] = valueFrom?.fieldRef?.fieldPath === 'status.podIP' ? SAMPLE_POD_IP : value;
  return env;
}
