import { PeakAccumulator } from '@wordcut/ffmpeg';
import { FloatPeakAccumulator, comparePeaks } from './float-peaks';

/** A deterministic signal of 16-bit integers (a decaying chirp with silence at the end). */
function signal(n: number): Int16Array {
  const out = new Int16Array(n);
  for (let i = 0; i < n * 0.8; i++) out[i] = Math.round(Math.sin(i * i * 1e-4) * 30000 * (1 - i / n));
  return out;
}

function asF32le(samples: ArrayLike<number>): Uint8Array {
  const f = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) f[i] = samples[i]! / 32768;
  return new Uint8Array(f.buffer);
}

function feed(acc: { push(c: Uint8Array): void }, bytes: Uint8Array, chunk: number): void {
  for (let i = 0; i < bytes.length; i += chunk) acc.push(bytes.subarray(i, i + chunk));
}

describe('FloatPeakAccumulator', () => {
  const mono = signal(8000 * 3 + 37);

  it('gives the same peaks and duration as PeakAccumulator for the same mono samples', () => {
    const ours = new PeakAccumulator(8000, 100);
    ours.push(new Uint8Array(mono.buffer));
    const alt = new FloatPeakAccumulator(8000, 1, 100);
    alt.push(asF32le(mono));
    const a = ours.finish();
    const b = alt.finish();
    expect(b.durationSec).toBeCloseTo(a.durationSec, 9);
    expect(b.peaks.length).toBe(a.peaks.length);
    expect(Array.from(b.peaks)).toEqual(Array.from(a.peaks));
  });

  it('gives the same result whatever the chunk boundaries (inside samples and frames)', () => {
    const stereo = new Int16Array(mono.length * 2);
    for (let i = 0; i < mono.length; i++) {
      stereo[2 * i] = mono[i]!;
      stereo[2 * i + 1] = -mono[mono.length - 1 - i]!;
    }
    const bytes = asF32le(stereo);
    const whole = new FloatPeakAccumulator(8000, 2, 100);
    whole.push(bytes);
    const expected = whole.finish();
    for (const chunk of [1, 3, 6, 4099]) {
      const acc = new FloatPeakAccumulator(8000, 2, 100);
      // copy into an odd offset so that views are unaligned too
      const shifted = new Uint8Array(bytes.length + 1).subarray(1);
      shifted.set(bytes);
      feed(acc, shifted, chunk);
      const got = acc.finish();
      expect(got.durationSec).toBe(expected.durationSec);
      expect(Array.from(got.peaks)).toEqual(Array.from(expected.peaks));
    }
  });

  it('takes the loudest channel of each frame into the peak', () => {
    const frames = 480;
    const stereo = new Int16Array(frames * 2);
    stereo[2 * 100 + 1] = 16384; // right channel only, in the first bucket
    stereo[2 * 300] = -8192; // left channel only, in the second bucket
    const acc = new FloatPeakAccumulator(48000, 2, 200); // 240 frames per bucket
    acc.push(asF32le(stereo));
    const { durationSec, peaks } = acc.finish();
    expect(durationSec).toBeCloseTo(0.01, 9);
    // normalised: the loudest (0.5 of full scale) gets the capped gain, x2 -> full scale
    expect(Array.from(peaks)).toEqual([255, 128]);
  });

  it('counts only whole frames and only buckets that hold one', () => {
    const acc = new FloatPeakAccumulator(3, 1, 2); // buckets: frames {0,1}, {2}, {3,4}...
    acc.push(asF32le([1000, 2000]));
    expect(acc.frameCount).toBe(2);
    expect(acc.finish().peaks.length).toBe(1);
    acc.push(asF32le([3000]));
    expect(acc.finish().peaks.length).toBe(2);
  });

  it('refuses impossible parameters', () => {
    expect(() => new FloatPeakAccumulator(0, 1, 100)).toThrow(/sampleRate/);
    expect(() => new FloatPeakAccumulator(48000, 0, 100)).toThrow(/channels/);
    expect(() => new FloatPeakAccumulator(48000, 2, 0)).toThrow(/peaksPerSecond/);
  });
});

describe('comparePeaks', () => {
  it('averages the absolute difference over the common length and reports the length difference', () => {
    expect(comparePeaks(Uint8Array.of(10, 20, 30), Uint8Array.of(12, 16))).toEqual({ meanAbsDiff: 3, lengthDiff: 1 });
    expect(comparePeaks(new Uint8Array(0), new Uint8Array(0))).toEqual({ meanAbsDiff: 0, lengthDiff: 0 });
  });
});
