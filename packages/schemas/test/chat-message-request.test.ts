import { ValidationError } from '@switchboard/domain';
import { CHAT_LIMITS, chatRequestToMessageRequest, createChatMessageRequestValidator } from '@switchboard/schemas';

const validate = createChatMessageRequestValidator({
  webhookTargets: { allowHttp: false, allowPrivateNetworks: false, allowedHosts: [] },
});
const TO = '+447911123400';
const s = (n: number, ch = 'a') => ch.repeat(n);

function fieldsOf(body: unknown): string[] {
  try {
    validate(body);
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return (error.errors ?? []).map((e) => e.field);
  }
}

const buttons = (n: number, make = (i: number) => ({ type: 'reply', reply: { id: `b${i}`, title: `Option ${i}` } })) =>
  Array.from({ length: n }, (_, i) => make(i));
const button = (action: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  to: TO,
  type: 'interactive',
  interactive: { type: 'button', body: { text: 'Pick one' }, action, ...extra },
});
const rows = (n: number, prefix = 'r') => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, title: `Row ${i}` }));
const list = (sections: unknown[], extra: Record<string, unknown> = {}, actionButton = 'Choose') => ({
  to: TO,
  type: 'interactive',
  interactive: { type: 'list', body: { text: 'Pick one' }, action: { button: actionButton, sections }, ...extra },
});
const media = (type: string, fields: Record<string, unknown>) => ({ to: TO, type, [type]: { link: 'https://cdn.example.com/f', ...fields } });

