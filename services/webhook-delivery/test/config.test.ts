import { randomBytes } from 'node:crypto';
import { loadConfig } from '../src/config';

const base = { DATABASE_URL: 'postgres://localhost/x', SECRETS_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}` };

// RETENTION_MONTHS (docs/configuration.md#webhook-delivery, docs/operations.md#retention): unset keeps every month.
describe('webhook-delivery config: RETENTION_MONTHS', () => {
  it('is unset by default and reads a positive number of months', () => {
    expect(loadConfig(base).retentionMonths).toBeUndefined();
    expect(loadConfig({ ...base, RETENTION_MONTHS: '' }).retentionMonths).toBeUndefined();
    expect(loadConfig({ ...base, RETENTION_MONTHS: '6' }).retentionMonths).toBe(6);
  });

  it.each(['0', '-1', '1.5', 'twelve'])('refuses %s and names the setting', (value) => {
    const exit = jest.spyOn(process, 'exit').mockImplementation(() => {
      throw new Error('exited');
    });
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(() => loadConfig({ ...base, RETENTION_MONTHS: value })).toThrow('exited');
      expect(exit).toHaveBeenCalledWith(78);
      expect(String(stderr.mock.calls[0][0])).toContain(`RETENTION_MONTHS must be an integer in 1..`);
    } finally {
      exit.mockRestore();
      stderr.mockRestore();
    }
  });
});
