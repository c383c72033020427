/**
 * Internal machinery shared by the operations: where every segment sits in output time, binary
 * searches in both directions, input checks, and segment normalisation. Nothing here validates
 * the edit list itself: public functions do that once (assertEditList) and then call these.
 */
import { EditListError } from './errors';
import type { EditList, SourceSegment, TimeRange } from './types';

/**
 * How far (seconds) a time may lie outside the video and still be accepted (clamped): clients
 * compute times with floats, and a microsecond is far below a frame.
 */
export const TOLERANCE = 1e-6;

/** Kept output pieces shorter than this (seconds) after a cut are float noise, not content. */
export const SLIVER = 1e-9;

/** A segment with its place in output time: [outStart, outEnd) plays source [start, end). */
export interface Placed {
  start: number;
  end: number;
  outStart: number;
  outEnd: number;
  /** position in play order */
  index: number;
}

export interface Layout {
  /** segments in play order; outStart of each is exactly outEnd of the previous */
  placed: Placed[];
  /** the same, sorted by source start (segments never overlap in source) */
  bySource: Placed[];
  /** output duration: outEnd of the last segment */
  duration: number;
}

export function layoutOf(el: EditList): Layout {
  let at = 0;
  const placed = el.segments.map((s, index) => {
    const p: Placed = { start: s.start, end: s.end, outStart: at, outEnd: at + (s.end - s.start), index };
    at = p.outEnd;
    return p;
  });
  const bySource = [...placed].sort((a, b) => a.start - b.start);
  return { placed, bySource, duration: at };
}

/**
 * The segment playing at output time t (0 <= t <= duration): at a boundary, the later one; at the
 * very end, the last. A time within SLIVER before a boundary counts as on it, so a boundary
 * computed with float noise (a sum of segment lengths) still lands at the start of the later one.
 */
export function placedAtOutput(layout: Layout, t: number): Placed {
  const { placed } = layout;
  let lo = 0;
  let hi = placed.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (placed[mid]!.outStart <= t + SLIVER) lo = mid;
    else hi = mid - 1;
  }
  return placed[lo]!;
}

/** Source time of output time t inside segment p, never leaving the segment. */
export function sourceIn(p: Placed, t: number): number {
  if (t <= p.outStart) return p.start;
  if (t >= p.outEnd) return p.end;
  return Math.min(p.end, p.start + (t - p.outStart));
}

/** Output time of source time s inside segment p, never leaving the segment. */
export function outputIn(p: Placed, s: number): number {
  if (s <= p.start) return p.outStart;
  if (s >= p.end) return p.outEnd;
  return Math.min(p.outEnd, p.outStart + (s - p.start));
}

/**
 * The segment that keeps source time s: start inclusive, end exclusive, except that the end of
 * the last play segment belongs to it (it is the end of the video). null when s was cut.
 */
export function placedAtSource(layout: Layout, s: number): Placed | null {
  const { bySource, placed } = layout;
  let lo = 0;
  let hi = bySource.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (bySource[mid]!.start <= s) lo = mid;
    else hi = mid - 1;
  }
  const p = bySource[lo]!;
  if (p.start <= s && s < p.end) return p;
  const last = placed[placed.length - 1]!;
  return s === last.end ? last : null;
}

/**
 * The segment whose content ends at source time s (start < s <= end), or null. Used for a point
 * at the very end of the video: it belongs to the content that ends there, even when another
 * segment (played earlier) starts at the same source instant.
 */
export function placedEndingAt(layout: Layout, s: number): Placed | null {
  const { bySource } = layout;
  let lo = 0;
  let hi = bySource.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (bySource[mid]!.start < s) lo = mid;
    else hi = mid - 1;
  }
  const p = bySource[lo]!;
  return p.start < s && s <= p.end ? p : null;
}

/**
 * Where source time s, reached through segment `from` of another list of the same media, plays in
 * `layout`. A point at the very end of `from` (only the end of the video maps there) stays with
 * the content ending at it; anything else follows placedAtSource.
 */
export function placedThrough(layout: Layout, from: Placed, s: number): Placed | null {
  if (s === from.end) {
    const ending = placedEndingAt(layout, s);
    if (ending) return ending;
  }
  return placedAtSource(layout, s);
}

