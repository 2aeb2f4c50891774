import type { ConcreteChannel } from '@switchboard/domain';
import type { DependencyGuard } from '../src/http/dependency-guard';
import type { SenderPlan } from '../src/messages/sender-resolution';
import { createSuppressionGate } from '../src/messages/suppression.gate';

const guard: DependencyGuard = (_dependency, call) => call();
const TO = '+447911123400';
const smsAndRcs: SenderPlan = { plan: ['sms', 'rcs'], senders: { sms: { e164: '+14155550100' }, rcs: { e164: '+14155550100' } } };

function gate(suppressed: ConcreteChannel[]) {
  const asked: Array<{ accountId: string; recipient: string; channels: readonly ConcreteChannel[] }> = [];
  const check = createSuppressionGate({
    suppressedChannels: async (accountId, recipient, channels) => {
      asked.push({ accountId, recipient, channels });
      return new Set(channels.filter((c) => suppressed.includes(c)));
    },
    guard,
  });
  return { check, asked };
}

describe('suppression gate', () => {
  it('asks once for every channel of the plan and passes a recipient nobody suppressed', async () => {
    const { check, asked } = gate([]);
    expect(await check('acc_1', TO, smsAndRcs)).toBe(smsAndRcs);
    expect(asked).toEqual([{ accountId: 'acc_1', recipient: TO, channels: ['sms', 'rcs'] }]);
  });

  it('refuses a concrete channel the recipient opted out of, naming /recipient', async () => {
    const { check } = gate(['sms']);
    await expect(check('acc_1', TO, { plan: ['sms'], senders: { sms: { e164: '+14155550100' } } })).rejects.toMatchObject({
      status: 422,
      code: 'recipient_opted_out',
      errors: [{ field: '/recipient' }],
    });
  });

  it('skips a suppressed channel of an auto plan and keeps earlier skips', async () => {
    const { check } = gate(['sms']);
    const gated = await check('acc_1', TO, { ...smsAndRcs, plan: ['chat', 'sms', 'rcs'], skipped: { chat: 'outside_customer_service_window' } });
    expect(gated.skipped).toEqual({ chat: 'outside_customer_service_window', sms: 'recipient_opted_out' });
  });

  it('refuses when every channel is suppressed or skipped', async () => {
    const { check } = gate(['sms']);
    await expect(check('acc_1', TO, { ...smsAndRcs, skipped: { rcs: 'outside_customer_service_window' } })).rejects.toMatchObject({
      code: 'recipient_opted_out',
    });
  });
});
