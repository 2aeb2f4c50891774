import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '@switchboard/devstack';

// A service that reads or writes signing secrets refuses to start without a usable key, and says why
// (docs/configuration.md, SECRETS_ENCRYPTION_KEYS). The check runs before any connection is made.
describe.each(['api-gateway', 'webhook-delivery'])('%s start-up', (service) => {
  const start = (keys: string | undefined) =>
    spawnSync(process.execPath, [join(REPO_ROOT, 'services', service, 'dist', 'main.js')], {
      env: { PATH: process.env.PATH, DATABASE_URL: 'postgres://127.0.0.1:1/none', ...(keys === undefined ? {} : { SECRETS_ENCRYPTION_KEYS: keys }) },
      encoding: 'utf8',
      timeout: 20_000,
    });

  it('fails with a clear message when SECRETS_ENCRYPTION_KEYS is missing', () => {
    const run = start(undefined);
    expect(run.status).toBe(78);
    expect(run.stderr).toContain('SECRETS_ENCRYPTION_KEYS is required: "<kid>:<base64 of 32 random bytes>');
  });

  it('names what is wrong with a malformed key without echoing it', () => {
    const run = start('k1:c2hvcnQta2V5');
    expect(run.status).toBe(78);
    expect(run.stderr).toContain('SECRETS_ENCRYPTION_KEYS is invalid: key "k1" must be base64 of exactly 32 bytes, got 9');
    expect(run.stderr).not.toContain('c2hvcnQta2V5');
  });
});
