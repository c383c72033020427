/**
 * How found key moments compare with moments labelled by hand (pure; README.md).
 *
 * - A found moment **matches** a labelled one when their overlap covers at least half of each.
 * - **Precision@5**: of the first min(5, found) found moments, in the order the analyser ranks
 *   them, the share that match some labelled moment.
 * - **Recall**: the share of labelled moments matched by any found moment (all of them, not only the first 5).
 * - Each matched labelled moment is **paired** with the found moment overlapping it most (equal
 *   overlaps: the higher ranked); over the pairs, the mean absolute distance between starts and
 *   between ends (s), and the share with the same category.
 * - Several talks: counts are summed, then divided (micro-averages), so a talk weighs by its moments.
 */

export interface Span {
  start: number;
  end: number;
  category: string;
}

/** A talk's counts, or the sum over several talks'. */
export interface ScoreCounts {
  talks: number;
  found: number;
  labelled: number;
  /** found moments ranked among the first `top` (min(top, found) per talk) */
  ranked: number;
  /** of those, the ones matching a labelled moment */
  rankedHits: number;
  /** labelled moments matched by any found moment (= pairs) */
  recalled: number;
  startDistance: number;
  endDistance: number;
  sameCategory: number;
}

/** What the counts say; null where there is nothing to divide by. */
export interface ScoreFigures {
  talks: number;
  labelled: number;
  found: number;
  precisionAt5: number | null;
  recall: number | null;
  /** mean |found start - labelled start| over the pairs, seconds */
  startDistance: number | null;
  endDistance: number | null;
  categoryAgreement: number | null;
}

export const TOP = 5;
/** The share of each moment the overlap must cover. */
export const MATCH_SHARE = 0.5;

export const overlap = (a: Span, b: Span): number => Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));

/** The overlap covers at least half of each (moments of no length never match). */
export function matches(a: Span, b: Span): boolean {
  const da = a.end - a.start;
  const db = b.end - b.start;
  if (!(da > 0 && db > 0)) return false;
  const o = overlap(a, b);
  return o >= MATCH_SHARE * da - 1e-9 && o >= MATCH_SHARE * db - 1e-9;
}

/** For each labelled moment, the index of the found moment it is paired with, or -1. */
export function pairs(found: readonly Span[], labelled: readonly Span[]): number[] {
  return labelled.map((l) => {
    let best = -1;
    for (let k = 0; k < found.length; k++) if (matches(found[k]!, l) && (best < 0 || overlap(found[k]!, l) > overlap(found[best]!, l))) best = k;
    return best;
  });
}

/** The counts of one talk: `found` in the analyser's order, `labelled` in any order. */
export function scoreTalk(found: readonly Span[], labelled: readonly Span[], top = TOP): ScoreCounts {
  const ranked = found.slice(0, top);
  const paired = pairs(found, labelled);
  const c: ScoreCounts = {
    talks: 1,
    found: found.length,
    labelled: labelled.length,
    ranked: ranked.length,
    rankedHits: ranked.filter((f) => labelled.some((l) => matches(f, l))).length,
    recalled: 0,
    startDistance: 0,
    endDistance: 0,
    sameCategory: 0,
  };
  paired.forEach((k, i) => {
    if (k < 0) return;
    const f = found[k]!;
    const l = labelled[i]!;
    c.recalled++;
    c.startDistance += Math.abs(f.start - l.start);
    c.endDistance += Math.abs(f.end - l.end);
    if (f.category === l.category) c.sameCategory++;
  });
  return c;
}

export const EMPTY_COUNTS: ScoreCounts = { talks: 0, found: 0, labelled: 0, ranked: 0, rankedHits: 0, recalled: 0, startDistance: 0, endDistance: 0, sameCategory: 0 };

/** Counts summed over talks. */
export function sumCounts(all: readonly ScoreCounts[]): ScoreCounts {
  const out = { ...EMPTY_COUNTS };
  for (const c of all) for (const key of Object.keys(out) as Array<keyof ScoreCounts>) out[key] += c[key];
  return out;
}

const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);

/** Figures of counts (one talk's or a sum: micro-averages). */
export function figures(c: ScoreCounts): ScoreFigures {
  return {
    talks: c.talks,
    labelled: c.labelled,
    found: c.found,
    precisionAt5: ratio(c.rankedHits, c.ranked),
    recall: ratio(c.recalled, c.labelled),
    startDistance: ratio(c.startDistance, c.recalled),
    endDistance: ratio(c.endDistance, c.recalled),
    categoryAgreement: ratio(c.sameCategory, c.recalled),
  };
}
