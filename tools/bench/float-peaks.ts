/**
 * The waveform benchmark's alternative, pure part: peaks computed in JS from audio decoded at its
 * native sample rate and channel count as 32-bit float, interleaved little-endian (what
 * `ffmpeg -i in -vn -f f32le pipe:1` writes). Bucket `b` covers frames [b·rate/pps, (b+1)·rate/pps),
 * the same buckets as @wordcut/ffmpeg's PeakAccumulator, and the result is scaled by the same
 * `scalePeaks`, so both produce the stored waveform's bytes.
 */
import { scalePeaks } from '@wordcut/ffmpeg';

/** Full scale of a 16-bit sample, the unit scalePeaks expects. */
const FULL_SCALE = 32768;

export class FloatPeakAccumulator {
  private maxima = new Float32Array(1024);
  private buckets = 0;
  private frames = 0;
  /** Channel of the next sample within its frame. */
  private channel = 0;
  /** Bytes of a sample split between two chunks. */
  private carry = new Uint8Array(4);
  private carried = 0;

  constructor(
    readonly sampleRate: number,
    readonly channels: number,
    readonly peaksPerSecond: number,
  ) {
    if (!Number.isInteger(sampleRate) || sampleRate <= 0) throw new RangeError(`sampleRate must be a positive integer, got ${sampleRate}`);
    if (!Number.isInteger(channels) || channels <= 0) throw new RangeError(`channels must be a positive integer, got ${channels}`);
    if (!Number.isFinite(peaksPerSecond) || peaksPerSecond <= 0 || peaksPerSecond > sampleRate) {
      throw new RangeError(`peaksPerSecond must be in (0, ${sampleRate}], got ${peaksPerSecond}`);
    }
  }

  /** Feeds f32le bytes; a chunk may end anywhere (inside a sample or a frame). */
  push(chunk: Uint8Array): void {
    let bytes = chunk;
    if (this.carried > 0) {
      const need = 4 - this.carried;
      if (bytes.length < need) {
        this.carry.set(bytes, this.carried);
        this.carried += bytes.length;
        return;
      }
      this.carry.set(bytes.subarray(0, need), this.carried);
      this.samples(new Float32Array(this.carry.buffer, 0, 1));
      this.carried = 0;
      bytes = bytes.subarray(need);
    }
    const whole = bytes.length - (bytes.length % 4);
    if (whole > 0) {
      // a Float32Array view needs 4-byte alignment; pipe chunks usually have it, copy when not
      const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice(0, whole);
      this.samples(new Float32Array(aligned.buffer, aligned.byteOffset, whole / 4));
    }
    if (whole < bytes.length) {
      this.carry.set(bytes.subarray(whole));
      this.carried = bytes.length - whole;
    }
  }

  /** Whole frames seen so far. */
  get frameCount(): number {
    return this.frames;
  }

  /** Duration of the frames fed, and their peaks scaled to 0..255 like the stored waveform's. */
  finish(): { durationSec: number; peaks: Uint8Array } {
    const maxima = this.maxima.subarray(0, this.buckets);
    const asInt16Scale = new Float64Array(maxima.length);
    for (let i = 0; i < maxima.length; i++) asInt16Scale[i] = Math.min(FULL_SCALE, maxima[i]! * FULL_SCALE);
    return { durationSec: this.frames / this.sampleRate, peaks: scalePeaks(asInt16Scale) };
  }

  private samples(values: Float32Array): void {
    const { channels, sampleRate, peaksPerSecond } = this;
    let frames = this.frames;
    let channel = this.channel;
    let bucket = Math.floor((frames * peaksPerSecond) / sampleRate);
    this.ensure(bucket);
    let max = this.maxima[bucket]!;
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      const abs = v < 0 ? -v : v;
      if (abs > max) max = abs;
      if (++channel === channels) {
        channel = 0;
        frames++;
        const next = Math.floor((frames * peaksPerSecond) / sampleRate);
        if (next !== bucket) {
          this.maxima[bucket] = max;
          bucket = next;
          this.ensure(bucket);
          max = this.maxima[bucket]!;
        }
      }
    }
    this.maxima[bucket] = max;
    // buckets up to the last whole frame's (a bucket only counts once a frame of it was seen)
    if (frames > 0) this.buckets = Math.floor(((frames - 1) * peaksPerSecond) / sampleRate) + 1;
    this.frames = frames;
    this.channel = channel;
  }

  private ensure(bucket: number): void {
    if (bucket < this.maxima.length) return;
    const grown = new Float32Array(Math.max(bucket + 1, this.maxima.length * 2));
    grown.set(this.maxima);
    this.maxima = grown;
  }
}

/**
 * How alike two peak series are: mean |a - b| over the common length (in 0..255 units), and the
 * difference in length. Used to check that both waveform paths measured the same audio.
 */
export function comparePeaks(a: Uint8Array, b: Uint8Array): { meanAbsDiff: number; lengthDiff: number } {
  const n = Math.min(a.length, b.length);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.abs(a[i]! - b[i]!);
  return { meanAbsDiff: n > 0 ? sum / n : 0, lengthDiff: Math.abs(a.length - b.length) };
}
