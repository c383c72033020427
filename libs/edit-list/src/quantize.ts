/**
 * Frame snapping: a render cuts on frame boundaries, so edit lists are snapped to the frame grid
 * first; otherwise audio and video of a cut would disagree by a fraction of a frame.
 */
import { cloneEditList } from './basics';
import { EditListError } from './errors';
import { boundaryTime, checkFrameGrid, gridFrameCount, nearestBoundary, type FrameGrid } from './frame-grid';
import { fmt, normaliseSegments } from './layout';
import { normaliseMutes } from './mutes-internal';
import { assertEditList } from './schema';
import type { EditList } from './types';

/** t snapped to the nearest multiple of 1 / frameRate (halves round up). */
export function snapToFrame(t: number, frameRate: number): number {
  checkFrameRate(frameRate);
  if (typeof t !== 'number' || !Number.isFinite(t) || t < 0) {
    throw new EditListError('INVALID_RANGE', `a time to snap must be a finite number of seconds >= 0 (got ${String(t)}).`);
  }
  return Math.round(t * frameRate) / frameRate;
}

/**
 * Snaps every segment and mute boundary to the nearest frame boundary of the source (a constant
 * rate, or a variable rate's own frame starts: FrameGrid), never past the last whole frame of the
 * source. Segments and mutes that become empty are dropped, segments that become contiguous
 * merge; snapping is monotone, so nothing starts to overlap. Idempotent. Throws EMPTY_RESULT when
 * no segment survives (all shorter than half a frame).
 */
export function quantize(el: EditList, frames: number | FrameGrid): EditList {
  assertEditList(el);
  const grid: FrameGrid = typeof frames === 'number' ? { fps: frames } : frames;
  checkFrameGrid(grid);
  // the last boundary inside the source (the epsilon keeps a float product such as 119.99999999999999 on its frame)
  let last = gridFrameCount(grid) ?? Math.floor(el.sourceDuration * (grid as { fps: number }).fps + 1e-6);
  while (last > 0 && boundaryTime(grid, last) > el.sourceDuration + 1e-9) last--;
  // a boundary a float's width past the end is the end
  const snap = (t: number) => Math.min(el.sourceDuration, boundaryTime(grid, Math.min(last, Math.max(0, nearestBoundary(grid, t)))));
  const segments = normaliseSegments(el.segments.map((s) => ({ start: snap(s.start), end: snap(s.end) })));
  if (segments.length === 0) {
    const rate = 'fps' in grid ? `at ${fmt(grid.fps)} frames per second` : 'on the source\'s frames';
    throw new EditListError('EMPTY_RESULT', `${rate} no segment is at least one frame long; nothing would remain.`);
  }
  const mutes = normaliseMutes(el.mutes.map((m) => ({ start: snap(m.start), end: snap(m.end), level: m.level })));
  return { ...cloneEditList(el), segments, mutes };
}

function checkFrameRate(frameRate: number): void {
  if (typeof frameRate !== 'number' || !Number.isFinite(frameRate) || frameRate <= 0) {
    throw new EditListError('INVALID_RANGE', `the frame rate must be a finite number of frames per second > 0 (got ${String(frameRate)}).`);
  }
}
