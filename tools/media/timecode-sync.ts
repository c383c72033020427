/** What a timecode render should show: A/V sync from frames and burst onsets, expected frames of an edit. */
import { BURST_EVERY_FRAMES } from './timecode-layout';

export interface SyncReport {
  /** Worst |detected onset - expected onset| over the matched bursts (Infinity if one had no onset at all). */
  maxOffsetSec: number;
  matched: number;
  /** Bursts at a cut boundary with no onset within 40 ms (partially cut away, not a failure). */
  unmatched: number;
  /** Worst offset over bursts away from any cut (a burst at a cut may be partly cut, which moves its detected onset). */
  interiorMaxOffsetSec: number;
}

/** Boundary bursts farther than this from any onset are taken as cut away. */
const BOUNDARY_TOLERANCE_SEC = 0.04;

/**
 * A/V sync of a render: output frame k (shown at k / fps, the first frame at 0) showing source frame
 * n with n % 5 === 0 must have a burst onset at k / fps. Each expected onset is matched to the
 * nearest detected one. A burst of a frame next to a discontinuity (the last frame before or the
 * first after a place where frames[k] !== frames[k - 1] + 1) may be partially cut: without an onset
 * within 40 ms it counts as unmatched instead of as an offset. Frames shown before `audioStartSec`
 * of the source (audio that starts late) expect no burst. `outputTimes` (a variable frame rate):
 * when each output frame is shown, instead of k / fps.
 */
export function checkSync(frames: readonly number[], onsets: readonly number[], fps: number, audioStartSec = 0, outputTimes?: readonly number[]): SyncReport {
  const sorted = [...onsets].sort((a, b) => a - b);
  let maxOffsetSec = 0;
  let matched = 0;
  let unmatched = 0;
  let interiorMaxOffsetSec = 0;
  frames.forEach((n, k) => {
    // a source whose audio starts late has no burst for the frames before it
    if (n % BURST_EVERY_FRAMES !== 0 || n / fps < audioStartSec) return;
    const expected = outputTimes ? outputTimes[k]! : k / fps;
    const offset = Math.abs(nearest(sorted, expected) - expected);
    // the first output frame counts as a boundary too: no quiet precedes a burst at time 0
    const boundary = k === 0 || frames[k - 1]! + 1 !== n || (k + 1 < frames.length && frames[k + 1] !== n + 1);
    if (boundary && !(offset <= BOUNDARY_TOLERANCE_SEC)) {
      unmatched++;
      return;
    }
    matched++;
    maxOffsetSec = Math.max(maxOffsetSec, offset);
    if (!boundary) interiorMaxOffsetSec = Math.max(interiorMaxOffsetSec, offset);
  });
  return { maxOffsetSec, matched, unmatched, interiorMaxOffsetSec };
}

/** Nearest value in an ascending array (Infinity when empty). */
function nearest(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  const candidates = [sorted[lo - 1], sorted[lo]].filter((v): v is number => v !== undefined);
  if (candidates.length === 0) return Infinity;
  return candidates.reduce((best, v) => (Math.abs(v - x) < Math.abs(best - x) ? v : best));
}

/**
 * Source frame indices a frame-exact render of `segments` (source seconds, in play order) shows.
 * Boundaries snap to the nearest frame: a segment covers frames Math.round(start * fps) up to
 * Math.round(end * fps) - 1 (a boundary exactly half-way between frames rounds up).
 */
export function expectedFramesForSegments(segments: ReadonlyArray<{ start: number; end: number }>, fps: number): number[] {
  const out: number[] = [];
  for (const { start, end } of segments) {
    for (let n = Math.round(start * fps); n < Math.round(end * fps); n++) out.push(n);
  }
  return out;
}
