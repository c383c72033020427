import { MUTE_VOLUME, type TimeRange } from '@wordcut/edit-list';
import { CUT_MERGE_GAP_SECONDS, mergeCloseRanges, type PendingCut, type PendingMute } from './pending';
import { lowerBound } from '@wordcut/transcript';
import { roundMs } from './round';

/**
 * Playback rules of the editor's player: pending cuts are always skipped, silences marked
 * 'remove' are skipped in silence preview, mutes lower the volume in mute preview, preview
 * time-range mode pauses at the range end and clamps seeks, and reorder preview plays paragraphs
 * in their new order.
 *
 * `buildPlaybackRules` runs when marks change; `playbackStep` runs on every animation frame and is
 * O(log n) in the number of skip and mute ranges (plus the number of skips it chains over).
 */

export type { TimeRange };

/** Playback jumps this far past the end of a skipped range. */
export const SKIP_MARGIN_SECONDS = 0.1;

/** Reorder preview refuses segments shorter than this. */
export const MIN_PREVIEW_SEGMENT_SECONDS = 0.1;

/** A segment may end this far past the video duration (float noise of stored times). */
export const PREVIEW_END_TOLERANCE_SECONDS = 0.05;

/**
 * Reorder preview treats the playhead as moved by the user only when it is more than this far
 * before the current segment's start or past its end; closer, it is seek latency or a late frame.
 */
export const REORDER_SEEK_TOLERANCE_SECONDS = 0.25;

/** A muted time range and the volume (0..1) that plays inside it. */
export interface VolumeRange {
  start: number;
  end: number;
  volume: number;
}

function isValidRange(r: { start: number; end: number }): boolean {
  return Number.isFinite(r.start) && Number.isFinite(r.end) && r.end > r.start;
}

/**
 * Pending cuts as skip ranges: sorted, merged when the gap between
 * two cuts is at most 0.1 s. Ranges with no length (or non-finite times) are dropped after merging.
 */
export function cutSkipRanges(cuts: readonly Pick<PendingCut, 'startTime' | 'endTime'>[]): TimeRange[] {
  const ranges = cuts.map((c) => ({ start: c.startTime, end: c.endTime })).filter((r) => Number.isFinite(r.start) && Number.isFinite(r.end));
  return mergeCloseRanges(ranges, CUT_MERGE_GAP_SECONDS).filter(isValidRange);
}

/**
 * Silences skipped in silence preview: only those recommended for
 * removal, sorted, overlapping or touching ones merged.
 */
export function silenceSkipRanges(silences: readonly { startTime: number; endTime: number; recommendation: string }[]): TimeRange[] {
  const ranges = silences.filter((s) => s.recommendation === 'remove').map((s) => ({ start: s.startTime, end: s.endTime }));
  return mergeCloseRanges(ranges.filter(isValidRange), 0);
}

/**
 * Mutes as volume ranges (each plays at MUTE_VOLUME of its level):
 * sorted and disjoint, where mutes overlap in time the lowest volume wins, and touching pieces of
 * the same volume are joined. O(n log n) (a sweep over the range boundaries).
 */
export function muteVolumeRanges(mutes: readonly Pick<PendingMute, 'startTime' | 'endTime' | 'level'>[]): VolumeRange[] {
  const events: { t: number; volume: number; delta: 1 | -1 }[] = [];
  for (const m of mutes) {
    const volume = MUTE_VOLUME[m.level];
    if (volume === undefined || !isValidRange({ start: m.startTime, end: m.endTime })) continue;
    events.push({ t: m.startTime, volume, delta: 1 }, { t: m.endTime, volume, delta: -1 });
  }
  events.sort((a, b) => a.t - b.t);
  const active = new Map<number, number>(); // volume -> number of mutes covering the sweep point
  const out: VolumeRange[] = [];
  let k = 0;
  while (k < events.length) {
    const t = events[k]!.t;
    for (; k < events.length && events[k]!.t === t; k++) {
      const e = events[k]!;
      const n = (active.get(e.volume) ?? 0) + e.delta;
      if (n === 0) active.delete(e.volume);
      else active.set(e.volume, n);
    }
    const next = events[k]?.t;
    if (next === undefined || active.size === 0) continue;
    const volume = Math.min(...active.keys()); // at most one key per mute level
    const last = out[out.length - 1];
    if (last && last.end === t && last.volume === volume) last.end = next;
    else out.push({ start: t, end: next, volume });
  }
  return out;
}

