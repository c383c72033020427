import { lastWordStartingAtOrBefore, lowerBound, wordIndexAt } from './sorted-search';

const words = [
  { start: 0, end: 0.5 },
  { start: 0.5, end: 1 },
  { start: 1.5, end: 2 },
];

describe('lowerBound', () => {
  it('finds the first item where the predicate turns true', () => {
    const values = [1, 2, 2, 3, 5];
    expect(lowerBound(values, (v) => v >= 2)).toBe(1);
    expect(lowerBound(values, (v) => v > 2)).toBe(3);
    expect(lowerBound(values, (v) => v > 9)).toBe(5);
    expect(lowerBound(values, () => true)).toBe(0);
    expect(lowerBound([], () => true)).toBe(0);
  });

  it('searches only [from, to)', () => {
    expect(lowerBound([1, 2, 3, 4], (v) => v >= 1, 2)).toBe(2);
    expect(lowerBound([1, 2, 3, 4], (v) => v >= 4, 0, 2)).toBe(2);
  });

  it('agrees with a linear scan', () => {
    const values = Array.from({ length: 50 }, (_, i) => Math.floor(i / 3));
    for (let x = -1; x <= 18; x++) {
      const linear = values.findIndex((v) => v >= x);
      expect(lowerBound(values, (v) => v >= x)).toBe(linear === -1 ? values.length : linear);
    }
  });
});

describe('lastWordStartingAtOrBefore', () => {
  it('is the last word starting at or before the time, -1 before the first', () => {
    expect([-1, 0, 0.49, 0.5, 1.2, 1.5, 9].map((t) => lastWordStartingAtOrBefore(words, t))).toEqual([-1, 0, 0, 1, 1, 2, 2]);
    expect(lastWordStartingAtOrBefore([], 1)).toBe(-1);
  });
});

describe('wordIndexAt', () => {
  it('is the word spoken at the time, -1 in gaps, before, after and for non-finite times', () => {
    expect([0, 0.49, 0.5, 1.2, 1.5, 2, -1, NaN, Infinity].map((t) => wordIndexAt(words, t))).toEqual([0, 0, 1, -1, 2, -1, -1, -1, -1]);
  });
});
