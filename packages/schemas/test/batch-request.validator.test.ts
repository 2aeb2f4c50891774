import { ApiError } from '@switchboard/domain';
import { createBatchRequestValidator, mergeBatchItem, type WebhookTargetPolicy } from '@switchboard/schemas';

const strict: WebhookTargetPolicy = { allowHttp: false, allowPrivateNetworks: false, allowedHosts: [] };
const NOW = Date.parse('2026-11-23T12:00:00Z');
const validate = createBatchRequestValidator({ webhookTargets: strict, clock: () => NOW });

const fieldsOf = (error: ApiError) => (error.errors ?? []).map((e) => e.field);

describe('POST /v1/messages/batch body', () => {
  it('checks each item as the single send it stands for and points its errors into the batch', () => {
    const { items } = validate({
      channel: 'sms',
      fallback: ['sms'],
      messages: [
        { recipient: '+14155552671', content: { text: 'ok' } },
        { recipient: '+1415', content: { text: 'bad recipient' } },
        { recipient: '+14155552672' },
        { recipient: '+14155552673', content: { text: 'x' }, send_at: 'now' },
      ],
    });
    // The shared `fallback` breaks a rule of every item (only with `auto`), and is named where the client wrote it.
    expect(items.map((i) => ('error' in i ? fieldsOf(i.error) : []))).toEqual([
      ['/fallback'],
      ['/messages/1/recipient', '/fallback'],
      ['/fallback'],
      ['/messages/3/send_at'],
    ]);
    const envelopeRefusal = (() => {
      try {
        validate({ channel: 'sms', from: 'not-a-number', messages: [{ recipient: '+14155552671' }] });
      } catch (error) {
        return fieldsOf(error as ApiError);
      }
      return [];
    })();
    expect(envelopeRefusal).toEqual(['/from']);
  });

  it('points every per-item rule into the item that breaks it, even for a field the item lacks', () => {
    const messages: unknown[] = Array.from({ length: 43 }, (_, n) => ({ recipient: `+14155552${String(600 + n)}`, content: { text: `item ${n}` } }));
    messages[42] = { recipient: '+14155552642' };
    messages[7] = { content: { text: 'no recipient' } };
    messages[9] = { recipient: '+14155552609', content: { text: 'x' }, metadata: 'not an object' };
    messages[11] = { recipient: '+14155552611', content: {} };
    const { items } = validate({ channel: 'sms', messages });
    const fields = items.map((i) => ('error' in i ? fieldsOf(i.error) : []));
    expect(fields[42]).toEqual(['/messages/42/content']);
    expect(fields[7]).toEqual(['/messages/7/recipient']);
    expect(fields[9]).toEqual(['/messages/9/metadata']);
    expect(fields[11].length).toBeGreaterThan(0);
    for (const field of fields[11]) expect(field).toMatch(/^\/messages\/11\/content/);
    expect(fields.filter((f, n) => ![7, 9, 11, 42].includes(n) && f.length > 0)).toEqual([]);
  });

  it('accepts valid items beside refused ones, with per-recipient template parameters and merged metadata', () => {
    const { items } = validate({
      channel: 'chat',
      template: { name: 'order_ready', language: 'en_US' },
      metadata: { campaign: 'spring' },
      messages: [
        { recipient: '+14155552671', template: { parameters: [{ type: 'text', text: 'Ada' }] }, metadata: { row: '1' } },
        { recipient: '+14155552672', content: { text: 'hi' } },
      ],
    });
    expect(items[0]).toEqual({
      request: {
        channel: 'chat',
        recipient: '+14155552671',
        template: { name: 'order_ready', language: 'en_US', parameters: [{ type: 'text', text: 'Ada' }] },
        metadata: { campaign: 'spring', row: '1' },
      },
    });
    expect(items[1]).toEqual({ request: { channel: 'chat', recipient: '+14155552672', content: { text: 'hi' }, metadata: { campaign: 'spring' } } });
  });

  it('refuses a bad envelope as a whole', () => {
    const refusal = (body: unknown) => {
      try {
        validate(body);
      } catch (error) {
        return fieldsOf(error as ApiError);
      }
      throw new Error('expected a refusal');
    };
    expect(refusal({ messages: [] })).toEqual(['/messages']);
    expect(refusal({ channel: 'sms', send_at: '2027-01-01T00:00:00Z', messages: [{ recipient: '+14155552671' }] })).toEqual(['/send_at']);
    expect(refusal({ channel: 'sms', messages: [{}], extra: 1 })).toEqual(['/extra']);
  });

  it('lets an item’s content replace a shared template and the other way round', () => {
    expect(mergeBatchItem({ template: { name: 't', language: 'en' } }, { recipient: '+1', content: { text: 'x' } })).toEqual({
      recipient: '+1',
      content: { text: 'x' },
    });
    expect(mergeBatchItem({ content: { text: 'x' } }, { recipient: '+1', template: { name: 't', language: 'en' } })).toEqual({
      recipient: '+1',
      template: { name: 't', language: 'en' },
    });
  });
});
