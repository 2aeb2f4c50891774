import { retiredSettingProblems } from '@switchboard/runtime';
import { helm, renderChart, validateObjects, CHART_DIR, TEST_VALUES, type KubeObject } from '../src';
import { byComponent, environmentOf, ofKind, SAMPLE_POD_IP, type Loose } from './chart-objects';
import { loadConfig as loadGatewayConfig } from '../../../services/api-gateway/src/config';
import { loadConfig as loadDispatcherConfig } from '../../../services/dispatcher/src/config';
import { loadConfig as loadWebhookDeliveryConfig } from '../../../services/webhook-delivery/src/config';
import { loadConfig as loadVoiceConfig } from '../../../services/voice-orchestrator/src/config';
import { loadConfig as loadSimConfig } from '../../../services/carrier-sim/src/config';

const REQUIRED = {
  'secret.values.DATABASE_URL': 'postgres://u:p@db:5432/sb',
  'secret.values.REDIS_URL': 'redis://redis:6379',
  'secret.values.SECRETS_ENCRYPTION_KEYS': 'k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=',
};
const SERVICES = ['api-gateway', 'dispatcher', 'voice-orchestrator', 'webhook-delivery'];

let full: KubeObject[];
let defaults: KubeObject[];

beforeAll(() => {
  full = renderChart({ valuesFiles: [TEST_VALUES] });
  defaults = renderChart({ set: REQUIRED });
});

describe('rendering', () => {
  it('passes helm lint with the CI values', () => {
    expect(helm(['lint', CHART_DIR, '-f', TEST_VALUES])).toContain('0 chart(s) failed');
  });

  it('validates every object against the Kubernetes, KEDA and Prometheus Operator schemas', () => {
    for (const objects of [full, defaults]) {
      const results = validateObjects(objects);
      expect(results).toHaveLength(objects.length);
      expect(results.filter((r) => r.error !== null)).toEqual([]);
    }
    const kinds = new Set(full.map((o) => o.kind));
    for (const kind of [
      'Deployment',
      'Service',
      'PodDisruptionBudget',
      'ServiceMonitor',
      'ScaledObject',
      'HorizontalPodAutoscaler',
      'NetworkPolicy',
      'Job',
      'ConfigMap',
      'Secret',
    ]) {
      expect(kinds).toContain(kind);
    }
  });

  it('rejects an object that breaks its schema, and a kind it has no schema for', () => {
    const deployment = structuredClone(byComponent(full, 'Deployment', 'dispatcher'));
    deployment.spec.template.spec.containers[0].ports[0].containerPort = 'eighty';
    const [broken, unknown] = validateObjects([deployment, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }]);
    expect(broken.error).toMatch(/containerPort/);
    expect(unknown.error).toMatch(/no schema/);
  });

  it('refuses to render without the store and Redis addresses unless an existing Secret is named', () => {
    expect(() => renderChart()).toThrow(/DATABASE_URL is required/);
    const external = renderChart({ set: { 'secret.existingSecret': 'switchboard-prod' } });
    expect(ofKind(external, 'Secret')).toEqual([]);
    const envFrom = byComponent(external, 'Deployment', 'dispatcher').spec.template.spec.containers[0].envFrom;
    expect(envFrom).toContainEqual({ secretRef: { name: 'switchboard-prod' } });
  });

  it('deploys the three services by default; the carrier simulator only when asked', () => {
    expect(
      ofKind(defaults, 'Deployment')
        .map((d) => d.metadata.name)
        .sort(),
    ).toEqual(SERVICES.map((s) => `sb-switchboard-${s}`));
    expect(ofKind(full, 'Deployment')).toHaveLength(SERVICES.length + 1);
  });
});

