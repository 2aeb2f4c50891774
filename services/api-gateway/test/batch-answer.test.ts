import { UnprocessableError, ValidationError } from '@switchboard/domain';
import type { SendMessageJob } from '@switchboard/queues';
import { batchAnswerJson, type Outcome } from '../src/batches/batch-answer';
import { problemDocument } from '../src/http/problem';
import { acceptedBody } from '../src/messages/message-acceptance';

function job(overrides: Partial<SendMessageJob>): SendMessageJob {
  return {
    message_id: 'msg_01JDZ0000000000000000000A1',
    account_id: 'acc_1',
    mode: 'test',
    channel: 'sms',
    plan: ['sms'],
    senders: { sms: '+15550001111' },
    recipient: '+447911123456',
    cost_units: 2,
    created_at: '2026-11-23T21:00:00.123Z',
    ...overrides,
  };
}

describe('batch answer', () => {
  it('writes the same bytes as JSON.stringify of the answer object, in item order', () => {
    const outcomes: Outcome[] = [
      { job: job({}) },
      { error: new ValidationError([{ field: '/messages/1/recipient', message: 'is not a valid "E.164" number' }]) },
      { job: job({ message_id: 'msg_2', channel: 'auto', recipient: '+14155550100', cost_units: 0.5, scheduled_until: '2026-11-24T08:00:00.000Z' }) },
      { error: new UnprocessableError('recipient_opted_out', 'The recipient opted out.', [{ field: '/messages/3/recipient', message: 'opted out' }]) },
      { job: job({ message_id: 'msg_3', channel: 'chat', cost_units: 1 }) },
    ];
    const results = outcomes.map((o) => ('job' in o ? acceptedBody(o.job) : problemDocument(o.error, 'req_1')));
    const expected = JSON.stringify({ batch_id: 'bat_1', created_at: '2026-11-23T21:00:00.000Z', accepted: 3, rejected: 2, results });

    expect(batchAnswerJson('bat_1', '2026-11-23T21:00:00.000Z', outcomes, 'req_1')).toBe(expected);
  });
});
