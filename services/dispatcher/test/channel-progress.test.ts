import { currentChannel, fallbackChannel } from '../src/dispatch/channel-progress';

const plan = ['chat', 'rcs', 'sms'] as const;

describe('currentChannel', () => {
  it('starts with the first plan channel', () => {
    expect(currentChannel(plan, [])).toBe('chat');
  });

  it('skips channels whose attempt failed', () => {
    expect(currentChannel(plan, [{ channel: 'chat', status: 'failed' }])).toBe('rcs');
    expect(
      currentChannel(plan, [
        { channel: 'chat', status: 'failed' },
        { channel: 'rcs', status: 'failed' },
      ]),
    ).toBe('sms');
  });

  it.each(['sending', 'pending', 'unknown', 'sent'])('stays on a channel whose attempt is %s', (status) => {
    expect(
      currentChannel(plan, [
        { channel: 'chat', status: 'failed' },
        { channel: 'rcs', status },
      ]),
    ).toBe('rcs');
  });

  it('moves past a channel whose attempt was abandoned after its fallback timeout, whatever its receipts say', () => {
    expect(currentChannel(plan, [{ channel: 'chat', status: 'delivered', abandoned_at: new Date() }])).toBe('rcs');
  });

  it('follows the plan order, not the order of the attempts', () => {
    expect(currentChannel(['sms', 'chat'], [{ channel: 'sms', status: 'failed' }])).toBe('chat');
  });

  it('answers null once every channel failed', () => {
    expect(
      currentChannel(
        plan,
        plan.map((channel) => ({ channel, status: 'failed' })),
      ),
    ).toBeNull();
  });
});

describe('fallbackChannel', () => {
  it('names the next channel for auto', () => {
    expect(fallbackChannel('auto', plan, [], 'chat')).toBe('rcs');
    expect(fallbackChannel('auto', plan, [], 'rcs')).toBe('sms');
  });

  it('has none after the last channel', () => {
    expect(fallbackChannel('auto', plan, [], 'sms')).toBeNull();
  });

  it('skips a later channel that already failed', () => {
    expect(fallbackChannel('auto', plan, [{ channel: 'rcs', status: 'failed' }], 'chat')).toBe('sms');
  });

  it('never falls back for a named channel', () => {
    expect(fallbackChannel('chat', ['chat'], [], 'chat')).toBeNull();
  });
});
