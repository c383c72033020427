import { energyByte } from '@wordcut/contracts';

/**
 * Pure frame-energy accumulation over raw signed 16-bit little-endian mono PCM, fed in chunks of any
 * size alongside the peaks (one decode for both). Frame `f` covers samples [f·rate/fps, (f+1)·rate/fps);
 * its level is the RMS of those samples in dBFS, stored as a level byte (energy-format.ts of
 * @wordcut/contracts). Memory grows with the number of frames, never with the samples.
 */
export class EnergyAccumulator {
  private sums = new Float64Array(1024);
  private counts = new Uint32Array(1024);
  private frames = 0;
  private samples = 0;
  private carry: number | null = null;

  constructor(
    readonly sampleRate: number,
    readonly framesPerSecond: number,
  ) {
    if (!Number.isInteger(sampleRate) || sampleRate <= 0) throw new RangeError(`sampleRate must be a positive integer, got ${sampleRate}`);
    if (!Number.isFinite(framesPerSecond) || framesPerSecond <= 0 || framesPerSecond > sampleRate) {
      throw new RangeError(`framesPerSecond must be in (0, ${sampleRate}], got ${framesPerSecond}`);
    }
  }

  /** Feeds s16le bytes; a chunk may end in the middle of a sample (the odd byte is kept). */
  push(chunk: Uint8Array): void {
    let i = 0;
    if (this.carry !== null && chunk.length > 0) {
      const u = this.carry | (chunk[0]! << 8);
      this.add(u >= 0x8000 ? u - 0x10000 : u);
      this.carry = null;
      i = 1;
    }
    for (; i + 1 < chunk.length; i += 2) {
      const u = chunk[i]! | (chunk[i + 1]! << 8);
      this.add(u >= 0x8000 ? u - 0x10000 : u);
    }
    if (i < chunk.length) this.carry = chunk[i]!;
  }

  /** The level byte of every frame fed so far (a last partial frame from the samples it has). */
  finish(): Uint8Array {
    const out = new Uint8Array(this.frames);
    for (let f = 0; f < this.frames; f++) {
      const mean = this.counts[f]! > 0 ? this.sums[f]! / this.counts[f]! : 0;
      out[f] = mean > 0 ? energyByte(10 * Math.log10(mean / (32768 * 32768))) : 0;
    }
    return out;
  }

  private add(v: number): void {
    const frame = Math.floor((this.samples * this.framesPerSecond) / this.sampleRate);
    this.samples++;
    if (frame >= this.frames) {
      if (frame >= this.sums.length) {
        const size = Math.max(frame + 1, this.sums.length * 2);
        const sums = new Float64Array(size);
        sums.set(this.sums);
        const counts = new Uint32Array(size);
        counts.set(this.counts);
        this.sums = sums;
        this.counts = counts;
      }
      this.frames = frame + 1;
    }
    this.sums[frame] = this.sums[frame]! + v * v;
    this.counts[frame]!++;
  }
}