/** [name, body at the limit, body one over, the field reported]. */
const boundaries: Array<[string, unknown, unknown, string]> = [
  ['text body', { to: TO, type: 'text', text: { body: s(CHAT_LIMITS.textBody) } }, { to: TO, type: 'text', text: { body: s(4097) } }, '/text/body'],
  ['buttons count', button({ buttons: buttons(3) }), button({ buttons: buttons(4) }), '/interactive/action/buttons/3'],
  [
    'button id',
    button({ buttons: [{ type: 'reply', reply: { id: s(256), title: 'x' } }] }),
    button({ buttons: [{ type: 'reply', reply: { id: s(257), title: 'x' } }] }),
    '/interactive/action/buttons/0/reply/id',
  ],
  [
    'button title',
    button({ buttons: [{ type: 'reply', reply: { id: 'a', title: s(20) } }] }),
    button({ buttons: [{ type: 'reply', reply: { id: 'a', title: s(21) } }] }),
    '/interactive/action/buttons/0/reply/title',
  ],
  [
    'button body text',
    { ...button({ buttons: buttons(1) }), interactive: { type: 'button', body: { text: s(1024) }, action: { buttons: buttons(1) } } },
    { ...button({ buttons: buttons(1) }), interactive: { type: 'button', body: { text: s(1025) }, action: { buttons: buttons(1) } } },
    '/interactive/body/text',
  ],
  [
    'header text',
    button({ buttons: buttons(1) }, { header: { type: 'text', text: s(60) } }),
    button({ buttons: buttons(1) }, { header: { type: 'text', text: s(61) } }),
    '/interactive/header/text',
  ],
  [
    'footer text',
    button({ buttons: buttons(1) }, { footer: { text: s(60) } }),
    button({ buttons: buttons(1) }, { footer: { text: s(61) } }),
    '/interactive/footer/text',
  ],
  ['list action button', list([{ rows: rows(1) }], {}, s(20)), list([{ rows: rows(1) }], {}, s(21)), '/interactive/action/button'],
  [
    'list sections count',
    list(Array.from({ length: 10 }, (_, i) => ({ title: `S${i}`, rows: [{ id: `r${i}`, title: 'x' }] }))),
    list(Array.from({ length: 11 }, (_, i) => ({ title: `S${i}`, rows: [{ id: `r${i}`, title: 'x' }] }))),
    '/interactive/action/sections/10',
  ],
  ['list rows in one section', list([{ rows: rows(10) }]), list([{ rows: rows(11) }]), '/interactive/action/sections/0/rows/10'],
  [
    'list rows across sections',
    list([
      { title: 'A', rows: rows(5, 'a') },
      { title: 'B', rows: rows(5, 'b') },
    ]),
    list([
      { title: 'A', rows: rows(5, 'a') },
      { title: 'B', rows: rows(6, 'b') },
    ]),
    '/interactive/action/sections/1/rows/5',
  ],
  ['row id', list([{ rows: [{ id: s(200), title: 'x' }] }]), list([{ rows: [{ id: s(201), title: 'x' }] }]), '/interactive/action/sections/0/rows/0/id'],
  ['row title', list([{ rows: [{ id: 'a', title: s(24) }] }]), list([{ rows: [{ id: 'a', title: s(25) }] }]), '/interactive/action/sections/0/rows/0/title'],
  [
    'row description',
    list([{ rows: [{ id: 'a', title: 'x', description: s(72) }] }]),
    list([{ rows: [{ id: 'a', title: 'x', description: s(73) }] }]),
    '/interactive/action/sections/0/rows/0/description',
  ],
  ['section title', list([{ title: s(24), rows: rows(1) }]), list([{ title: s(25), rows: rows(1) }]), '/interactive/action/sections/0/title'],
  [
    'list body text',
    { ...list([{ rows: rows(1) }]), interactive: { type: 'list', body: { text: s(1024) }, action: { button: 'b', sections: [{ rows: rows(1) }] } } },
    { ...list([{ rows: rows(1) }]), interactive: { type: 'list', body: { text: s(1025) }, action: { button: 'b', sections: [{ rows: rows(1) }] } } },
    '/interactive/body/text',
  ],
  ['image caption', media('image', { caption: s(1024) }), media('image', { caption: s(1025) }), '/image/caption'],
  ['document caption', media('document', { caption: s(1024), filename: 'a.pdf' }), media('document', { caption: s(1025) }), '/document/caption'],
  ['audio caption', media('audio', { caption: s(1024) }), media('audio', { caption: s(1025) }), '/audio/caption'],
  [
    'latitude max',
    { to: TO, type: 'location', location: { latitude: 90, longitude: 0 } },
    { to: TO, type: 'location', location: { latitude: 90.000001, longitude: 0 } },
    '/location/latitude',
  ],
  [
    'latitude min',
    { to: TO, type: 'location', location: { latitude: -90, longitude: 0 } },
    { to: TO, type: 'location', location: { latitude: -90.1, longitude: 0 } },
    '/location/latitude',
  ],
  [
    'longitude max',
    { to: TO, type: 'location', location: { latitude: 0, longitude: 180 } },
    { to: TO, type: 'location', location: { latitude: 0, longitude: 180.5 } },
    '/location/longitude',
  ],
  [
    'longitude min',
    { to: TO, type: 'location', location: { latitude: 0, longitude: -180 } },
    { to: TO, type: 'location', location: { latitude: 0, longitude: -181 } },
    '/location/longitude',
  ],
];