/** Source pieces played by output [a, b) (0 <= a <= b <= duration), in play order, contiguous ones merged. */
export function sourcePiecesOf(layout: Layout, a: number, b: number): SourceSegment[] {
  const pieces: SourceSegment[] = [];
  if (!(b > a)) return pieces;
  for (let i = placedAtOutput(layout, a).index; i < layout.placed.length; i++) {
    const p = layout.placed[i]!;
    if (p.outStart >= b) break;
    if (p.outEnd <= a) continue;
    const start = sourceIn(p, a);
    const end = sourceIn(p, b);
    if (end > start) pieces.push({ start, end });
  }
  return normaliseSegments(pieces);
}

/**
 * Where source [a, b) plays: one output piece per segment that keeps part of it, in play order
 * (empty pieces dropped, none merged).
 */
export function outputPiecesOf(layout: Layout, a: number, b: number): TimeRange[] {
  const pieces: TimeRange[] = [];
  for (const p of layout.placed) {
    const from = Math.max(a, p.start);
    const to = Math.min(b, p.end);
    if (!(to > from)) continue;
    const start = outputIn(p, from);
    const end = outputIn(p, to);
    if (end > start) pieces.push({ start, end });
  }
  return pieces;
}

/** Drops empty pieces and merges pieces that are consecutive in play order and contiguous in source. */
export function normaliseSegments(pieces: readonly SourceSegment[]): SourceSegment[] {
  const out: SourceSegment[] = [];
  for (const piece of pieces) {
    if (!(piece.end > piece.start)) continue;
    const prev = out[out.length - 1];
    if (prev && prev.end === piece.start) prev.end = piece.end;
    else out.push({ start: piece.start, end: piece.end });
  }
  return out;
}

/** Seconds for messages: short, without float noise. */
export function fmt(n: number): string {
  return Number.isFinite(n) ? String(Number(n.toFixed(6))) : String(n);
}

function isNumber(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x);
}

/**
 * Throws INVALID_RANGE unless t is a finite time within [0, limit] (up to TOLERANCE); returns t
 * clamped into [0, limit].
 */
export function checkTime(t: unknown, limit: number, label: string, what = 'output'): number {
  if (!isNumber(t)) throw new EditListError('INVALID_RANGE', `${label} must be a finite number of seconds (got ${String(t)}).`);
  if (t < -TOLERANCE || t > limit + TOLERANCE) {
    throw new EditListError('INVALID_RANGE', `${label} (${fmt(t)} s) is outside the ${what} (0 s to ${fmt(limit)} s).`);
  }
  return Math.min(limit, Math.max(0, t));
}

/**
 * Throws INVALID_RANGE unless r is a range of finite times with start < end lying within
 * [0, limit] (up to TOLERANCE); returns it clamped (it may be empty after clamping).
 */
export function checkRange(r: unknown, limit: number, label: string, what = 'output'): TimeRange {
  if (typeof r !== 'object' || r === null) throw new EditListError('INVALID_RANGE', `${label} must be a range { start, end } (got ${String(r)}).`);
  const { start, end } = r as Partial<TimeRange>;
  if (!isNumber(start) || !isNumber(end)) {
    throw new EditListError('INVALID_RANGE', `${label}: start and end must be finite numbers of seconds (got ${String(start)} and ${String(end)}).`);
  }
  if (start >= end) {
    throw new EditListError('INVALID_RANGE', `${label}: start (${fmt(start)} s) must be before end (${fmt(end)} s).`);
  }
  if (start < -TOLERANCE) {
    throw new EditListError('INVALID_RANGE', `${label}: times must not be negative (got ${fmt(start)} s to ${fmt(end)} s).`);
  }
  if (end > limit + TOLERANCE) {
    throw new EditListError('INVALID_RANGE', `${label} (${fmt(start)} s to ${fmt(end)} s) goes past the end of the ${what} (${fmt(limit)} s).`);
  }
  return { start: Math.min(Math.max(0, start), limit), end: Math.min(Math.max(0, end), limit) };
}

/** Throws INVALID_RANGE unless `list` is an array. */
export function checkList(list: unknown, label: string): asserts list is readonly unknown[] {
  if (!Array.isArray(list)) throw new EditListError('INVALID_RANGE', `${label} must be a list of ranges (got ${String(list)}).`);
}
