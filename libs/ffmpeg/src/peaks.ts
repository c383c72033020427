/**
 * Pure waveform peak bucketing over raw signed 16-bit little-endian mono PCM, fed in chunks of
 * any size (so a decoder's stdout can be streamed through it with bounded memory: one 16-bit
 * maximum per bucket is kept, never the samples).
 */

/** Full scale of a signed 16-bit sample (|−32768|). */
const FULL_SCALE = 32768;

/**
 * Quiet recordings (a talk recorded at −20 dBFS) would draw as a flat line, so peaks are
 * normalised: the loudest peak of the file is scaled to full scale, with the gain capped at this
 * factor (+12 dB) so that near-silent files (room noise only) do not become a wall of noise.
 * Digital silence stays 0 whatever the gain.
 */
export const MAX_PEAK_GAIN = 4;

/** Scales per-bucket maxima (0..32768) to bytes (0..255), normalised as MAX_PEAK_GAIN describes. */
export function scalePeaks(maxima: ArrayLike<number>, maxGain = MAX_PEAK_GAIN): Uint8Array {
  let loudest = 0;
  for (let i = 0; i < maxima.length; i++) if (maxima[i]! > loudest) loudest = maxima[i]!;
  const gain = loudest > 0 ? Math.max(1, Math.min(maxGain, FULL_SCALE / loudest)) : 1;
  const out = new Uint8Array(maxima.length);
  for (let i = 0; i < maxima.length; i++) {
    out[i] = Math.round(Math.min(1, (maxima[i]! * gain) / FULL_SCALE) * 255);
  }
  return out;
}

/**
 * Accumulates the maximum |sample| of each bucket. Bucket `b` covers samples
 * [b·rate/pps, (b+1)·rate/pps), so with 8000 Hz and 100 peaks/s each peak is 80 samples (10 ms).
 */
export class PeakAccumulator {
  private maxima = new Uint16Array(1024);
  private buckets = 0;
  private samples = 0;
  private carry: number | null = null;

  constructor(
    readonly sampleRate: number,
    readonly peaksPerSecond: number,
  ) {
    if (!Number.isInteger(sampleRate) || sampleRate <= 0) throw new RangeError(`sampleRate must be a positive integer, got ${sampleRate}`);
    if (!Number.isFinite(peaksPerSecond) || peaksPerSecond <= 0 || peaksPerSecond > sampleRate) {
      throw new RangeError(`peaksPerSecond must be in (0, ${sampleRate}], got ${peaksPerSecond}`);
    }
  }

  /** Feeds s16le bytes; a chunk may end in the middle of a sample (the odd byte is kept). */
  push(chunk: Uint8Array): void {
    let i = 0;
    if (this.carry !== null && chunk.length > 0) {
      this.sample(toInt16(this.carry | (chunk[0]! << 8)));
      this.carry = null;
      i = 1;
    }
    for (; i + 1 < chunk.length; i += 2) this.sample(toInt16(chunk[i]! | (chunk[i + 1]! << 8)));
    if (i < chunk.length) this.carry = chunk[i]!;
  }

  /** Samples seen so far. */
  get sampleCount(): number {
    return this.samples;
  }

  /** Duration of the samples fed, and their peaks scaled to 0..255 (see scalePeaks). */
  finish(maxGain = MAX_PEAK_GAIN): { durationSec: number; peaks: Uint8Array } {
    return { durationSec: this.samples / this.sampleRate, peaks: scalePeaks(this.maxima.subarray(0, this.buckets), maxGain) };
  }

  private sample(v: number): void {
    const bucket = Math.floor((this.samples * this.peaksPerSecond) / this.sampleRate);
    this.samples++;
    if (bucket >= this.buckets) {
      if (bucket >= this.maxima.length) {
        const grown = new Uint16Array(Math.max(bucket + 1, this.maxima.length * 2));
        grown.set(this.maxima);
        this.maxima = grown;
      }
      this.buckets = bucket + 1;
    }
    const abs = v < 0 ? -v : v;
    if (abs > this.maxima[bucket]!) this.maxima[bucket] = abs;
  }
}

function toInt16(u: number): number {
  return u >= 0x8000 ? u - 0x10000 : u;
}
