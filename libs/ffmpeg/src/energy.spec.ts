import fc from 'fast-check';
import { energyDb } from '@wordcut/contracts';
import { EnergyAccumulator } from './energy';

/** Samples as s16le bytes. */
const pcm = (samples: number[]) => {
  const out = new Uint8Array(samples.length * 2);
  const view = new DataView(out.buffer);
  samples.forEach((s, i) => view.setInt16(i * 2, s, true));
  return out;
};

describe('EnergyAccumulator', () => {
  it('gives every 10 ms frame at 8 kHz its RMS level: digital silence is the floor, a sine of amplitude A is A/√2', () => {
    const acc = new EnergyAccumulator(8000, 100);
    const silence = new Array(800).fill(0);
    const tone = Array.from({ length: 800 }, (_, i) => Math.round(16384 * Math.sin((2 * Math.PI * 500 * i) / 8000)));
    acc.push(pcm([...silence, ...tone]));
    const levels = acc.finish();
    expect(levels.length).toBe(20);
    expect([...levels.subarray(0, 10)].every((b) => b === 0)).toBe(true);
    // 16384/√2 of 32768: -9.03 dBFS
    for (const b of levels.subarray(10)) expect(Math.abs(energyDb(b) - -9.03)).toBeLessThanOrEqual(0.25);
  });

  it('gives the same levels however the bytes are chunked (a chunk may split a sample)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -32768, max: 32767 }), { minLength: 1, maxLength: 400 }), fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 10 }), (samples, cuts) => {
        const bytes = pcm(samples);
        const whole = new EnergyAccumulator(1000, 100);
        whole.push(bytes);
        const chunked = new EnergyAccumulator(1000, 100);
        let at = 0;
        for (let i = 0; at < bytes.length; i++) {
          const n = cuts[i % cuts.length]!;
          chunked.push(bytes.subarray(at, at + n));
          at += n;
        }
        expect(chunked.finish()).toEqual(whole.finish());
        expect(whole.finish().length).toBe(Math.ceil(samples.length / 10));
      }),
    );
  });

  it('rejects nonsense rates', () => {
    expect(() => new EnergyAccumulator(0, 100)).toThrow(RangeError);
    expect(() => new EnergyAccumulator(8000, 0)).toThrow(RangeError);
    expect(() => new EnergyAccumulator(100, 200)).toThrow(RangeError);
  });
});
