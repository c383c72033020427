/**
 * Transcript follows media: after an edit, the words of the transcript move with the content they
 * were spoken in, disappear with cut content, and are returned in the new play order.
 */
import { EditListError } from './errors';
import { TOLERANCE, checkList, fmt, layoutOf, outputIn, placedAtOutput, placedThrough, sourceIn } from './layout';
import { assertSameSource } from './mapping';
import { assertEditList } from './schema';
import type { EditList } from './types';

/** A word kept by an edit: its new times, and its position in the input list. */
export interface RetimedWord<W> {
  index: number;
  word: W;
}

/**
 * Moves words (timed in `before`'s output) into `after`'s output. Each word's source interval is
 * its start mapped through `before` and its end mapped within the same segment (clamped to it, so
 * a word straddling a cut keeps the part where it starts). A word is kept iff the midpoint of that
 * interval is still kept by `after`; it then gets start/end in `after`'s output, clamped inside the
 * segment holding the midpoint. (A zero-length word at the very end of the video stays with the
 * content that ends there, see mapTimeThrough.) Returned in the NEW output order (by new start, ties by old
 * index), each with its old index; removed words are not returned. Other fields of a word are
 * copied as they are. Throws INVALID_EDIT_LIST when the lists describe different media and
 * INVALID_RANGE for a word whose times are not finite, end before start, or lie outside `before`'s
 * output (beyond 1e-6 s).
 */
export function retimeWords<W extends { start: number; end: number }>(before: EditList, after: EditList, words: readonly W[]): Array<RetimedWord<W>> {
  assertEditList(before, 'edit list before');
  assertEditList(after, 'edit list after');
  assertSameSource(before, after);
  checkList(words, 'words');
  const from = layoutOf(before);
  const to = layoutOf(after);
  const out: Array<RetimedWord<W>> = [];
  words.forEach((word, index) => {
    const { start, end } = checkWord(word, index, from.duration);
    const p = placedAtOutput(from, start);
    const sStart = sourceIn(p, start);
    const sEnd = sourceIn(p, end);
    const q = placedThrough(to, p, (sStart + sEnd) / 2);
    if (!q) return;
    out.push({ index, word: { ...word, start: outputIn(q, sStart), end: outputIn(q, sEnd) } });
  });
  return out.sort((a, b) => a.word.start - b.word.start || a.index - b.index);
}

function checkWord(word: unknown, index: number, duration: number): { start: number; end: number } {
  const { start, end } = (typeof word === 'object' && word !== null ? word : {}) as { start?: unknown; end?: unknown };
  if (typeof start !== 'number' || typeof end !== 'number' || !Number.isFinite(start) || !Number.isFinite(end)) {
    throw new EditListError('INVALID_RANGE', `word ${index}: start and end must be finite numbers of seconds (got ${String(start)} and ${String(end)}).`);
  }
  if (end < start) throw new EditListError('INVALID_RANGE', `word ${index}: it ends (${fmt(end)} s) before it starts (${fmt(start)} s).`);
  if (start < -TOLERANCE || end > duration + TOLERANCE) {
    throw new EditListError('INVALID_RANGE', `word ${index} (${fmt(start)} s to ${fmt(end)} s) is outside the video before the edit (0 s to ${fmt(duration)} s).`);
  }
  const clamp = (t: number) => Math.min(duration, Math.max(0, t));
  return { start: clamp(start), end: clamp(end) };
}
