/**
 * The edits that change what plays: cut, keep, reorder. Each takes ranges in OUTPUT time (what the
 * client shows now) and composes onto the edit list, so a render from the original reflects every
 * edit made so far.
 */
import { cloneEditList } from './basics';
import { EditListError } from './errors';
import { SLIVER, TOLERANCE, checkList, checkRange, fmt, layoutOf, normaliseSegments, sourcePiecesOf } from './layout';
import { clipMutes } from './mutes-internal';
import { mergeRanges } from './ranges';
import { assertEditList } from './schema';
import type { EditList, SourceSegment, TimeRange } from './types';

/**
 * Removes the output ranges `cuts` (any order, may overlap). Each is clamped to the video (times up
 * to 1e-6 s outside are accepted); empty ones are ignored, kept pieces shorter than 1e-9 s (float
 * noise) go too. Kept pieces that are contiguous in source and consecutive in play order merge.
 * Mutes over removed content are dropped (it can never play again). Throws INVALID_RANGE for a bad
 * cut, EMPTY_RESULT when nothing would remain.
 */
export function applyCuts(el: EditList, cuts: readonly TimeRange[]): EditList {
  assertEditList(el);
  checkList(cuts, 'cuts');
  const layout = layoutOf(el);
  const removed = mergeRanges(cuts.map((c, i) => checkRange(c, layout.duration, `cut ${i + 1}`)).filter((c) => c.end > c.start));
  const kept: TimeRange[] = [];
  let from = 0;
  for (const cut of [...removed, { start: layout.duration, end: layout.duration }]) {
    if (cut.start - from >= SLIVER) kept.push({ start: from, end: cut.start });
    from = Math.max(from, cut.end);
  }
  const segments = normaliseSegments(kept.flatMap((r) => sourcePiecesOf(layout, r.start, r.end)));
  if (segments.length === 0) {
    throw new EditListError('EMPTY_RESULT', `these cuts remove the whole video (${fmt(layout.duration)} s); at least some of it must remain.`);
  }
  return withSegments(el, segments);
}

/** Keeps only the output range `keep` (clamped like a cut): everything else is cut. */
export function applyKeep(el: EditList, keep: TimeRange): EditList {
  assertEditList(el);
  const layout = layoutOf(el);
  const range = checkRange(keep, layout.duration, 'kept range');
  const segments = sourcePiecesOf(layout, range.start, range.end);
  if (segments.length === 0) {
    throw new EditListError('EMPTY_RESULT', `the kept range (${fmt(range.start)} s to ${fmt(range.end)} s) holds nothing of the video (${fmt(layout.duration)} s).`);
  }
  return withSegments(el, segments);
}

/**
 * Plays the output ranges `order` in the given order. They must be pairwise disjoint. Nothing is
 * lost: the gaps between them are assigned, not dropped: sorted by start, each range extends to
 * the next one's start, the first back to 0 and the last to the end of the video. So the output
 * duration is unchanged, and listing the ranges in their current order changes nothing. Throws
 * INVALID_RANGE for a bad range, INVALID_REORDER for an empty list or overlapping ranges.
 */
export function applyReorder(el: EditList, order: readonly TimeRange[]): EditList {
  assertEditList(el);
  checkList(order, 'reorder ranges');
  if (order.length === 0) throw new EditListError('INVALID_REORDER', 'a reorder must list at least one range.');
  const layout = layoutOf(el);
  const ranges = order.map((r, i) => checkRange(r, layout.duration, `reorder range ${i + 1}`));
  const byStart = ranges.map((r, i) => ({ ...r, i })).sort((a, b) => a.start - b.start || a.i - b.i);
  for (let k = 1; k < byStart.length; k++) {
    const prev = byStart[k - 1]!;
    const next = byStart[k]!;
    if (next.start < prev.end - TOLERANCE) {
      throw new EditListError(
        'INVALID_REORDER',
        `reorder ranges ${prev.i + 1} (${fmt(prev.start)} s to ${fmt(prev.end)} s) and ${next.i + 1} (${fmt(next.start)} s to ${fmt(next.end)} s) overlap; each moment of the video can be placed only once.`,
      );
    }
  }
  const extended = new Array<TimeRange>(ranges.length);
  byStart.forEach((r, k) => {
    extended[r.i] = { start: k === 0 ? 0 : r.start, end: k === byStart.length - 1 ? layout.duration : byStart[k + 1]!.start };
  });
  const segments = normaliseSegments(extended.flatMap((r) => sourcePiecesOf(layout, r.start, r.end)));
  return { ...cloneEditList(el), segments };
}

/** `el` with new segments; mutes are clipped to what is still kept. */
function withSegments(el: EditList, segments: SourceSegment[]): EditList {
  return { ...cloneEditList(el), segments, mutes: clipMutes(el.mutes, segments) };
}
