/**
 * Where a source's frames start, so that edits are cut on its frames: a constant rate, or (for a
 * variable frame rate) every frame's own start. The gateway snaps edit lists to this grid and the
 * renderer reads the same boundaries from the source's timestamps, so both name the same frames.
 */
import { EditListError } from './errors';

/**
 * `fps`: frame k starts at k / fps. `starts`: seconds from the first frame at which each frame
 * starts (ascending, the first 0), and `end`, where the last one ends.
 */
export type FrameGrid = { fps: number } | { starts: ArrayLike<number>; end: number };

/** Time of frame boundary `i` (0..frame count: the last is the end of the last frame). */
export function boundaryTime(grid: FrameGrid, i: number): number {
  if ('fps' in grid) return i / grid.fps;
  return i >= grid.starts.length ? grid.end : grid.starts[i]!;
}

/** Number of frames of a grid, or null for a constant rate (unbounded). */
export const gridFrameCount = (grid: FrameGrid): number | null => ('fps' in grid ? null : grid.starts.length);

/**
 * Index of the frame boundary nearest to `t` (a boundary exactly half-way goes to the later frame,
 * as rounding does at a constant rate). With a grid of starts, 0..frame count.
 */
export function nearestBoundary(grid: FrameGrid, t: number): number {
  if ('fps' in grid) return Math.round(t * grid.fps);
  const n = grid.starts.length;
  // the last boundary at or before t, by halving over 0..n
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (boundaryTime(grid, mid) <= t) lo = mid;
    else hi = mid - 1;
  }
  if (lo >= n) return n;
  const before = boundaryTime(grid, lo);
  const after = boundaryTime(grid, lo + 1);
  return t - before >= after - t ? lo + 1 : lo;
}

/** Refuses a grid that is not a positive rate or ascending finite starts from 0 with an end after them. */
export function checkFrameGrid(grid: FrameGrid): void {
  if ('fps' in grid) {
    if (typeof grid.fps !== 'number' || !Number.isFinite(grid.fps) || grid.fps <= 0) {
      throw new EditListError('INVALID_RANGE', `the frame rate must be a finite number of frames per second > 0 (got ${String(grid.fps)}).`);
    }
    return;
  }
  const { starts, end } = grid;
  let ok = starts.length > 0 && starts[0] === 0 && Number.isFinite(end) && end > starts[starts.length - 1]!;
  for (let i = 1; ok && i < starts.length; i++) ok = starts[i]! > starts[i - 1]!;
  if (!ok) throw new EditListError('INVALID_RANGE', 'the frame times must start at 0 and rise, and the last frame must end after it starts.');
}

/** Frames a stored grid may hold (19 hours at 60 fps): a larger one is refused, not allocated. */
export const MAX_GRID_FRAMES = 1 << 22;
const GRID_MAGIC = 0x57434647; // 'WCFG'

/**
 * A variable rate's grid as stored beside the original: magic, frame count, then each frame's
 * start after the one before and the last one's length, in whole microseconds (u32 big-endian).
 */
export function encodeFrameGrid(grid: { starts: ArrayLike<number>; end: number }): Uint8Array {
  checkFrameGrid(grid);
  const n = grid.starts.length;
  if (n > MAX_GRID_FRAMES) throw new EditListError('INVALID_RANGE', `a frame grid holds at most ${MAX_GRID_FRAMES} frames (got ${n}).`);
  const out = new DataView(new ArrayBuffer(8 + 4 * (n + 1)));
  out.setUint32(0, GRID_MAGIC);
  out.setUint32(4, n);
  let prev = 0;
  for (let i = 1; i <= n; i++) {
    const us = Math.round(boundaryTime(grid, i) * 1e6);
    out.setUint32(4 + 4 * i, Math.max(1, us - prev));
    prev = Math.max(prev + 1, us);
  }
  return new Uint8Array(out.buffer);
}

/** The grid of `encodeFrameGrid`'s bytes; throws INVALID_RANGE on anything else (bounded by the byte length). */
export function decodeFrameGrid(bytes: Uint8Array): { starts: number[]; end: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.byteLength >= 8 && view.getUint32(0) === GRID_MAGIC ? view.getUint32(4) : -1;
  if (n < 1 || n > MAX_GRID_FRAMES || bytes.byteLength !== 8 + 4 * (n + 1)) throw new EditListError('INVALID_RANGE', 'the stored frame grid is not one.');
  const starts = new Array<number>(n);
  let us = 0;
  starts[0] = 0;
  for (let i = 1; i < n; i++) {
    us += view.getUint32(4 + 4 * i);
    starts[i] = us / 1e6;
  }
  us += view.getUint32(4 + 4 * n);
  return { starts, end: us / 1e6 };
}
