import { countAfter, indicesAfter, originRuns } from './origins';

describe('word origins of a version', () => {
  it('a cut leaves one run per kept block', () => {
    // words 2..3 and 6 were cut from 8
    const runs = originRuns([0, 1, 4, 5, 7]);
    expect(runs).toEqual([[0, 2], [4, 2], [7, 1]]);
    expect(countAfter(runs)).toBe(5);
    expect(Array.from(indicesAfter(runs, 8)!)).toEqual([0, 1, -1, -1, 2, 3, -1, 4]);
  });

  it('a reorder keeps every word, in the new order', () => {
    const runs = originRuns([3, 4, 5, 0, 1, 2]);
    expect(runs).toEqual([[3, 3], [0, 3]]);
    expect(Array.from(indicesAfter(runs, 6)!)).toEqual([3, 4, 5, 0, 1, 2]);
  });

  it('no words after: no runs', () => {
    expect(originRuns([])).toEqual([]);
    expect(Array.from(indicesAfter([], 3)!)).toEqual([-1, -1, -1]);
  });

  it('refuses runs that are not a map of the words before', () => {
    expect(indicesAfter([[0, 4]], 3)).toBeNull();
    expect(indicesAfter([[0, 2], [1, 1]], 3)).toBeNull();
    expect(indicesAfter([[-1, 1]], 3)).toBeNull();
    expect(indicesAfter([[0, 0]], 3)).toBeNull();
    expect(indicesAfter([[0.5, 1]], 3)).toBeNull();
  });
});
