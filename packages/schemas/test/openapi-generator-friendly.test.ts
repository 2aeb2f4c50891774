import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { chatMessageRequestSchema, generatorFriendly, messageRequestSchema, templateCreateSchema } from '@switchboard/schemas';

/*
 * The document's schemas are the validators' with const → enum and discriminated if/then → oneOf
 * (docs/api.md#the-openapi-document). They must accept and refuse exactly the same bodies.
 */
const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
addFormats(ajv, { mode: 'fast', formats: ['uri', 'date-time', 'uuid'] });

const button = (id: string) => ({ type: 'reply', reply: { id, title: id } });
const chatBodies: unknown[] = [
  { to: '+14155552671', type: 'text', text: { body: 'hi' } },
  { to: '+14155552671', type: 'text' },
  { to: '+14155552671', type: 'text', image: { link: 'https://example.com/a.png' } },
  { to: '+14155552671', type: 'image', image: { link: 'https://example.com/a.png' } },
  { to: '+14155552671', type: 'interactive', interactive: { type: 'button', body: { text: 'Ok?' }, action: { buttons: [button('y'), button('n')] } } },
  { to: '+14155552671', type: 'interactive', interactive: { type: 'list', body: { text: 'Ok?' }, action: { buttons: [button('y')] } } },
  {
    to: '+14155552671',
    type: 'interactive',
    interactive: { type: 'list', body: { text: 'Pick' }, action: { button: 'Open', sections: [{ title: 'A', rows: [{ id: 'a', title: 'A' }] }] } },
  },
  { to: '+14155552671', type: 'location', location: { latitude: 1, longitude: 2 } },
  { to: '+14155552671', type: 'sticker', sticker: {} },
  { to: '+14155552671' },
  { to: '+14155552671', type: 'template', template: { name: 'order_ready', language: 'en_US' } },
];
const template = { name: 'order_ready', language: 'en_US', category: 'utility' };
const templateBodies: unknown[] = [
  { ...template, components: [{ type: 'body', text: 'Hi {{1}}' }] },
  { ...template, components: [{ type: 'body' }] },
  {
    ...template,
    components: [
      { type: 'header', format: 'text', text: 'Hello' },
      { type: 'body', text: 'Hi' },
    ],
  },
  {
    ...template,
    components: [
      { type: 'body', text: 'Hi' },
      { type: 'buttons', buttons: [{ type: 'url', text: 'Track' }] },
    ],
  },
  {
    ...template,
    components: [
      { type: 'body', text: 'Hi' },
      { type: 'buttons', buttons: [{ type: 'url', text: 'Track', url: 'https://example.com/t' }] },
    ],
  },
  {
    ...template,
    components: [
      { type: 'body', text: 'Hi' },
      { type: 'buttons', buttons: [{ type: 'quick_reply', text: 'Ok', url: 'https://example.com' }] },
    ],
  },
  {
    ...template,
    components: [
      { type: 'body', text: 'Hi' },
      { type: 'buttons', buttons: [{ type: 'phone_number', text: 'Call', phone_number: '+14155552671' }] },
    ],
  },
  { ...template, components: [{ type: 'footer', text: 'Bye', extra: 1 }] },
];
const messageBodies: unknown[] = [
  { channel: 'sms', recipient: '+14155552671', content: { text: 'hi' } },
  { channel: 'chat', recipient: '+14155552671', content: { type: 'image', image: { link: 'https://example.com/a.png' } } },
  { channel: 'chat', recipient: '+14155552671', content: { type: 'image' } },
  { channel: 'sms', recipient: '+14155552671', template: { name: 'x', language: 'en' } },
];

describe('generatorFriendly', () => {
  it.each([
    ['ChatMessageRequest', chatMessageRequestSchema, chatBodies],
    ['TemplateCreateRequest', templateCreateSchema, templateBodies],
    ['MessageRequest', messageRequestSchema, messageBodies],
  ])('keeps %s accepting exactly the same bodies', (_name, schema, bodies) => {
    const original = ajv.compile(schema);
    const friendly = ajv.compile(generatorFriendly(schema));
    const verdicts = bodies.map((body) => ({ body, original: original(body), friendly: friendly(body) }));
    expect(verdicts.filter((v) => v.original !== v.friendly)).toEqual([]);
    // The samples exercise both answers, or the comparison would prove little.
    expect(new Set(verdicts.map((v) => v.original)).size).toBe(2);
  });

  it('leaves no const and only the content rule that is not discriminated as if/then', () => {
    const text = JSON.stringify([chatMessageRequestSchema, templateCreateSchema, messageRequestSchema].map(generatorFriendly));
    expect(text).not.toContain('"const"');
    expect(text.match(/"if"/g)?.length ?? 0).toBeLessThanOrEqual(1);
  });
});
