import { mergeRanges } from './ranges';

describe('mergeRanges', () => {
  it('sorts by start and merges overlapping and touching ranges', () => {
    expect(mergeRanges([{ start: 5, end: 6 }, { start: 0, end: 2 }, { start: 1, end: 3 }, { start: 3, end: 4 }])).toEqual([
      { start: 0, end: 4 },
      { start: 5, end: 6 },
    ]);
  });

  it('keeps a range inside another one merged into the outer one', () => {
    expect(mergeRanges([{ start: 0, end: 10 }, { start: 2, end: 3 }])).toEqual([{ start: 0, end: 10 }]);
  });

  it('merges ranges at most maxGap apart', () => {
    const ranges = [{ start: 0, end: 1 }, { start: 1.2, end: 2 }, { start: 2.5, end: 3 }];
    expect(mergeRanges(ranges, 0.2)).toEqual([{ start: 0, end: 2 }, { start: 2.5, end: 3 }]);
    expect(mergeRanges(ranges)).toEqual(ranges);
  });

  it('compares the gap as measureGap rounds it', () => {
    const ranges = [{ start: 1, end: 1.2 }, { start: 1.3, end: 2 }]; // 1.3 - 1.2 is 0.10000000000000009
    expect(mergeRanges(ranges, 0.1)).toHaveLength(2);
    expect(mergeRanges(ranges, 0.1, (g) => Math.round(g * 1000) / 1000)).toEqual([{ start: 1, end: 2 }]);
  });

  it('returns new objects and leaves the input as it was', () => {
    const input = [{ start: 2, end: 3 }, { start: 0, end: 2.5 }];
    const out = mergeRanges(input);
    expect(out).toEqual([{ start: 0, end: 3 }]);
    expect(input).toEqual([{ start: 2, end: 3 }, { start: 0, end: 2.5 }]);
    expect(mergeRanges([])).toEqual([]);
  });
});
