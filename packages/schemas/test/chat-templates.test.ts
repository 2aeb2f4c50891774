import { ValidationError } from '@switchboard/domain';
import { countPlaceholders, createTemplateCreateValidator, placeholdersAreContiguous, scanPlaceholders, templateSendProblem } from '@switchboard/schemas';

const validate = createTemplateCreateValidator();
const base = { name: 'order_ready', language: 'en_US', category: 'utility', components: [{ type: 'body', text: 'Hi {{1}}, order {{2}} is ready.' }] };

function fieldsOf(body: unknown): string[] {
  try {
    validate(body);
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return (error.errors ?? []).map((e) => e.field);
  }
}

describe('placeholder counting', () => {
  it('counts distinct numbered placeholders', () => {
    expect(countPlaceholders('Hi {{1}}, {{2}} and {{1}} again')).toBe(2);
    expect(countPlaceholders('No placeholders')).toBe(0);
    expect(countPlaceholders('Spaced {{ 1 }}')).toBe(1);
    expect(scanPlaceholders('{{name}} {{0}} {{}}').invalid).toEqual(['{{name}}', '{{0}}', '{{}}']);
  });

  it('knows contiguous from 1', () => {
    expect(placeholdersAreContiguous([])).toBe(true);
    expect(placeholdersAreContiguous([1, 2, 3])).toBe(true);
    expect(placeholdersAreContiguous([2])).toBe(false);
    expect(placeholdersAreContiguous([1, 3])).toBe(false);
  });
});

describe('POST /v1/templates validation (docs/chat.md#templates)', () => {
  it('accepts a full definition and counts its body placeholders', () => {
    const result = validate({
      ...base,
      components: [
        { type: 'header', format: 'text', text: 'Your order' },
        base.components[0],
        { type: 'footer', text: 'Reply STOP to opt out' },
        {
          type: 'buttons',
          buttons: [
            { type: 'quick_reply', text: 'Thanks' },
            { type: 'url', text: 'Track', url: 'https://example.com/t' },
          ],
        },
      ],
    });
    expect(result).toMatchObject({ bodyText: 'Hi {{1}}, order {{2}} is ready.', placeholderCount: 2 });
  });

  it('checks name, language and category', () => {
    expect(fieldsOf({ ...base, name: 'Order-Ready' })).toEqual(['/name']);
    expect(fieldsOf({ ...base, language: 'english!' })).toEqual(['/language']);
    expect(fieldsOf({ ...base, category: 'promo' })).toEqual(['/category']);
    expect(fieldsOf({ ...base, components: [] })).toEqual(['/components']);
    expect(fieldsOf({ ...base, extra: 1 })).toEqual(['/extra']);
  });

  it('wants placeholders {{1}}..{{n}} without gaps, in the body only', () => {
    expect(fieldsOf({ ...base, components: [{ type: 'body', text: 'Hi {{2}}' }] })).toEqual(['/components/0/text']);
    expect(fieldsOf({ ...base, components: [{ type: 'body', text: 'Hi {{1}} {{3}}' }] })).toEqual(['/components/0/text']);
    expect(fieldsOf({ ...base, components: [{ type: 'body', text: 'Hi {{name}}' }] })).toEqual(['/components/0/text']);
    expect(
      fieldsOf({
        ...base,
        components: [
          { type: 'header', text: 'H {{1}}' },
          { type: 'body', text: 'x' },
        ],
      }),
    ).toEqual(['/components/0/text']);
  });

  it('wants exactly one body and each component type once', () => {
    expect(fieldsOf({ ...base, components: [{ type: 'footer', text: 'x' }] })).toEqual(['/components']);
    expect(
      fieldsOf({
        ...base,
        components: [
          { type: 'body', text: 'a' },
          { type: 'body', text: 'b' },
        ],
      }),
    ).toEqual(['/components/1/type']);
  });

  it('checks component limits at the boundary', () => {
    const body = (text: string) => ({ ...base, components: [{ type: 'body', text }] });
    expect(fieldsOf(body('a'.repeat(1024)))).toEqual([]);
    expect(fieldsOf(body('a'.repeat(1025)))).toEqual(['/components/0/text']);
    const buttons = (n: number) => ({
      ...base,
      components: [base.components[0], { type: 'buttons', buttons: Array.from({ length: n }, (_, i) => ({ type: 'quick_reply', text: `B${i}` })) }],
    });
    expect(fieldsOf(buttons(10))).toEqual([]);
    expect(fieldsOf(buttons(11))).toEqual(['/components/1/buttons/10']);
  });
});

describe('template send checks (docs/chat.md#sending-a-template)', () => {
  const approved = { status: 'approved' as const, placeholder_count: 2 };
  const params = [
    { type: 'text' as const, text: 'Ada' },
    { type: 'text' as const, text: '42' },
  ];

  it('passes both shapes when the count matches', () => {
    expect(templateSendProblem(approved, { name: 't', language: 'en', parameters: params }, '/template')).toBeNull();
    expect(templateSendProblem(approved, { name: 't', language: 'en', components: [{ type: 'body', parameters: params }] }, '/template')).toBeNull();
  });

  it('names the failure', () => {
    expect(templateSendProblem(null, { name: 't', language: 'en' }, '/template')?.code).toBe('template_not_found');
    expect(templateSendProblem({ status: 'pending', placeholder_count: 0 }, { name: 't', language: 'en' }, '/template')?.code).toBe('template_not_approved');
    expect(templateSendProblem({ status: 'rejected', placeholder_count: 0 }, { name: 't', language: 'en' }, '/template')?.code).toBe('template_not_approved');
    const a = templateSendProblem(approved, { name: 't', language: 'en', parameters: params.slice(0, 1) }, '/template');
    expect(a).toMatchObject({ status: 422, code: 'template_parameter_mismatch', errors: [{ field: '/template/parameters' }] });
    const b = templateSendProblem(
      approved,
      { name: 't', language: 'en', components: [{ type: 'body', parameters: [...params, ...params] }] },
      '/content/template',
    );
    expect(b).toMatchObject({ code: 'template_parameter_mismatch', errors: [{ field: '/content/template/components' }] });
  });
});
