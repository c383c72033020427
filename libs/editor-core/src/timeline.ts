/**
 * The advanced timeline (zoom 0.25x-16x): zoom steps, ruler ticks,
 * the visible time window, following the playhead, fast waveform bars for the visible window of
 * long (3-hour) waveforms, and the ranges (cuts, mutes) inside the window.
 *
 * Geometry: the timeline's content is `viewportWidth * zoom` pixels wide. At 1x the whole video
 * fits the viewport; 0.25x shrinks it to a quarter of the viewport, 16x makes it 16 viewports wide.
 * Pure: no React, DOM, Node APIs or IO.
 */
import { lowerBound } from '@wordcut/transcript';

/** Zoom limits and default. */
export const ZOOM_MIN = 0.25;
export const ZOOM_MAX = 16;
export const DEFAULT_ZOOM = 1;

/** `z` inside 0.25..16; anything not a positive finite number is the default 1x. */
function clampZoom(z: number): number {
  if (!Number.isFinite(z) || z <= 0) return DEFAULT_ZOOM;
  return Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, z));
}

/** Zoom in: doubles, at most 16x. */
export function zoomIn(z: number): number {
  return clampZoom(clampZoom(z) * 2);
}

/** Zoom out: halves, at least 0.25x. */
export function zoomOut(z: number): number {
  return clampZoom(clampZoom(z) / 2);
}

/** Whether zoom in still changes the zoom (below 16x). */
export function canZoomIn(z: number): boolean {
  return clampZoom(z) < ZOOM_MAX;
}

/** Whether zoom out still changes the zoom (above 0.25x). */
export function canZoomOut(z: number): boolean {
  return clampZoom(z) > ZOOM_MIN;
}

/** The zoom label: '0.25x', '0.5x', '1x', '16x' (at most two decimals, no trailing zeros). */
export function formatZoom(z: number): string {
  return `${Number(clampZoom(z).toFixed(2))}x`;
}

/** The ruler has 11 ticks. */
export const RULER_TICKS = 11;

/** A ruler tick: its time in seconds and its position as a fraction 0..1 of the visible window. */
export interface RulerTick {
  time: number;
  fraction: number;
}

/**
 * `count` ticks evenly spaced over the visible window, the first at `viewStart`, the last at
 * `viewEnd` (11 ticks by default). A count below 2 gives 2 ticks.
 */
export function rulerTicks(viewStart: number, viewEnd: number, count: number = RULER_TICKS): RulerTick[] {
  const n = Math.max(2, Math.floor(Number.isFinite(count) ? count : RULER_TICKS));
  const span = viewEnd - viewStart;
  const ticks: RulerTick[] = [];
  for (let i = 0; i < n; i++) {
    const fraction = i / (n - 1);
    ticks.push({ time: i === n - 1 ? viewEnd : viewStart + span * fraction, fraction });
  }
  return ticks;
}

/** Below this visible span (seconds) the ruler shows tenths of a second. */
export const TICK_TENTHS_BELOW_SECONDS = 10;

/**
 * A ruler label: 'm:ss', or 'h:mm:ss' from one hour on; with tenths ('m:ss.s', 'h:mm:ss.s')
 * when the visible span is under 10 s. The time is rounded to the shown precision; negative or
 * non-finite times show as 0.
 */
export function formatTickTime(seconds: number, spanSeconds: number): string {
  const tenths = spanSeconds < TICK_TENTHS_BELOW_SECONDS;
  const unitsPerSecond = tenths ? 10 : 1;
  const units = Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * unitsPerSecond) : 0;
  const whole = Math.floor(units / unitsPerSecond);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const ss = String(s).padStart(2, '0') + (tenths ? `.${units % 10}` : '');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * The visible time window in seconds for a scroll position: the viewport's pixels mapped onto
 * the content (`contentWidth` pixels for `duration` seconds), clamped to 0..duration. Without a
 * usable content width or duration the window is the whole (possibly empty) video.
 */
export function visibleWindow(scrollLeft: number, viewportWidth: number, contentWidth: number, duration: number): { start: number; end: number } {
  const total = Number.isFinite(duration) && duration > 0 ? duration : 0;
  if (!(contentWidth > 0) || total === 0) return { start: 0, end: total };
  const perPixel = total / contentWidth;
  const left = Number.isFinite(scrollLeft) ? Math.max(0, scrollLeft) : 0;
  const width = Number.isFinite(viewportWidth) ? Math.max(0, viewportWidth) : 0;
  const start = Math.min(total, left * perPixel);
  return { start, end: Math.min(total, Math.max(start, (left + width) * perPixel)) };
}

/** The playhead counts as leaving the view within this share of the viewport's right edge. */
export const FOLLOW_RIGHT_MARGIN = 0.05;
/** Where following puts the playhead: this share of the viewport from its left edge. */
export const FOLLOW_ANCHOR = 0.25;

/**
 * Following the playhead: when the playhead (content x in pixels) is
 * left of the view, right of it, or within 5% of its right edge, the scrollLeft that puts it at
 * a quarter of the viewport, clamped to 0..contentWidth - viewportWidth. Null when no scroll is
 * needed, or when the clamped position equals the current one (nothing to do at the content's
 * end).
 */
