/**
 * Time mapping between the video the user sees (output time) and the original media (source
 * time). Edits arrive in output time and are stored in source time; transcripts and markers
 * follow the media through these functions.
 */
import { EditListError } from './errors';
import { TOLERANCE, checkRange, checkTime, fmt, layoutOf, outputIn, placedAtOutput, placedAtSource, outputPiecesOf, placedThrough, sourceIn, sourcePiecesOf } from './layout';
import { assertEditList } from './schema';
import type { EditList, SourceSegment, TimeRange } from './types';

/**
 * Output time -> source time. A time exactly on the boundary between two play segments belongs
 * to the later one (it is where that one starts playing); the end of the video maps to the end of
 * the last segment. Throws INVALID_RANGE for t outside [0, outputDuration].
 */
export function toSource(el: EditList, t: number): number {
  assertEditList(el);
  const layout = layoutOf(el);
  const at = checkTime(t, layout.duration, 'output time');
  return sourceIn(placedAtOutput(layout, at), at);
}

/**
 * Source time -> output time, or null when s was cut (not inside a kept segment; segment start
 * inclusive, end exclusive, except that the end of the last play segment is the end of the
 * video). Throws INVALID_RANGE for s outside [0, sourceDuration].
 */
export function toOutput(el: EditList, s: number): number | null {
  assertEditList(el);
  const layout = layoutOf(el);
  const at = checkTime(s, el.sourceDuration, 'source time', 'source');
  const p = placedAtSource(layout, at);
  return p ? outputIn(p, at) : null;
}

/** The source pieces an output range plays, in play order (pieces contiguous in source merged). */
export function mapRangeToSource(el: EditList, r: TimeRange): SourceSegment[] {
  assertEditList(el);
  const layout = layoutOf(el);
  const range = checkRange(r, layout.duration, 'output range');
  return sourcePiecesOf(layout, range.start, range.end);
}

/**
 * Where a source range appears in the output: the pieces that were kept, sorted by output start,
 * pieces adjacent in output merged. Empty when all of it was cut.
 */
export function mapSourceRangeToOutput(el: EditList, r: TimeRange): TimeRange[] {
  assertEditList(el);
  const layout = layoutOf(el);
  const range = checkRange(r, el.sourceDuration, 'source range', 'source');
  const out: TimeRange[] = [];
  for (const piece of outputPiecesOf(layout, range.start, range.end)) {
    const prev = out[out.length - 1];
    if (prev && prev.end === piece.start) prev.end = piece.end;
    else out.push(piece);
  }
  return out;
}

/**
 * Where output time t of `before` is in the output of `after` (both edit lists of the same
 * source), or null when that content is not in `after`. The end of `before` stays with the content
 * that ends there (so mapping through the same list is the identity everywhere).
 */
export function mapTimeThrough(before: EditList, after: EditList, t: number): number | null {
  assertEditList(before, 'edit list before');
  assertEditList(after, 'edit list after');
  assertSameSource(before, after);
  const from = layoutOf(before);
  const at = checkTime(t, from.duration, 'output time');
  const source = placedAtOutput(from, at);
  const s = sourceIn(source, at);
  const p = placedThrough(layoutOf(after), source, s);
  return p ? outputIn(p, s) : null;
}

/** Throws INVALID_EDIT_LIST unless both lists describe the same original media. */
export function assertSameSource(before: EditList, after: EditList): void {
  if (Math.abs(before.sourceDuration - after.sourceDuration) > TOLERANCE) {
    throw new EditListError(
      'INVALID_EDIT_LIST',
      `the two edit lists describe different media (source durations ${fmt(before.sourceDuration)} s and ${fmt(after.sourceDuration)} s).`,
    );
  }
}
