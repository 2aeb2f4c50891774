import { orderCandidates } from '../src/upstreams/upstream-selection';

const a = { name: 'a', priority: 1, weight: 3 };
const b = { name: 'b', priority: 1, weight: 1 };
const c = { name: 'c', priority: 2, weight: 1 };

describe('upstream selection', () => {
  it('puts lower priority numbers first', () => {
    expect(orderCandidates([c, a], () => 0).map((u) => u.name)).toEqual(['a', 'c']);
  });

  it('draws by weight within one priority', () => {
    // Weights 3 and 1: draws below 0.75 pick a first, draws from 0.75 pick b first.
    expect(orderCandidates([a, b, c], () => 0.74).map((u) => u.name)).toEqual(['a', 'b', 'c']);
    expect(orderCandidates([a, b, c], () => 0.75).map((u) => u.name)).toEqual(['b', 'a', 'c']);
  });

  it('splits traffic in proportion to weight', () => {
    let seed = 1;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return (seed - 1) / 2147483646;
    };
    let firstA = 0;
    for (let i = 0; i < 4_000; i += 1) if (orderCandidates([a, b], random)[0].name === 'a') firstA += 1;
    expect(firstA / 4_000).toBeGreaterThan(0.7);
    expect(firstA / 4_000).toBeLessThan(0.8);
  });

  it('keeps every upstream in the order, each once', () => {
    expect(
      orderCandidates([a, b, c], () => 0.5)
        .map((u) => u.name)
        .sort(),
    ).toEqual(['a', 'b', 'c']);
  });
});