describe('POST /v1/messages/chat limits (docs/chat.md), at the boundary', () => {
  it.each(boundaries)('%s: at the limit accepted, one over rejected', (_name, atLimit, overLimit, field) => {
    expect(fieldsOf(atLimit)).toEqual([]);
    expect(fieldsOf(overLimit)).toEqual([field]);
  });

  it('needs at least one button, one section and one row', () => {
    expect(fieldsOf(button({ buttons: [] }))).toEqual(['/interactive/action/buttons']);
    expect(fieldsOf(list([]))).toEqual(['/interactive/action/sections']);
    expect(fieldsOf(list([{ rows: [] }]))).toEqual(['/interactive/action/sections/0/rows']);
  });

  it('wants button ids and titles unique within the message', () => {
    const dupId = buttons(3, (i) => ({ type: 'reply', reply: { id: i === 2 ? 'b0' : `b${i}`, title: `T${i}` } }));
    expect(fieldsOf(button({ buttons: dupId }))).toEqual(['/interactive/action/buttons/2/reply/id']);
    const dupTitle = buttons(2, (i) => ({ type: 'reply', reply: { id: `b${i}`, title: 'Same' } }));
    expect(fieldsOf(button({ buttons: dupTitle }))).toEqual(['/interactive/action/buttons/1/reply/title']);
  });

  it('wants a section title once there is more than one section, and unique row ids', () => {
    expect(fieldsOf(list([{ rows: rows(1, 'a') }, { title: 'B', rows: rows(1, 'b') }]))).toEqual(['/interactive/action/sections/0/title']);
    expect(
      fieldsOf(
        list([
          { title: 'A', rows: rows(1) },
          { title: 'B', rows: rows(1) },
        ]),
      ),
    ).toEqual(['/interactive/action/sections/1/rows/0/id']);
  });

  it('wants https media links, an object named after the type and nothing else', () => {
    expect(fieldsOf({ to: TO, type: 'image', image: { link: 'http://cdn.example.com/a.png' } })).toEqual(['/image/link']);
    expect(fieldsOf({ to: TO, type: 'image', image: { link: 'ftp://x/a.png' } })).toEqual(['/image/link']);
    expect(fieldsOf({ to: TO, type: 'image' })).toEqual(['/image']);
    expect(fieldsOf({ to: TO, type: 'text', text: { body: 'x' }, image: { link: 'https://a.example/x' } })).toEqual(['/image']);
    expect(fieldsOf({ to: TO, type: 'video', video: {} })).toEqual(expect.arrayContaining(['/type']));
    expect(fieldsOf({ to: '+15550000000', type: 'text', text: { body: 'x' } })).toEqual(['/to']);
  });

  it('allows plain http media links when the deployment says so', () => {
    const lenient = createChatMessageRequestValidator({
      allowHttpMediaLinks: true,
      webhookTargets: { allowHttp: false, allowPrivateNetworks: false, allowedHosts: [] },
    });
    expect(() => lenient({ to: TO, type: 'audio', audio: { link: 'http://127.0.0.1:8090/sim/media/a.ogg' } })).not.toThrow();
  });

  it('accepts both template shapes and refuses both at once', () => {
    const a = { name: 'order_ready', language: 'en', parameters: [{ type: 'text', text: 'Ada' }] };
    const b = { name: 'order_ready', language: 'en', components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }] };
    expect(fieldsOf({ to: TO, type: 'template', template: a })).toEqual([]);
    expect(fieldsOf({ to: TO, type: 'template', template: b })).toEqual([]);
    expect(fieldsOf({ to: TO, type: 'template', template: { ...a, components: b.components } })).toEqual(['/template/components']);
  });

  it('refuses a private callback URL with 422', () => {
    expect(() => validate({ to: TO, type: 'text', text: { body: 'x' }, callback_url: 'https://10.0.0.1/hook' })).toThrow(
      expect.objectContaining({ status: 422, code: 'webhook_url_not_allowed' }) as unknown as ApiError,
    );
  });

  it('turns into the /v1/messages request the dispatcher already knows', () => {
    expect(chatRequestToMessageRequest({ to: TO, type: 'location', location: { latitude: 1, longitude: 2 }, metadata: { a: 'b' } })).toEqual({
      channel: 'chat',
      recipient: TO,
      content: { type: 'location', location: { latitude: 1, longitude: 2 } },
      metadata: { a: 'b' },
    });
    const template = { name: 't', language: 'en', parameters: [] };
    expect(chatRequestToMessageRequest({ to: TO, type: 'template', template })).toEqual({ channel: 'chat', recipient: TO, template });
  });
});
