import { conditionHolds, renderTemplate } from '../src/agent/flow-variables';

describe('flow variables', () => {
  const vars = { name: 'Ada', choice: '1', order: { status: 'shipped', items: 3 }, empty: '' };

  it('renders names and paths, and unknown names as empty', () => {
    expect(renderTemplate('Hi {{name}}, your order is {{ order.status }} ({{order.items}}){{nope}}.', vars)).toBe('Hi Ada, your order is shipped (3).');
  });

  it('evaluates ==, != and contains, quoted or not', () => {
    expect(conditionHolds('{{choice}} == 1', vars)).toBe(true);
    expect(conditionHolds('{{choice}} == "2"', vars)).toBe(false);
    expect(conditionHolds("{{order.status}} != 'pending'", vars)).toBe(true);
    expect(conditionHolds('{{order.status}} contains SHIP', vars)).toBe(true);
  });

  it('treats a bare value as true unless empty, 0 or false', () => {
    expect(conditionHolds('{{name}}', vars)).toBe(true);
    expect(conditionHolds('{{empty}}', vars)).toBe(false);
    expect(conditionHolds('0', vars)).toBe(false);
    expect(conditionHolds('false', vars)).toBe(false);
  });
});
