import { ApiError } from '@switchboard/domain';
import type { NumberRecord } from '@switchboard/store';
import { resolveSenders, type SenderResolutionInput } from '../src/messages/sender-resolution';

function number(e164: string, channels: string[]): NumberRecord {
  return { id: `num_${e164}`, account_id: 'acc_1', e164, channels, chat_phone_number_id: e164.slice(1), created_at: new Date(0) };
}

const base: SenderResolutionInput = { channel: 'sms', mode: 'live', numbers: [], sandboxSender: '+14155550100' };

function codeOf(input: SenderResolutionInput): string {
  try {
    resolveSenders(input);
  } catch (error) {
    return (error as ApiError).code;
  }
  return 'none';
}

describe('sender resolution (docs/messages.md#senders)', () => {
  const numbers = [number('+14155550111', ['sms']), number('+14155550122', ['chat', 'sms']), number('+14155550133', ['rcs'])];

  it('uses the first number provisioned for the channel', () => {
    expect(resolveSenders({ ...base, numbers })).toEqual({ plan: ['sms'], senders: { sms: { e164: '+14155550111' } } });
    expect(resolveSenders({ ...base, channel: 'chat', numbers }).senders.chat).toEqual({ e164: '+14155550122', chat_phone_number_id: '14155550122' });
  });

  it('uses `from` when it is provisioned for the channel, else 422 from_number_not_provisioned', () => {
    expect(resolveSenders({ ...base, numbers, from: '+14155550122' }).senders.sms?.e164).toBe('+14155550122');
    expect(codeOf({ ...base, numbers, from: '+14155550133' })).toBe('from_number_not_provisioned');
    expect(codeOf({ ...base, numbers, from: '+14155559999' })).toBe('from_number_not_provisioned');
  });

  it('refuses a concrete channel without a sender for a live key', () => {
    expect(codeOf({ ...base, channel: 'chat', numbers: [number('+14155550111', ['sms'])] })).toBe('no_sender_for_channel');
  });

  it('drops channels without a sender from an auto plan, and refuses when none is left', () => {
    expect(resolveSenders({ ...base, channel: 'auto', numbers: [number('+14155550111', ['sms'])] }).plan).toEqual(['sms']);
    expect(resolveSenders({ ...base, channel: 'auto', fallback: ['sms', 'rcs'], numbers }).plan).toEqual(['sms', 'rcs']);
    expect(codeOf({ ...base, channel: 'auto', numbers: [] })).toBe('no_sender_for_channel');
    expect(resolveSenders({ ...base, channel: 'auto', numbers, from: '+14155550133' }).plan).toEqual(['rcs']);
  });

  it('gives test keys the sandbox sender where the account has none', () => {
    const plan = resolveSenders({ ...base, channel: 'auto', mode: 'test', numbers: [number('+14155550111', ['sms'])] });
    expect(plan.plan).toEqual(['chat', 'rcs', 'sms']);
    expect(plan.senders).toEqual({
      chat: { e164: '+14155550100', chat_phone_number_id: '14155550100' },
      rcs: { e164: '+14155550100' },
      sms: { e164: '+14155550111' },
    });
    expect(resolveSenders({ ...base, mode: 'test', from: '+14155550100' }).senders.sms?.e164).toBe('+14155550100');
    expect(codeOf({ ...base, mode: 'test', from: '+14155559999' })).toBe('from_number_not_provisioned');
  });
});
