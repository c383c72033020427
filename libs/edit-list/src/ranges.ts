import type { TimeRange } from './types';

/**
 * Time ranges sorted by start, with overlapping or touching ones merged into one; with a maxGap,
 * ranges at most maxGap seconds apart merge too. `measureGap` may round the gap before it is
 * compared (e.g. to the millisecond, so float noise does not split two ranges). Returns new
 * { start, end } objects; the input is left untouched.
 */
export function mergeRanges(ranges: readonly TimeRange[], maxGap = 0, measureGap: (gapSeconds: number) => number = (gap) => gap): TimeRange[] {
  const merged: TimeRange[] = [];
  for (const r of [...ranges].sort((a, b) => a.start - b.start)) {
    const last = merged[merged.length - 1];
    if (last && measureGap(r.start - last.end) <= maxGap) last.end = Math.max(last.end, r.end);
    else merged.push({ start: r.start, end: r.end });
  }
  return merged;
}