export function followPlayhead(playheadX: number, scrollLeft: number, viewportWidth: number, contentWidth: number): number | null {
  if (![playheadX, scrollLeft, viewportWidth, contentWidth].every(Number.isFinite) || viewportWidth <= 0) return null;
  const rightEdge = scrollLeft + viewportWidth * (1 - FOLLOW_RIGHT_MARGIN);
  if (playheadX >= scrollLeft && playheadX < rightEdge) return null;
  const maxScroll = Math.max(0, contentWidth - viewportWidth);
  const next = Math.min(maxScroll, Math.max(0, playheadX - viewportWidth * FOLLOW_ANCHOR));
  return next === scrollLeft ? null : next;
}

/**
 * A max pyramid over waveform peaks: `levels[0]` holds |peak| per peak (non-finite peaks as 0),
 * `levels[k][j]` the max of `levels[k-1][2j]` and `levels[k-1][2j+1]`, i.e. the max over peaks
 * j*2^k .. (j+1)*2^k - 1. The last level has one value. About 2x the peaks in memory.
 */
export interface PeakPyramid {
  /** number of peaks (length of level 0) */
  readonly length: number;
  readonly levels: readonly Float32Array[];
}

/** Builds the pyramid in O(n) (a 3-hour waveform at 100 peaks/s: about 1.1 M peaks). */
export function buildPeakPyramid(peaks: ArrayLike<number>): PeakPyramid {
  const base = new Float32Array(peaks.length);
  for (let i = 0; i < peaks.length; i++) {
    const p = Math.abs(peaks[i] ?? 0);
    base[i] = Number.isFinite(p) ? p : 0;
  }
  const levels: Float32Array[] = [base];
  let prev = base;
  while (prev.length > 1) {
    const next = new Float32Array(Math.ceil(prev.length / 2));
    for (let j = 0; j < next.length; j++) {
      const a = prev[2 * j] ?? 0;
      const b = 2 * j + 1 < prev.length ? (prev[2 * j + 1] ?? 0) : 0;
      next[j] = a > b ? a : b;
    }
    levels.push(next);
    prev = next;
  }
  return { length: base.length, levels };
}

/** Exact max of peaks lo..hi-1 (0 <= lo <= hi <= length) by climbing the pyramid. */
function rangeMax(levels: readonly Float32Array[], lo: number, hi: number): number {
  let max = 0;
  let l = lo;
  let r = hi;
  for (let k = 0; l < r; k++) {
    const level = levels[k];
    if (!level) break;
    if (l & 1) {
      const v = level[l++] ?? 0;
      if (v > max) max = v;
    }
    if (r & 1) {
      const v = level[--r] ?? 0;
      if (v > max) max = v;
    }
    l >>= 1;
    r >>= 1;
  }
  return max;
}

// Guards the slice ends against float noise (99.99999999 peaks meaning 100).
const SLICE_EPSILON = 1e-9;

/**
 * Waveform bars for the visible part [fromFraction, toFraction) of the waveform: `bars` equal
 * slices, each bar the max |peak| of the peaks whose index lies in its slice (peak i belongs to
 * the slice containing position i, so slices partition the peaks). A slice narrower than one peak
 * uses the peak under its centre. Parts outside the waveform count as silence (0).
 *
 * Cost: O(log w) per bar for slices w peaks wide, independent of the waveform's length: the
 * slice's interior is read from the coarsest pyramid level whose bucket is no wider than the
 * slice (at most two buckets there), and its ragged edges from one bucket per finer level, so
 * the result equals the brute-force max. Writes into `out` when it has room (returning `out`,
 * or its first `bars` entries).
 */
export function peakBars(pyramid: PeakPyramid, fromFraction: number, toFraction: number, bars: number, out?: Float32Array): Float32Array {
  const count = Number.isFinite(bars) && bars > 0 ? Math.floor(bars) : 0;
  const target = out && out.length >= count ? (out.length === count ? out : out.subarray(0, count)) : new Float32Array(count);
  const n = pyramid.length;
  const base = pyramid.levels[0];
  if (count === 0) return target;
  if (n === 0 || !base || !Number.isFinite(fromFraction) || !Number.isFinite(toFraction) || toFraction <= fromFraction) {
    target.fill(0);
    return target;
  }
  const from = fromFraction * n;
  const width = ((toFraction - fromFraction) * n) / count;
  for (let i = 0; i < count; i++) {
    const a = from + width * i;
    if (width < 1) {
      const centre = Math.floor(a + width / 2);
      target[i] = centre >= 0 && centre < n ? (base[centre] ?? 0) : 0;
      continue;
    }
    const b = i === count - 1 ? toFraction * n : from + width * (i + 1);
    const lo = Math.max(0, Math.floor(a + SLICE_EPSILON));
    const hi = Math.min(n, Math.floor(b + SLICE_EPSILON));
    target[i] = lo < hi ? rangeMax(pyramid.levels, lo, hi) : 0;
  }
  return target;
}

/**
 * The ranges overlapping the window (windowStart, windowEnd) in seconds, touching ones excluded,
 * found by binary search in O(log n + k). `ranges` must be sorted by start and not overlap each
 * other (as merged pending cuts and mutes are), so their ends are sorted too.
 */
export function rangesInWindow<T extends { start: number; end: number }>(ranges: readonly T[], windowStart: number, windowEnd: number): T[] {
  if (!(windowEnd > windowStart)) return [];
  const first = lowerBound(ranges, (r) => r.end > windowStart); // first range ending after the window starts
  const last = lowerBound(ranges, (r) => r.start >= windowEnd, first); // first range starting at or after the window ends
  return ranges.slice(first, last);
}
