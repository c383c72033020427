import { figures, matches, pairs, scoreTalk, sumCounts, type Span } from './score';

const m = (start: number, end: number, category = 'Quotable'): Span => ({ start, end, category });

describe('matches', () => {
  it('needs the overlap to cover half of each moment', () => {
    expect(matches(m(0, 20), m(10, 30))).toBe(true); // 10 of 20 each
    expect(matches(m(0, 20), m(11, 31))).toBe(false);
    expect(matches(m(10, 30), m(0, 20))).toBe(true);
  });

  it('refuses a long moment that merely contains a short one', () => {
    expect(matches(m(0, 60), m(20, 35))).toBe(false); // the short one whole, 15 of 60 of the long one
    expect(matches(m(0, 30), m(5, 25))).toBe(true);
  });

  it('never matches apart, touching, or of no length', () => {
    expect(matches(m(0, 10), m(20, 30))).toBe(false);
    expect(matches(m(0, 10), m(10, 20))).toBe(false);
    expect(matches(m(5, 5), m(5, 5))).toBe(false);
  });
});

describe('scoreTalk', () => {
  const labelled = [m(0, 20, 'Actionable'), m(40, 60, 'Quotable'), m(100, 130, 'High-impact')];

  it('counts precision over the first five found, in their order', () => {
    const found = [m(200, 220), m(210, 230), m(300, 320), m(400, 420), m(500, 520), m(1, 21, 'Actionable')];
    const c = scoreTalk(found, labelled);
    expect(c.ranked).toBe(5);
    expect(c.rankedHits).toBe(0); // the hit is sixth
    expect(c.recalled).toBe(1); // recall reads every found moment
    expect(figures(c).precisionAt5).toBe(0);
    expect(figures(c).recall).toBeCloseTo(1 / 3);
  });

  it('divides by the found moments when there are fewer than five', () => {
    const c = scoreTalk([m(42, 61), m(300, 320)], labelled);
    expect(c.ranked).toBe(2);
    expect(figures(c).precisionAt5).toBe(0.5);
  });

  it('pairs each labelled moment with the found one overlapping it most, and measures the edges', () => {
    const found = [m(38, 55, 'Quotable'), m(41, 61, 'Entertaining'), m(2, 19, 'Actionable')];
    expect(pairs(found, labelled)).toEqual([2, 1, -1]);
    const f = figures(scoreTalk(found, labelled));
    expect(f.recall).toBeCloseTo(2 / 3);
    expect(f.startDistance).toBeCloseTo((2 + 1) / 2);
    expect(f.endDistance).toBeCloseTo((1 + 1) / 2);
    expect(f.categoryAgreement).toBe(0.5);
    expect(f.precisionAt5).toBe(1); // all three match some labelled moment
  });

  it('leaves the figures it cannot divide empty', () => {
    const f = figures(scoreTalk([], labelled));
    expect(f.precisionAt5).toBeNull();
    expect(f.recall).toBe(0);
    expect(f.startDistance).toBeNull();
    expect(f.categoryAgreement).toBeNull();
  });
});

describe('sumCounts', () => {
  it('micro-averages: sums of hits over sums of counts, not a mean of the talks', () => {
    const a = scoreTalk([m(0, 20)], [m(0, 20)]); // 1 of 1
    const b = scoreTalk([m(0, 20), m(30, 50), m(60, 80), m(90, 110)], [m(300, 320), m(400, 420), m(500, 520), m(60, 80)]); // 1 of 4
    const f = figures(sumCounts([a, b]));
    expect(f.talks).toBe(2);
    expect(f.precisionAt5).toBe(2 / 5);
    expect(f.recall).toBe(2 / 5);
    expect(f.labelled).toBe(5);
  });
});
