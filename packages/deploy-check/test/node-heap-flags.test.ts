import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { helm, renderChart, CHART_DIR, REPO_DIR, type KubeObject } from '../src';
import { byComponent, environmentOf, ofKind, type Loose } from './chart-objects';
import { SERVICE_NODE_FLAGS } from '../../devstack/src/service-node-flags';

// The V8 heap flags are set in four places (docs/operations.md#memory): devstack's spawn (npm start, tests,
// benches), the image, docker-compose and the chart. A bench only measures what a deployment runs if they agree.
const REQUIRED = {
  'secret.values.DATABASE_URL': 'postgres://u:p@db:5432/sb',
  'secret.values.REDIS_URL': 'redis://redis:6379',
  'secret.values.SECRETS_ENCRYPTION_KEYS': 'k1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=',
};
const SERVICES = ['api-gateway', 'dispatcher', 'voice-orchestrator', 'webhook-delivery'] as const;
const dockerfile = readFileSync(join(REPO_DIR, 'Dockerfile'), 'utf8');

const nodeOptionsOf = (objects: KubeObject[], name: string) => environmentOf(objects, byComponent(objects, 'Deployment', name)).NODE_OPTIONS;

describe('V8 heap flags', () => {
  it('starts each image with the young generation devstack gives that service', () => {
    const cmd = (JSON.parse(/^CMD (.*)$/m.exec(dockerfile)?.[1] ?? '[]') as string[]).join(' ');
    // Each `a|b) young=<flag>;;` arm of the CMD's case gives its services that flag.
    const youngFlagOf = new Map<string, string>();
    for (const arm of cmd.matchAll(/(?<=in |;; )([a-z|-]+)\) young=(\S+);;/g)) {
      for (const name of arm[1].split('|')) youngFlagOf.set(name, arm[2]);
    }
    expect(youngFlagOf.size).toBeGreaterThan(0);
    expect(cmd).toContain('exec node $young services/${SERVICE}/dist/main.js');
    for (const name of [...SERVICES, 'carrier-sim'] as const) {
      const semiSpace = SERVICE_NODE_FLAGS[name].find((flag) => flag.startsWith('--max-semi-space-size='));
      expect({ name, flag: youngFlagOf.get(name) }).toEqual({ name, flag: semiSpace });
    }
  });

  it("caps the dispatcher's old generation in docker-compose where devstack caps it", () => {
    const compose: Loose = parse(readFileSync(join(REPO_DIR, 'docker-compose.yml'), 'utf8'), { merge: true });
    for (const name of [...SERVICES, 'carrier-sim'] as const) {
      const oldSpace = SERVICE_NODE_FLAGS[name].find((flag) => flag.startsWith('--max-old-space-size='));
      expect({ name, flag: compose.services[name]?.environment?.NODE_OPTIONS }).toEqual({ name, flag: oldSpace });
    }
  });

  it("sizes each container's old generation to three quarters of its memory limit", () => {
    const defaults = renderChart({ set: { ...REQUIRED, 'carrierSim.enabled': 'true' } });
    for (const name of SERVICES) expect(nodeOptionsOf(defaults, name)).toBe('--max-old-space-size=384');
    expect(nodeOptionsOf(defaults, 'carrier-sim')).toBe('--max-old-space-size=192');

    const resized = renderChart({ set: { ...REQUIRED, 'dispatcher.resources.limits.memory': '1Gi', 'apiGateway.resources.limits': 'null' } });
    expect(nodeOptionsOf(resized, 'dispatcher')).toBe('--max-old-space-size=768');
    // No limit: the chart sets nothing and the image's own cap applies.
    expect(nodeOptionsOf(resized, 'api-gateway')).toBeUndefined();
    expect(ofKind(resized, 'Deployment')).toHaveLength(SERVICES.length);
  });

  it('refuses a memory limit it cannot size the heap from', () => {
    const args = ['template', 'sb', CHART_DIR, '--kube-version', '1.29.0', '--set', 'dispatcher.resources.limits.memory=1G'];
    for (const [key, value] of Object.entries(REQUIRED)) args.push('--set', `${key}=${value}`);
    expect(() => helm(args)).toThrow(/resources\.limits\.memory "1G".*docs\/operations\.md#memory/);
  });
});