describe('each Deployment', () => {
  const deployments = () => ofKind(full, 'Deployment');

  it('probes /readyz and /healthz on the port its service serves them on', () => {
    for (const d of deployments()) {
      const container = d.spec.template.spec.containers[0];
      const port = container.ports[0];
      expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: port.name });
      expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: port.name });
      expect(container.startupProbe.httpGet).toEqual({ path: '/healthz', port: port.name });
    }
  });

  it('has requests and limits, runs as non-root on a read-only root filesystem with a writable /tmp', () => {
    for (const d of deployments()) {
      const pod = d.spec.template.spec;
      const container = pod.containers[0];
      for (const part of ['requests', 'limits']) expect(Object.keys(container.resources[part]).sort()).toEqual(['cpu', 'memory']);
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
      expect(container.securityContext).toMatchObject({ runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
      expect(container.securityContext.capabilities.drop).toEqual(['ALL']);
      const tmp = container.volumeMounts.find((m: Loose) => m.mountPath === '/tmp');
      expect(pod.volumes.find((v: Loose) => v.name === tmp.name).emptyDir).toBeDefined();
      expect(pod.automountServiceAccountToken).toBe(false);
    }
  });

  it('pauses in preStop and has a grace period longer than the pause plus the drain', () => {
    for (const d of deployments()) {
      const pod = d.spec.template.spec;
      const [command, seconds] = pod.containers[0].lifecycle.preStop.exec.command;
      expect(command).toBe('sleep');
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(Number(seconds) + 15);
    }
  });

  it('gives each service an environment its own config accepts, listening where the probes knock', () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`config rejected the chart's environment (exit ${code})`);
    });
    try {
      const portOf = (name: string) => byComponent(full, 'Deployment', name).spec.template.spec.containers[0].ports[0].containerPort;
      const envOf = (name: string) => environmentOf(full, byComponent(full, 'Deployment', name));
      const gateway = loadGatewayConfig(envOf('api-gateway'));
      expect(gateway).toMatchObject({ host: '0.0.0.0', port: portOf('api-gateway') });
      const dispatcher = loadDispatcherConfig(envOf('dispatcher'));
      expect(dispatcher).toMatchObject({ healthHost: '0.0.0.0', healthPort: portOf('dispatcher'), concurrency: 32 });
      expect(dispatcher.sandbox.chat[0]?.baseUrl).toBe('http://sb-switchboard-carrier-sim:8090');
      expect(dispatcher.sandbox.sms[0]).toMatchObject({ host: 'sb-switchboard-carrier-sim', port: 2775 });
      expect(loadVoiceConfig(envOf('voice-orchestrator'))).toMatchObject({
        healthPort: portOf('voice-orchestrator'),
        rtpPorts: { min: 20000, max: 20999 },
        sandboxTrunk: { host: 'sb-switchboard-carrier-sim', port: 5070 },
        sandboxLlmBaseUrl: 'http://sb-switchboard-carrier-sim:8090',
        sipListen: { address: '0.0.0.0', port: 5060 },
        sipPublicAddress: SAMPLE_POD_IP,
      });
      expect(loadSimConfig(envOf('carrier-sim'))).toMatchObject({ host: '0.0.0.0', httpPort: portOf('carrier-sim') });
      expect(loadWebhookDeliveryConfig(envOf('webhook-delivery'))).toMatchObject({ healthHost: '0.0.0.0', healthPort: portOf('webhook-delivery') });
      for (const name of SERVICES) expect({ name, retired: retiredSettingProblems(envOf(name)) }).toEqual({ name, retired: [] });
    } finally {
      exit.mockRestore();
    }
  });

  it('has a PodDisruptionBudget and a ServiceMonitor scraping /metrics on its probe port', () => {
    // A worker may run one replica: a minAvailable budget would block every node drain.
    expect(byComponent(full, 'PodDisruptionBudget', 'api-gateway').spec).toMatchObject({ minAvailable: 1 });
    for (const worker of ['dispatcher', 'webhook-delivery']) expect(byComponent(full, 'PodDisruptionBudget', worker).spec).toMatchObject({ maxUnavailable: 1 });
    for (const name of SERVICES) {
      const selector = byComponent(full, 'Deployment', name).spec.selector.matchLabels;
      expect(byComponent(full, 'PodDisruptionBudget', name).spec.selector.matchLabels).toEqual(selector);
      const service = byComponent(full, 'Service', name);
      expect(service.spec.selector).toEqual(selector);
      const monitor = byComponent(full, 'ServiceMonitor', name);
      expect(monitor.spec.selector.matchLabels).toEqual(selector);
      expect(monitor.spec.endpoints).toEqual([expect.objectContaining({ port: service.spec.ports[0].name, path: '/metrics' })]);
    }
  });
});

describe('scaling and start-up order', () => {
  it('scales the gateway on CPU with an HPA that owns its replica count', () => {
    const hpa = byComponent(full, 'HorizontalPodAutoscaler', 'api-gateway');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'sb-switchboard-api-gateway' });
    expect(hpa.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: expect.objectContaining({ type: 'Utilization' }) } }]);
    expect(byComponent(full, 'Deployment', 'api-gateway').spec.replicas).toBeUndefined();
    expect(
      ofKind(full, 'ScaledObject')
        .map((s) => s.spec.scaleTargetRef.name)
        .sort(),
    ).toEqual(['sb-switchboard-dispatcher', 'sb-switchboard-voice-orchestrator', 'sb-switchboard-webhook-delivery']);
  });

  it('migrates in a pre-install/pre-upgrade hook Job that runs the standalone entrypoint', () => {
    const job = byComponent(full, 'Job', 'migrate');
    expect(job.metadata.annotations['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    const container = job.spec.template.spec.containers[0];
    expect(container.command).toEqual(['node', 'packages/store/dist/migrate.main.js']);
    expect(container.env).toContainEqual({ name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 'sb-switchboard-env', key: 'DATABASE_URL' } } });
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    // The Secret it reads must exist before it: a hook of lower weight.
    const secret = ofKind(full, 'Secret')[0];
    expect(Number(secret.metadata.annotations['helm.sh/hook-weight'])).toBeLessThan(Number(job.metadata.annotations['helm.sh/hook-weight']));
  });
});
