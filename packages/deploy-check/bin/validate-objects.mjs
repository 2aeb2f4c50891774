#!/usr/bin/env node
// Validates Kubernetes objects (a JSON array on stdin) against the schemas of kubernetes-models and its
// KEDA and Prometheus Operator companions; prints one result per object as JSON. Those packages are ES
// modules only, so the jest test runs this script as a child process instead of importing them.
import { readFileSync } from 'node:fs';

const MODELS = {
  v1: 'kubernetes-models/v1',
  'apps/v1': 'kubernetes-models/apps/v1',
  'batch/v1': 'kubernetes-models/batch/v1',
  'policy/v1': 'kubernetes-models/policy/v1',
  'autoscaling/v2': 'kubernetes-models/autoscaling/v2',
  'networking.k8s.io/v1': 'kubernetes-models/networking.k8s.io/v1',
  'keda.sh/v1alpha1': '@kubernetes-models/keda/keda.sh/v1alpha1',
  'monitoring.coreos.com/v1': '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1',
};

const objects = JSON.parse(readFileSync(0, 'utf8'));
const results = [];
for (const object of objects) {
  const id = { apiVersion: object.apiVersion, kind: object.kind, name: object.metadata?.name };
  const modulePath = MODELS[object.apiVersion];
  const Model = modulePath ? (await import(modulePath))[object.kind] : undefined;
  if (!Model) {
    results.push({ ...id, error: `no schema known for ${object.apiVersion} ${object.kind}` });
    continue;
  }
  try {
    new Model(object).validate();
    results.push({ ...id, error: null });
  } catch (error) {
    results.push({ ...id, error: error.message });
  }
}
process.stdout.write(JSON.stringify(results));
