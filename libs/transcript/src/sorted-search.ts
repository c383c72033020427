/**
 * Binary searches over sorted arrays, such as words ordered by start time. O(log n).
 */

/**
 * The first index in [from, to) whose item satisfies `isAtOrAfter`, or `to` when none does. The
 * predicate must be false for a prefix and true for the rest (e.g. `(w) => w.end > t` on words
 * sorted by time).
 */
export function lowerBound<T>(items: ArrayLike<T>, isAtOrAfter: (item: T) => boolean, from = 0, to = items.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (isAtOrAfter(items[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The last word starting at or before `time`, or -1 when none does. Words are ordered by start. */
export function lastWordStartingAtOrBefore(words: readonly { start: number }[], time: number): number {
  return lowerBound(words, (w) => !(w.start <= time)) - 1;
}

/**
 * The word being spoken at `time`: the last word starting at or before `time`, while `time` is
 * before its end; -1 in a gap between words or for a non-finite time. Words are ordered by start.
 */
export function wordIndexAt(words: readonly { start: number; end: number }[], time: number): number {
  if (!Number.isFinite(time)) return -1;
  const i = lastWordStartingAtOrBefore(words, time);
  return i >= 0 && time < words[i]!.end ? i : -1;
}
