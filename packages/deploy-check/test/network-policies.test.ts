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
      const publicRule = policiesFor(name)
        .flatMap((p) => p.spec.egress ?? [])
        .find((r: Loose) => r.to?.[0]?.ipBlock);
      expect(publicRule.to[0].ipBlock.except).toEqual(expect.arrayContaining(['10.0.0.0/8', '169.254.0.0/16', '192.168.0.0/16']));
    }
    const gatewayEgress = policiesFor('api-gateway').flatMap((p) => p.spec.egress ?? []);
    const ports = gatewayEgress.flatMap((r: Loose) => r.ports.map((p: Loose) => p.port)).sort();
    expect(ports).toEqual([53, 53, 5432, 6379]);
  });
});

describe('the voice orchestrator NetworkPolicies', () => {
  const voiceEnv = (objs: KubeObject[]) => {
    const deployment = ofKind(objs, 'Deployment').find((d) => d.metadata.name === 'sb-switchboard-voice-orchestrator')!;
    return Object.fromEntries((deployment.spec.template.spec.containers[0].env as Array<{ name: string; value: string }>).map((e) => [e.name, e.value]));
  };

  it('let SIP and the RTP port range in from, and out to, the trunk CIDRs only, over UDP', () => {
    const sipRtp = policies.find((p) => p.metadata.name === 'sb-switchboard-voice-orchestrator-sip-rtp')!;
    const trunk = [{ ipBlock: { cidr: '203.0.113.0/24' } }, { ipBlock: { cidr: '198.51.100.10/32' } }];
    expect(sipRtp.spec.ingress).toEqual([
      {
        from: trunk,
        ports: [
          { protocol: 'UDP', port: 5060 },
          { protocol: 'UDP', port: 20000, endPort: 20999 },
        ],
      },
    ]);
    expect(sipRtp.spec.egress).toEqual([
      {
        to: trunk,
        ports: [
          { protocol: 'UDP', port: 5060 },
          { protocol: 'UDP', port: 1024, endPort: 65535 },
        ],
      },
    ]);
    // The process binds exactly what the policy opens.
    expect(voiceEnv(objects)).toMatchObject({ VOICE_SIP_LISTEN: '0.0.0.0:5060', VOICE_RTP_PORTS: '20000-20999' });
    // From anywhere else, nothing: no ingress rule of the orchestrator is open to any source.
    expect(ingressRules('voice-orchestrator').some((rule: Loose) => rule.from === undefined)).toBe(false);
  });

  it('follow the configured ports, and open no SIP or RTP at all without trunk CIDRs', () => {
    const custom = renderChart({
      valuesFiles: [TEST_VALUES],
      set: {
        'voiceOrchestrator.sipBindAddress': '10.0.0.9',
        'voiceOrchestrator.sipPort': '5080',
        'voiceOrchestrator.rtpPorts.min': '30000',
        'voiceOrchestrator.rtpPorts.max': '30199',
      },
    });
    const sipRtp = ofKind(custom, 'NetworkPolicy').find((p) => p.metadata.name === 'sb-switchboard-voice-orchestrator-sip-rtp')!;
    expect(sipRtp.spec.ingress[0].ports).toEqual([
      { protocol: 'UDP', port: 5080 },
      { protocol: 'UDP', port: 30000, endPort: 30199 },
    ]);
    expect(voiceEnv(custom)).toMatchObject({ VOICE_SIP_LISTEN: '10.0.0.9:5080', VOICE_RTP_PORTS: '30000-30199' });
    // The chart owns the listen address: one set in env could open a port the policy keeps shut.
    expect(() => renderChart({ valuesFiles: [TEST_VALUES], set: { 'voiceOrchestrator.env.VOICE_SIP_LISTEN': '0.0.0.0:5099' } })).toThrow(
      /sipBindAddress and sipPort instead/,
    );

    const noTrunk = ofKind(renderChart({ set: { 'secret.existingSecret': 'sb-env' } }), 'NetworkPolicy');
    expect(noTrunk.some((p) => p.metadata.name === 'sb-switchboard-voice-orchestrator-sip-rtp')).toBe(false);
    const udp = noTrunk
      .flatMap((p) => [...(p.spec.ingress ?? []), ...(p.spec.egress ?? [])])
      .flatMap((r: Loose) => r.ports ?? [])
      .filter((port: Loose) => port.protocol === 'UDP');
    expect(udp.map((port: Loose) => port.port)).toEqual([53]); // DNS only
  });

  it('let the orchestrator reach Redis, PostgreSQL and public HTTPS, and nothing private', () => {
    const egress = policiesFor('voice-orchestrator').flatMap((p) => p.spec.egress ?? []);
    const tcpPorts = egress.flatMap((r: Loose) => r.ports.filter((p: Loose) => p.protocol === 'TCP' && !r.to?.[0]?.podSelector).map((p: Loose) => p.port));
    expect(tcpPorts).toEqual(expect.arrayContaining([5432, 6379, 443]));
    const publicRule = egress.find((r: Loose) => r.to?.[0]?.ipBlock?.cidr === '0.0.0.0/0');
    expect(publicRule.to[0].ipBlock.except).toEqual(expect.arrayContaining(['10.0.0.0/8', '169.254.0.0/16', '127.0.0.0/8']));
    expect(publicRule.ports).toEqual([{ protocol: 'TCP', port: 443 }]);
  });
});
