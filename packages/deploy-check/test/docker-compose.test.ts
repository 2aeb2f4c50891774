import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse } from 'yaml';
import { retiredSettingProblems } from '@switchboard/runtime';
import { REPO_DIR } from '../src';
import type { Loose } from './chart-objects';

// Docker is not runnable here: the file's structure is checked, and its healthcheck scripts are run by node.
const compose: Loose = parse(readFileSync(join(REPO_DIR, 'docker-compose.yml'), 'utf8'), { merge: true });
const services: [string, Loose][] = Object.entries(compose.services);
const longRunning = services.filter(([name]) => name !== 'migrate');

function healthcheckScript(service: Loose): string {
  const [form, node, flag, script] = service.healthcheck.test;
  expect([form, node, flag]).toEqual(['CMD', 'node', '-e']);
  return script;
}

describe('docker-compose.yml', () => {
  it('gives every long-running service a healthcheck', () => {
    for (const [, service] of longRunning) expect(service.healthcheck?.test).toBeDefined();
  });

  it("probes each service's /readyz on the port its environment sets", () => {
    for (const [name, service] of longRunning.filter(([, s]) => s.build)) {
      const env = service.environment;
      const port = env.PORT;
      expect({ name, script: healthcheckScript(service) }).toEqual({ name, script: expect.stringContaining(`http://127.0.0.1:${port}/readyz`) });
    }
  });

  it('runs migrate once, after PostgreSQL is healthy, and starts every service using the store only after it succeeded', () => {
    const migrate = compose.services.migrate;
    expect(migrate.command).toEqual(['node', 'packages/store/dist/migrate.main.js']);
    expect(migrate.restart).toBe('no');
    expect(migrate.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    const storeUsers = longRunning.filter(([, s]) => s.environment?.DATABASE_URL);
    expect(storeUsers.map(([name]) => name).sort()).toEqual(['api-gateway', 'dispatcher', 'webhook-delivery']);
    for (const [, service] of storeUsers) {
      expect(service.depends_on.migrate).toEqual({ condition: 'service_completed_successfully' });
    }
  });

  it('sets no variable the services no longer read (they would refuse to start)', () => {
    for (const [name, service] of services) expect({ name, retired: retiredSettingProblems(service.environment ?? {}) }).toEqual({ name, retired: [] });
  });

  it('waits only on dependencies that have a healthcheck to wait for', () => {
    for (const [, service] of services) {
      for (const [dependency, { condition }] of Object.entries<Loose>(service.depends_on ?? {})) {
        if (condition === 'service_healthy') expect(compose.services[dependency].healthcheck).toBeDefined();
      }
    }
  });

  describe('the healthcheck script', () => {
    let server: Server;
    let status = 200;
    beforeAll(async () => {
      server = createServer((_req, res) => res.writeHead(status).end());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    // Asynchronous: the server answering the script lives in this process.
    const run = (port: number) => {
      const script = healthcheckScript(compose.services['api-gateway']).replace(/127\.0\.0\.1:\d+/, `127.0.0.1:${port}`);
      return new Promise<number | null>((resolve) => execFile(process.execPath, ['-e', script], (error) => resolve(error ? (error.code as number) : 0)));
    };

    it('exits 0 when ready, 1 when not ready or not listening', async () => {
      const { port } = server.address() as AddressInfo;
      status = 200;
      expect(await run(port)).toBe(0);
      status = 503;
      expect(await run(port)).toBe(1);
      expect(await run(1)).toBe(1);
    });
  });
});
