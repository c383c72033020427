import fc from 'fast-check';
import { drawBars, layoutBars, syntheticPeaks, timeToX, waveformPoints, xToTime } from './waveform';

describe('syntheticPeaks', () => {
  it('gives the asked number of deterministic peaks within 0..1', () => {
    const a = syntheticPeaks(1000);
    expect(a).toHaveLength(1000);
    expect(syntheticPeaks(1000)).toEqual(a);
    expect(Math.min(...a)).toBeGreaterThanOrEqual(0.05);
    expect(Math.max(...a)).toBeLessThanOrEqual(1);
    expect(new Set(a.map((p) => p.toFixed(2))).size).toBeGreaterThan(20); // not flat
  });

  it('rejects a bad count', () => {
    expect(() => syntheticPeaks(-1)).toThrow(RangeError);
    expect(() => syntheticPeaks(1.5)).toThrow('non-negative integer');
  });
});

describe('time <-> x', () => {
  it('maps linearly and clamps', () => {
    expect(timeToX(15, 30, 600)).toBe(300);
    expect(timeToX(-3, 30, 600)).toBe(0);
    expect(timeToX(99, 30, 600)).toBe(600);
    expect(xToTime(150, 600, 30)).toBe(7.5);
    expect(xToTime(-10, 600, 30)).toBe(0);
    expect(xToTime(9999, 600, 30)).toBe(30);
  });

  it('is 0 without a duration or a width', () => {
    expect(timeToX(5, 0, 600)).toBe(0);
    expect(xToTime(5, 0, 30)).toBe(0);
    expect(timeToX(Number.NaN, 30, 600)).toBe(0);
  });

  it('round-trips within a pixel', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 3600, noNaN: true }), fc.double({ min: 0.1, max: 3600, noNaN: true }), fc.integer({ min: 10, max: 20000 }), (t, d, w) => {
        const time = Math.min(t, d);
        expect(Math.abs(xToTime(timeToX(time, d, w), w, d) - time)).toBeLessThanOrEqual(1e-6 * d + 1e-9);
      }),
    );
  });
});

describe('layoutBars', () => {
  it('fits as many bars as the width allows, each the loudest of its share, centred', () => {
    const bars = layoutBars([0.1, 0.9, 0.2, 0.4], 5, 100, { barWidth: 2, gap: 1 });
    expect(bars).toHaveLength(2);
    expect(bars[0]).toEqual({ x: 0, y: 5, width: 2, height: 90 });
    expect(bars[1]).toEqual({ x: 3, y: 30, width: 2, height: 40 });
  });

  it('stretches few peaks over many bars and keeps silence visible', () => {
    const bars = layoutBars([0, 1], 30, 10, { barWidth: 2, gap: 1, minHeight: 1 });
    expect(bars).toHaveLength(10);
    expect(bars.slice(0, 5).every((b) => b.height === 1)).toBe(true);
    expect(bars.slice(5).every((b) => b.height === 10)).toBe(true);
  });

  it('draws nothing without peaks or size', () => {
    expect(layoutBars([], 100, 10)).toEqual([]);
    expect(layoutBars([0.5], 0, 10)).toEqual([]);
  });

  it('never leaves the canvas', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 3000 }), fc.integer({ min: 1, max: 4000 }), fc.integer({ min: 1, max: 300 }), (peaks, w, h) => {
        for (const bar of layoutBars(peaks, w, h)) {
          expect(bar.y).toBeGreaterThanOrEqual(0);
          expect(bar.y + bar.height).toBeLessThanOrEqual(h + 1e-9);
          expect(bar.x + bar.width).toBeLessThanOrEqual(w + 2);
        }
      }),
    );
  });
});

describe('drawBars', () => {
  it('fills each bar, played ones in the played colour', () => {
    const calls: Array<[string, number, number, number, number]> = [];
    const fake = {
      fillStyle: '',
      fillRect: (x: number, y: number, w: number, h: number) => calls.push([fake.fillStyle, x, y, w, h]),
    };
    const ctx = fake as unknown as CanvasRenderingContext2D;
    drawBars(ctx, layoutBars([1, 1, 1], 8, 4, { barWidth: 2, gap: 1 }), { bar: 'grey', played: 'blue' }, 3);
    expect(calls).toEqual([
      ['blue', 0, 0, 2, 4],
      ['grey', 3, 0, 2, 4],
      ['grey', 6, 0, 2, 4],
    ]);
  });
});

it('asks for more waveform points when zoomed in', () => {
  expect(waveformPoints(100)).toBe(1000);
  expect(waveformPoints(200)).toBe(2000);
  expect(waveformPoints(400)).toBe(4000);
  expect(waveformPoints(100000)).toBe(20000);
  expect(waveformPoints(Number.NaN)).toBe(1000);
});
