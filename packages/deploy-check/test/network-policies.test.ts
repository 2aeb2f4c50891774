import { renderChart, TEST_VALUES, type KubeObject } from '../src';
import { ofKind, type Loose } from './chart-objects';

let objects: KubeObject[];
let policies: Loose[];

beforeAll(() => {
  objects = renderChart({ valuesFiles: [TEST_VALUES] });
  policies = ofKind(objects, 'NetworkPolicy');
});

/** The policies whose pod selector picks the pods of `name` (a selector without a component picks all). */
function policiesFor(name: string): Loose[] {
  return policies.filter((p) => {
    const wanted = p.spec.podSelector.matchLabels['app.kubernetes.io/component'];
    return wanted === undefined || wanted === name;
  });
}

function ingressRules(name: string): Loose[] {
  return policiesFor(name).flatMap((p) => p.spec.ingress ?? []);
}

describe('NetworkPolicies', () => {
  it('deny all ingress and egress of every pod of the release unless a policy allows it', () => {
    const deny = policies.find((p) => p.metadata.name === 'sb-switchboard-default-deny')!;
    expect(deny.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(deny.spec.ingress).toBeUndefined();
    expect(deny.spec.egress).toBeUndefined();
    for (const d of [...ofKind(objects, 'Deployment'), ...ofKind(objects, 'Job')]) {
      const labels = d.spec.template.metadata.labels;
      for (const [key, value] of Object.entries(deny.spec.podSelector.matchLabels)) expect(labels[key]).toBe(value);
    }
  });

  it('let only the gateway take traffic from any source', () => {
    const open = (rule: Loose) => rule.from === undefined;
    expect(ingressRules('api-gateway').some(open)).toBe(true);
    for (const name of ['dispatcher', 'webhook-delivery', 'carrier-sim']) expect(ingressRules(name).some(open)).toBe(false);
  });

  it('let the workers be reached only by the monitoring namespace on their metrics port', () => {
    for (const name of ['dispatcher', 'webhook-delivery']) {
      const rules = ingressRules(name);
      expect(rules).toHaveLength(1);
      expect(rules[0].from).toEqual([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }]);
      expect(rules[0].ports).toEqual([{ protocol: 'TCP', port: 'health' }]);
    }
  });

  it('let the callers of the outside world reach public addresses only, and the gateway no further than its stores', () => {
    for (const name of ['dispatcher', 'webhook-delivery']) {
      const publicRule = policiesFor(name).flatMap((p) => p.spec.egress ?? []).find((r: Loose) => r.to?.[0]?.ipBlock);
      expect(publicRule.to[0].ipBlock.except).toEqual(expect.arrayContaining(['10.0.0.0/8', '169.254.0.0/16', '192.168.0.0/16']));
    }
    const gatewayEgress = policiesFor('api-gateway').flatMap((p) => p.spec.egress ?? []);
    const ports = gatewayEgress.flatMap((r: Loose) => r.ports.map((p: Loose) => p.port)).sort();
    expect(ports).toEqual([53, 53, 5432, 6379]);
  });
});
