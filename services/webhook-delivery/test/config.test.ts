import { randomBytes } from 'node:crypto';
import { loadConfig } from '../src/config';
import { OUTBOX_SWEEP_AGE_MS, OUTBOX_SWEEP_INTERVAL_MS } from '../src/outbox-sweeper';
import { WEBHOOK_DISABLE_AFTER_MS } from '../src/processors/delivery-attempt';

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

// docs/configuration.md lists both as constants: an endpoint is disabled after 5 days of failures, as svix does, and the
// outbox sweeper leaves an event to its producer for 5 s.
describe('webhook-delivery config: the disable limit and the outbox age are constants', () => {
  it('are 5 days and 5 s, swept five times per age', () => {
    expect(WEBHOOK_DISABLE_AFTER_MS).toBe(5 * 24 * 3_600_000);
    expect([OUTBOX_SWEEP_AGE_MS, OUTBOX_SWEEP_INTERVAL_MS]).toEqual([5_000, 1_000]);
  });

  it.each(['WEBHOOK_DISABLE_AFTER_MS', 'OUTBOX_SWEEP_AGE_MS'])('refuses %s, naming what replaced it', (name) => {
    const exit = jest.spyOn(process, 'exit').mockImplementation(() => {
      throw new Error('exited');
    });
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(() => loadConfig({ ...base, [name]: '1500' })).toThrow('exited');
      expect(exit).toHaveBeenCalledWith(78);
      expect(String(stderr.mock.calls[0][0])).toContain(`${name} is no longer read; use nothing: it is a constant now`);
    } finally {
      exit.mockRestore();
      stderr.mockRestore();
    }
  });
});
