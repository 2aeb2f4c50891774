import { parseRbmEvent } from '../src/rcs/rbm-event.parser';

function push(event: unknown) {
  return {
    message: { data: Buffer.from(JSON.stringify(event)).toString('base64'), messageId: '1', publishTime: '2025-01-01T00:00:00Z' },
    subscription: 'projects/p/subscriptions/s',
  };
}

describe('parseRbmEvent', () => {
  it('reads DELIVERED as a receipt keyed by our messageId', () => {
    const parsed = parseRbmEvent(
      push({
        senderPhoneNumber: '+15550001111',
        eventType: 'DELIVERED',
        eventId: 'ev1',
        messageId: 'msg_01',
        sendTime: '2025-03-01T10:00:00.123456Z',
        agentId: 'agent',
      }),
    );
    expect(parsed.inbound).toEqual([]);
    expect(parsed.receipts).toEqual([
      {
        channel: 'rcs',
        upstreamMessageId: 'msg_01',
        clientRef: 'msg_01',
        recipient: '+15550001111',
        status: 'delivered',
        carrierStatusCode: 'DELIVERED',
        occurredAt: '2025-03-01T10:00:00.123Z',
      },
    ]);
  });

  it('reads READ', () => {
    const { receipts } = parseRbmEvent(
      push({ senderPhoneNumber: '+15550001111', eventType: 'READ', eventId: 'ev2', messageId: 'msg_01', sendTime: '2025-03-01T10:00:05Z' }),
    );
    expect(receipts[0]).toMatchObject({ status: 'read', carrierStatusCode: 'READ' });
  });

  it('skips IS_TYPING', () => {
    expect(parseRbmEvent(push({ senderPhoneNumber: '+15550001111', eventType: 'IS_TYPING', eventId: 'ev3', sendTime: '2025-03-01T10:00:05Z' }))).toEqual({
      receipts: [],
      inbound: [],
    });
  });

  it('reads a user text', () => {
    const { inbound } = parseRbmEvent(
      push({ senderPhoneNumber: '+15550001111', messageId: 'MxABC', sendTime: '2025-03-01T10:01:00Z', text: 'Hello there', agentId: 'agent-1' }),
    );
    expect(inbound).toEqual([
      { channel: 'rcs', upstreamId: 'MxABC', from: '+15550001111', to: 'agent-1', type: 'text', text: 'Hello there', receivedAt: '2025-03-01T10:01:00.000Z' },
    ]);
  });

  it('reports the configured agent number as the recipient', () => {
    const { inbound } = parseRbmEvent(
      push({ senderPhoneNumber: '+15550001111', messageId: 'Mx1', sendTime: '2025-03-01T10:01:00Z', text: 'hi', agentId: 'agent-1' }),
      { agentPhoneNumber: '+15550009999' },
    );
    expect(inbound[0].to).toBe('+15550009999');
  });

  it('reads a suggestionResponse as a reply', () => {
    const { inbound } = parseRbmEvent(
      push({
        senderPhoneNumber: '+15550001111',
        messageId: 'MxDEF',
        sendTime: '2025-03-01T10:02:00Z',
        suggestionResponse: { postbackData: 'confirm', text: 'Confirm' },
        agentId: 'agent-1',
      }),
    );
    expect(inbound[0]).toMatchObject({ type: 'reply', reply: { id: 'confirm', title: 'Confirm' }, text: 'Confirm' });
  });

  it('accepts a bare event as well as the Pub/Sub envelope', () => {
    const { receipts } = parseRbmEvent({ senderPhoneNumber: '+15550001111', eventType: 'DELIVERED', messageId: 'msg_02', sendTime: '2025-03-01T10:00:00Z' });
    expect(receipts).toHaveLength(1);
  });

  it.each([
    ['null', null],
    ['a string', 'x'],
    ['bad base64 JSON', { message: { data: '!!!not base64 json' } }],
    ['data that decodes to an array', { message: { data: Buffer.from('[1,2]').toString('base64') } }],
    ['an event without messageId', push({ senderPhoneNumber: '+1555', eventType: 'DELIVERED' })],
    ['a user message without content', push({ senderPhoneNumber: '+1555', messageId: 'M' })],
    ['an unknown event type', push({ senderPhoneNumber: '+1555', eventType: 'SOMETHING', messageId: 'M' })],
  ])('returns nothing for %s', (_label, body) => {
    expect(() => parseRbmEvent(body)).not.toThrow();
    expect(parseRbmEvent(body)).toEqual({ receipts: [], inbound: [] });
  });
});
