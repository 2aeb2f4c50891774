import { validateChatMessage } from '../src/chat/chat-message.validator';
import { countPlaceholders, renderTemplateBody, templateBodyText } from '../src/chat/template-placeholders';

const base = { messaging_product: 'whatsapp', recipient_type: 'individual', to: '15550000100' };

describe('chat message validation', () => {
  it('accepts every supported type', () => {
    const bodies = [
      { type: 'text', text: { body: 'hi' } },
      { type: 'template', template: { name: 't', language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'a' }] }] } },
      {
        type: 'interactive',
        interactive: { type: 'button', body: { text: 'pick' }, action: { buttons: [{ type: 'reply', reply: { id: 'y', title: 'Yes' } }] } },
      },
      {
        type: 'interactive',
        interactive: { type: 'list', body: { text: 'pick' }, action: { button: 'Menu', sections: [{ title: 'S', rows: [{ id: 'r1', title: 'Row' }] }] } },
      },
      { type: 'image', image: { link: 'https://example.com/a.jpg', caption: 'c' } },
      { type: 'document', document: { link: 'https://example.com/a.pdf', filename: 'a.pdf' } },
      { type: 'audio', audio: { link: 'https://example.com/a.ogg' } },
      { type: 'location', location: { latitude: 1.5, longitude: -2.5, name: 'Depot' } },
    ];
    for (const body of bodies) expect(validateChatMessage({ ...base, ...body })).toMatchObject({ ok: true });
  });

  it('summarises the text a person would read', () => {
    const result = validateChatMessage({ ...base, type: 'location', location: { latitude: 1, longitude: 2 }, biz_opaque_callback_data: 'msg_1' });
    expect(result).toEqual({ ok: true, message: expect.objectContaining({ text: '1,2', bizOpaqueCallbackData: 'msg_1', to: '15550000100' }) });
  });

  it('collects template body parameters', () => {
    const result = validateChatMessage({
      ...base,
      type: 'template',
      template: {
        name: 't',
        language: { code: 'en' },
        components: [
          { type: 'header', parameters: [{ type: 'text', text: 'h' }] },
          {
            type: 'BODY',
            parameters: [
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ],
          },
        ],
      },
    });
    expect(result.ok && result.message.template).toEqual({ name: 't', language: 'en', bodyParameters: ['a', 'b'] });
  });

  it.each([
    [{ ...base, messaging_product: 'other', type: 'text', text: { body: 'x' } }, 'messaging_product'],
    [{ ...base, type: 'text', text: {} }, 'text.body'],
    [{ ...base, type: 'video', video: {} }, 'not supported'],
    [{ ...base, to: 'abc', type: 'text', text: { body: 'x' } }, 'to must'],
    [{ ...base, type: 'template', template: { name: 't' } }, 'language.code'],
    [{ ...base, type: 'interactive', interactive: { type: 'button', body: { text: 'x' }, action: { buttons: [] } } }, 'buttons'],
    [{ ...base, type: 'image', image: { caption: 'x' } }, 'image.link'],
    [{ ...base, type: 'location', location: { latitude: 100, longitude: 0 } }, 'latitude'],
  ])('rejects a malformed body (%#)', (body, fragment) => {
    const result = validateChatMessage(body);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.details).toContain(fragment);
  });
});

describe('template placeholders', () => {
  it('counts distinct placeholders and renders them', () => {
    expect(countPlaceholders('Hi {{1}}, order {{2}} is ready, {{1}}!')).toBe(2);
    expect(countPlaceholders('No params')).toBe(0);
    expect(renderTemplateBody('Hi {{1}}, order {{2}}', ['Ann', '42'])).toBe('Hi Ann, order 42');
    expect(
      templateBodyText([
        { type: 'HEADER', text: 'h' },
        { type: 'BODY', text: 'b {{1}}' },
      ]),
    ).toBe('b {{1}}');
  });
});
