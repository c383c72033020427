/**
 * Honest job times: how long jobs like this one took lately. A sample is a completed job's time
 * from request to completion and its media's length; jobs on media within a factor of
 * SIZE_FACTOR of this one's count (all of them when the size is unknown). The newest
 * MAX_SAMPLES of those give their median; with fewer than MIN_SAMPLES there is no estimate.
 */

export interface DurationSample {
  sec: number;
  /** the media's length the job worked on (seconds), when known */
  sizeSec: number | null;
}

export const SIZE_FACTOR = 2;
export const MIN_SAMPLES = 3;
export const MAX_SAMPLES = 20;

/** The median of the newest comparable samples (given newest first), or null with too few. */
export function typicalSeconds(samples: readonly DurationSample[], sizeSec: number | null): { typicalSec: number | null; basedOn: number } {
  const comparable = samples
    .filter((s) => Number.isFinite(s.sec) && s.sec >= 0)
    .filter((s) => sizeSec === null || !(sizeSec > 0) || (s.sizeSec !== null && s.sizeSec > 0 && s.sizeSec <= sizeSec * SIZE_FACTOR && s.sizeSec >= sizeSec / SIZE_FACTOR))
    .slice(0, MAX_SAMPLES);
  if (comparable.length < MIN_SAMPLES) return { typicalSec: null, basedOn: comparable.length };
  const sorted = comparable.map((s) => s.sec).sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { typicalSec: Math.round(median * 10) / 10, basedOn: comparable.length };
}