/** What the player applies while playing; built by buildPlaybackRules. */
export interface PlaybackRules {
  /** sorted, disjoint, half-open [start, end): cut skips and (in silence preview) silence skips */
  skips: TimeRange[];
  /** sorted, disjoint volume ranges (empty unless mute preview is on) */
  mutes: VolumeRange[];
  /** preview time-range mode: playback pauses at range.end and seeks are clamped to the range */
  range: TimeRange | null;
  /** video duration in seconds; 0 when unknown (then nothing is clamped to it) */
  duration: number;
}

export interface PlaybackRulesInput {
  cuts: readonly Pick<PendingCut, 'startTime' | 'endTime'>[];
  mutes: readonly Pick<PendingMute, 'startTime' | 'endTime' | 'level'>[];
  silences: readonly { startTime: number; endTime: number; recommendation: string }[];
  mutePreview: boolean;
  silencePreview: boolean;
  range: TimeRange | null;
  duration: number;
}

/**
 * The playback rules for the current marks and preview modes: cuts
 * are always skipped, silences only in silence preview, mutes only in mute preview. A range that is
 * not finite with start < end means no range mode. O(n log n); call it when marks change.
 */
export function buildPlaybackRules(input: PlaybackRulesInput): PlaybackRules {
  const skipped = [...cutSkipRanges(input.cuts), ...(input.silencePreview ? silenceSkipRanges(input.silences) : [])];
  const range = input.range && isValidRange(input.range) ? { start: input.range.start, end: input.range.end } : null;
  return {
    skips: mergeCloseRanges(skipped, 0),
    mutes: input.mutePreview ? muteVolumeRanges(input.mutes) : [],
    range,
    duration: Number.isFinite(input.duration) && input.duration > 0 ? input.duration : 0,
  };
}

/** What the player does on one frame: seek (or not), set the volume, pause (or not). */
export interface PlaybackStep {
  seekTo: number | null;
  volume: number;
  pause: boolean;
}

/** Index of the first range whose end is after `time` (ranges sorted and disjoint, so ends ascend). O(log n). */
function firstEndingAfter(ranges: readonly { end: number }[], time: number, from = 0): number {
  return lowerBound(ranges, (r) => !(r.end <= time), from);
}

/** The volume at `time`: the mute range containing it, else 1. O(log n). */
export function volumeAt(mutes: readonly VolumeRange[], time: number): number {
  const m = mutes[firstEndingAfter(mutes, time)];
  return m && m.start <= time ? m.volume : 1;
}

/**
 * Where playback at `time` must jump to, or null when it need not: when a skip range starts within
 * `lookahead` (start - lookahead <= time < end), to its end plus the skip margin; when that lands in
 * (or within lookahead before) the next skip, on to that one's end plus the margin, and so on.
 */
function skipTarget(skips: readonly TimeRange[], time: number, lookahead: number): number | null {
  let i = firstEndingAfter(skips, time);
  let skip = skips[i];
  if (!skip || skip.start - lookahead > time) return null;
  let target = time;
  while (skip && skip.start - lookahead <= target) {
    target = roundMs(skip.end + SKIP_MARGIN_SECONDS);
    i = firstEndingAfter(skips, target, i + 1);
    skip = skips[i];
  }
  return target;
}

/**
 * One frame of playback; `lookahead` (s) is how far playback moves
 * before the next frame, so skip ranges and the range end are acted on before they are reached.
 * - Range mode: before range.start, seek to it; at or after range.end - lookahead, seek to
 *   range.end and pause.
 * - Skips: inside (or within lookahead of) a skip range, seek to its end + 0.1 s, chaining over
 *   skips that target lands in; clamped to the duration, where playback pauses (the video ended).
 * - Volume: the mute volume at the (post-seek) time, 1 outside mutes.
 * O(log n + k) for n skips/mutes and k chained skips.
 */
export function playbackStep(rules: PlaybackRules, time: number, lookahead = 0): PlaybackStep {
  const ahead = Number.isFinite(lookahead) && lookahead > 0 ? lookahead : 0;
  const { range, duration } = rules;
  const pauseAt = (t: number): PlaybackStep => ({ seekTo: t, volume: volumeAt(rules.mutes, t), pause: true });
  let t = time;
  let seekTo: number | null = null;
  if (range) {
    if (t < range.start) t = seekTo = range.start;
    if (t >= range.end - ahead) return pauseAt(range.end);
  }
  const target = skipTarget(rules.skips, t, ahead);
  if (target !== null) {
    if (duration > 0 && target >= duration) return pauseAt(range ? Math.min(duration, range.end) : duration);
    if (range && target >= range.end - ahead) return pauseAt(range.end);
    t = seekTo = target;
  }
  return { seekTo, volume: volumeAt(rules.mutes, t), pause: false };
}

