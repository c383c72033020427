/**
 * Speaking energy from the stored frame-energy series (one level byte per frame, half decibels
 * from -127.5 dBFS): how loud each sentence is spoken, measured over its voiced frames only, so
 * its pauses do not pull it down.
 */

/** A frame-energy series: `framesPerSecond` level bytes per second of media. */
export interface EnergyLevels {
  framesPerSecond: number;
  levels: Uint8Array;
}

/** Decibels per step of a level byte. */
const DB_PER_STEP = 0.5;

/** The level byte at percentile `p` (0..1) of the series, from a histogram (no sort, no copy). */
function percentileByte(levels: Uint8Array, p: number): number {
  const histogram = new Uint32Array(256);
  for (const b of levels) histogram[b]!++;
  const rank = Math.floor(p * (levels.length - 1));
  let seen = 0;
  for (let b = 0; b < 256; b++) {
    seen += histogram[b]!;
    if (seen > rank) return b;
  }
  return 255;
}

/**
 * The mean level in dB of the voiced frames of each span (frames louder than the recording's
 * floor plus a quarter of the way to its speech level), or null for a span with none, or for
 * every span when the recording has one level throughout (under 12 dB between floor and speech).
 * Spans are in time order; the series is walked once.
 */
export function voicedLevels(energy: EnergyLevels, spans: ReadonlyArray<{ start: number; end: number }>): Array<number | null> {
  const { levels, framesPerSecond } = energy;
  if (levels.length === 0) return spans.map(() => null);
  const floor = percentileByte(levels, 0.1);
  const speech = percentileByte(levels, 0.95);
  if ((speech - floor) * DB_PER_STEP < 12) return spans.map(() => null);
  const voiced = floor + Math.max(12, (speech - floor) / 4);
  return spans.map(({ start, end }) => {
    const a = Math.max(0, Math.floor(start * framesPerSecond));
    const b = Math.min(levels.length, Math.ceil(end * framesPerSecond));
    let sum = 0;
    let count = 0;
    for (let f = a; f < b; f++) {
      const level = levels[f]!;
      if (level >= voiced) {
        sum += level;
        count++;
      }
    }
    return count === 0 ? null : (sum / count) * DB_PER_STEP;
  });
}
