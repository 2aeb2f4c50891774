import { chatBodyPointer } from '../src/routes/chat-messages.route';

describe('chat body field pointers', () => {
  it('names the chat body field a message-request field came from', () => {
    expect(chatBodyPointer('/recipient')).toBe('/to');
    expect(chatBodyPointer('/content')).toBe('/type');
    expect(chatBodyPointer('/content/interactive/body/text')).toBe('/interactive/body/text');
    expect(chatBodyPointer('/template/name')).toBe('/template/name');
    expect(chatBodyPointer('/callback_url')).toBe('/callback_url');
  });
});