/**
 * Where a user seek lands: in range mode clamped to the range, otherwise to
 * 0..duration; a target inside a skip range moves past it (end + 0.1 s, chained), so clicking
 * inside a pending cut does not play it. A non-finite time goes to the range start (or 0).
 */
export function clampSeek(rules: PlaybackRules, time: number): number {
  const { range, duration } = rules;
  const lo = range ? range.start : 0;
  const hi = range ? range.end : duration > 0 ? duration : Infinity;
  if (!Number.isFinite(time)) return lo;
  const t = Math.min(hi, Math.max(lo, time));
  const target = skipTarget(rules.skips, t, 0);
  if (target === null) return t;
  return Math.min(target, hi, duration > 0 ? duration : Infinity);
}

/** One paragraph of reorder mode, in play order (the payload's spec form). */
export interface ReorderSegment {
  id: string;
  start: number;
  end: number;
  paragraphId: number;
  wordIndices: number[];
  type: 'paragraph';
}

/**
 * Why reorder preview cannot start, or null when it can. Checked in this order, the first
 * failing segment (1-based N) wins. The length and the end overshoot (up to 0.05 s past the
 * duration is allowed) are compared to the millisecond: 0.3 - 0.2 is 0.09999999999999998 and
 * must pass as 0.1 s.
 */
export function validatePreviewSegments(segments: readonly ReorderSegment[], duration: number | null | undefined): string | null {
  if (segments.length === 0) return 'No segments to preview - please reorder some content first';
  if (typeof duration !== 'number' || !Number.isFinite(duration) || duration <= 0) {
    return 'Video metadata not loaded - please wait for video to load';
  }
  for (let k = 0; k < segments.length; k++) {
    const { start, end } = segments[k]!;
    const n = k + 1;
    if (!Number.isFinite(start) || !Number.isFinite(end)) return `Segment ${n} has invalid timing data`;
    if (start >= end) return `Segment ${n} has invalid time range (start >= end)`;
    if (start < 0 || roundMs(end - duration) > PREVIEW_END_TOLERANCE_SECONDS) return `Segment ${n} timing is outside video duration`;
    const length = end - start;
    if (roundMs(length) < MIN_PREVIEW_SEGMENT_SECONDS) {
      return `Segment ${n} is too short (${length.toFixed(2)} s) - minimum 0.1s required`;
    }
  }
  return null;
}

/** Reorder preview moves on this long before a segment's end: min(0.05 s, 20% of its length). */
export function advanceWindow(segment: Pick<ReorderSegment, 'start' | 'end'>): number {
  return Math.min(0.05, 0.2 * (segment.end - segment.start));
}

/** What the player does on one frame of reorder preview. */
export interface ReorderPreviewStep {
  /** the segment now playing */
  index: number;
  seekTo: number | null;
  pause: boolean;
  /** the preview has ended (the player leaves preview mode and restores the original position) */
  done: boolean;
}

/**
 * One frame of reorder preview, segment `index` playing at `time`:
 * - within the advance window of its end (up to 0.25 s past it, a late frame): seek to the next
 *   segment's start, or after the last one pause at its end and finish;
 * - more than 0.25 s before its start or past its end: the user seeked away, and the preview
 *   returns to the start of the current segment (the preview plays only the reordered segments;
 *   the 0.25 s tolerance absorbs seek latency and coarse time updates);
 * - otherwise nothing.
 * An index with no segment means the preview is over (done, pause).
 */
export function reorderPreviewStep(segments: readonly ReorderSegment[], index: number, time: number): ReorderPreviewStep {
  const segment = segments[index];
  if (!segment) return { index, seekTo: null, pause: true, done: true };
  const seekedAway =
    !Number.isFinite(time) || time < segment.start - REORDER_SEEK_TOLERANCE_SECONDS || time > segment.end + REORDER_SEEK_TOLERANCE_SECONDS;
  if (seekedAway) return { index, seekTo: segment.start, pause: false, done: false };
  if (time < segment.end - advanceWindow(segment)) return { index, seekTo: null, pause: false, done: false };
  const next = segments[index + 1];
  if (next) return { index: index + 1, seekTo: next.start, pause: false, done: false };
  return { index, seekTo: segment.end, pause: true, done: true };
}

/** The reorder preview button: disabled with a reason until the order changed and the video is ready. */
export function previewButtonState(changed: boolean, videoReady: boolean): { disabled: boolean; reason: string | null } {
  if (!changed) return { disabled: true, reason: 'No changes made - drag paragraphs to reorder first' };
  if (!videoReady) return { disabled: true, reason: 'Video is still loading - please wait' };
  return { disabled: false, reason: null };
}
