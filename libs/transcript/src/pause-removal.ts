/**
 * Step 3 of pause analysis: the ranges process-silence cuts, keeping a little silence next to
 * speech.
 */
import { roundTime } from './text';
import type { TimeSpan } from './silent-spans';

/** Closer than this to the media's start or end, a range has no speech on that side. */
export const MEDIA_EDGE_SEC = 0.1;

/**
 * The ranges process-silence cuts: each pause keeps `padding` seconds of silence on every side that
 * touches speech (a quarter of the pause when it is shorter than four paddings, so every range still
 * removes something), and none at the media's start or end. Ranges are held inside the media and
 * come back in the order given.
 */
export function padRemovalRanges(ranges: readonly TimeSpan[], o: { padding: number; duration: number }): TimeSpan[] {
  const out: TimeSpan[] = [];
  for (const range of ranges) {
    const r = { start: Math.max(0, range.start), end: Math.min(range.end, o.duration) };
    const length = r.end - r.start;
    if (!(length > 0)) continue;
    const keep = Math.min(Math.max(0, o.padding), length / 4);
    const start = r.start <= MEDIA_EDGE_SEC ? r.start : r.start + keep;
    const end = r.end >= o.duration - MEDIA_EDGE_SEC ? r.end : r.end - keep;
    if (end > start) out.push({ start: roundTime(start), end: roundTime(end) });
  }
  return out;
}
