import fc from 'fast-check';
import {
  DEFAULT_ZOOM,
  RULER_TICKS,
  ZOOM_MAX,
  ZOOM_MIN,
  buildPeakPyramid,
  canZoomIn,
  canZoomOut,
  followPlayhead,
  formatTickTime,
  formatZoom,
  peakBars,
  rangesInWindow,
  rulerTicks,
  visibleWindow,
  zoomIn,
  zoomOut,
} from './timeline';

describe('zoom', () => {
  it('doubles and halves between 0.25x and 16x', () => {
    expect([ZOOM_MIN, ZOOM_MAX, DEFAULT_ZOOM]).toEqual([0.25, 16, 1]);
    const ins: number[] = [];
    for (let z = ZOOM_MIN; ins.length < 8; z = zoomIn(z)) ins.push(z);
    expect(ins).toEqual([0.25, 0.5, 1, 2, 4, 8, 16, 16]);
    const outs: number[] = [];
    for (let z = ZOOM_MAX; outs.length < 8; z = zoomOut(z)) outs.push(z);
    expect(outs).toEqual([16, 8, 4, 2, 1, 0.5, 0.25, 0.25]);
  });

  it('clamps odd values and treats unusable ones as 1x', () => {
    expect(zoomIn(12)).toBe(16);
    expect(zoomOut(0.3)).toBe(0.25);
    expect(zoomIn(100)).toBe(16);
    expect(zoomIn(NaN)).toBe(2);
    expect(zoomOut(-1)).toBe(0.5);
  });

  it('tells whether zooming still changes anything', () => {
    expect([0.25, 1, 16].map(canZoomIn)).toEqual([true, true, false]);
    expect([0.25, 1, 16].map(canZoomOut)).toEqual([false, true, true]);
  });

  it('formats the zoom level', () => {
    expect([0.25, 0.5, 1, 2, 16].map(formatZoom)).toEqual(['0.25x', '0.5x', '1x', '2x', '16x']);
    expect(formatZoom(NaN)).toBe('1x');
  });
});

describe('ruler', () => {
  it('has 11 evenly spaced ticks inclusive of both ends', () => {
    expect(RULER_TICKS).toBe(11);
    const ticks = rulerTicks(10, 60);
    expect(ticks).toHaveLength(11);
    expect(ticks.map((t) => t.time)).toEqual([10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60]);
    expect(ticks.map((t) => t.fraction)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
  });

  it('ends exactly at viewEnd and accepts other counts', () => {
    const ticks = rulerTicks(0.1, 0.7, 7);
    expect(ticks).toHaveLength(7);
    expect(ticks[0]).toEqual({ time: 0.1, fraction: 0 });
    expect(ticks[6]).toEqual({ time: 0.7, fraction: 1 });
    expect(rulerTicks(0, 5, 1).map((t) => t.time)).toEqual([0, 5]);
  });

  it('formats tick times as m:ss, h:mm:ss, with tenths under a 10 s span', () => {
    expect(formatTickTime(0, 60)).toBe('0:00');
    expect(formatTickTime(65, 60)).toBe('1:05');
    expect(formatTickTime(59.6, 60)).toBe('1:00');
    expect(formatTickTime(599.4, 600)).toBe('9:59');
    expect(formatTickTime(3599, 600)).toBe('59:59');
    expect(formatTickTime(3600, 600)).toBe('1:00:00');
    expect(formatTickTime(3 * 3600 + 62, 600)).toBe('3:01:02');
    expect(formatTickTime(65.25, 5)).toBe('1:05.3');
    expect(formatTickTime(0.04, 1)).toBe('0:00.0');
    expect(formatTickTime(59.96, 2)).toBe('1:00.0');
    expect(formatTickTime(3661.5, 9.99)).toBe('1:01:01.5');
    expect(formatTickTime(12, 10)).toBe('0:12');
    expect(formatTickTime(-3, 60)).toBe('0:00');
    expect(formatTickTime(NaN, 5)).toBe('0:00.0');
  });
});

describe('visibleWindow', () => {
  it('maps the viewport onto the content', () => {
    // 1x: the viewport shows the whole video
    expect(visibleWindow(0, 1000, 1000, 120)).toEqual({ start: 0, end: 120 });
    // 4x: 4000 px for 120 s, scrolled by 1000 px
    expect(visibleWindow(1000, 1000, 4000, 120)).toEqual({ start: 30, end: 60 });
  });

  it('clamps to the video', () => {
    // 0.25x: the content is a quarter of the viewport
    expect(visibleWindow(0, 1000, 250, 120)).toEqual({ start: 0, end: 120 });
    expect(visibleWindow(3500, 1000, 4000, 120)).toEqual({ start: 105, end: 120 });
    expect(visibleWindow(-20, 1000, 4000, 120)).toEqual({ start: 0, end: 30 });
  });

  it('is the whole video without usable geometry', () => {
    expect(visibleWindow(0, 1000, 0, 120)).toEqual({ start: 0, end: 120 });
    expect(visibleWindow(0, 1000, 1000, 0)).toEqual({ start: 0, end: 0 });
    expect(visibleWindow(0, 1000, 1000, NaN)).toEqual({ start: 0, end: 0 });
  });
});

describe('followPlayhead', () => {
  it('does nothing while the playhead is well inside the view', () => {
    expect(followPlayhead(1000, 1000, 1000, 8000)).toBeNull();
    expect(followPlayhead(1500, 1000, 1000, 8000)).toBeNull();
    expect(followPlayhead(1949, 1000, 1000, 8000)).toBeNull();
  });

  it('puts the playhead at a quarter of the viewport when it nears the right edge or leaves', () => {
    expect(followPlayhead(1950, 1000, 1000, 8000)).toBe(1700);
    expect(followPlayhead(5000, 1000, 1000, 8000)).toBe(4750);
    expect(followPlayhead(999, 1000, 1000, 8000)).toBe(749);
  });

  it('clamps to the content', () => {
    expect(followPlayhead(100, 1000, 1000, 8000)).toBe(0);
    expect(followPlayhead(7990, 6000, 1000, 8000)).toBe(7000);
  });

  it('gives null when the clamped scroll would not move', () => {
    // at the end of the content the playhead stays near the right edge
    expect(followPlayhead(7990, 7000, 1000, 8000)).toBeNull();
    // content narrower than the viewport (zoom below 1x)
    expect(followPlayhead(990, 0, 1000, 250)).toBeNull();
    expect(followPlayhead(NaN, 0, 1000, 8000)).toBeNull();
    expect(followPlayhead(10, 0, 0, 8000)).toBeNull();
  });
});

/** Brute-force max |peak| over peaks lo..hi-1, in Float32 as the pyramid stores them. */
function bruteMax(peaks: readonly number[], lo: number, hi: number): number {
  let max = 0;
  for (let i = Math.max(0, lo); i < Math.min(peaks.length, hi); i++) max = Math.max(max, Math.fround(Math.abs(peaks[i] ?? 0)));
  return max;
}

describe('peak pyramid', () => {
  it('builds max levels down to one value', () => {
    const p = buildPeakPyramid([0.1, -0.5, 0.3, 0.2, -0.9]);
    expect(p.length).toBe(5);
    expect(p.levels.map((l) => Array.from(l))).toEqual([
      [0.1, 0.5, 0.3, 0.2, 0.9].map(Math.fround),
      [0.5, 0.3, 0.9].map(Math.fround),
      [0.5, 0.9].map(Math.fround),
      [Math.fround(0.9)],
    ]);
  });

  it('treats non-finite peaks as silence and handles empty input', () => {
    expect(Array.from(buildPeakPyramid([NaN, Infinity, 0.5]).levels[0] ?? [])).toEqual([0, 0, 0.5]);
    const empty = buildPeakPyramid([]);
    expect(empty.length).toBe(0);
    expect(Array.from(peakBars(empty, 0, 1, 4))).toEqual([0, 0, 0, 0]);
  });

  it('gives one bar per peak at full resolution and the max per slice when zoomed out', () => {
    const peaks = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
    const p = buildPeakPyramid(peaks);
    expect(Array.from(peakBars(p, 0, 1, 8))).toEqual(peaks.map(Math.fround));
    expect(Array.from(peakBars(p, 0, 1, 2))).toEqual([0.4, 0.8].map(Math.fround));
    expect(Array.from(peakBars(p, 0, 1, 1))).toEqual([Math.fround(0.8)]);
    expect(Array.from(peakBars(p, 0.25, 0.75, 2))).toEqual([0.4, 0.6].map(Math.fround));
  });

  it('uses the peak under the centre for slices narrower than a peak', () => {
    const p = buildPeakPyramid([0.1, 0.9, 0.3, 0.4]);
    // 4 peaks over 16 bars: each peak spans 4 bars
    expect(Array.from(peakBars(p, 0, 1, 16))).toEqual([0.1, 0.1, 0.1, 0.1, 0.9, 0.9, 0.9, 0.9, 0.3, 0.3, 0.3, 0.3, 0.4, 0.4, 0.4, 0.4].map(Math.fround));
  });

  it('treats the window outside the waveform as silence', () => {
    const p = buildPeakPyramid([0.5, 0.5, 0.5, 0.5]);
    expect(Array.from(peakBars(p, -1, 0, 2))).toEqual([0, 0]);
    expect(Array.from(peakBars(p, 0.5, 1.5, 2))).toEqual([0.5, 0]);
    expect(Array.from(peakBars(p, 0.5, 0.5, 2))).toEqual([0, 0]);
    expect(Array.from(peakBars(p, 0, 1, 0))).toEqual([]);
  });

  it('writes into a reusable buffer', () => {
    const p = buildPeakPyramid([0.1, 0.2, 0.3, 0.4]);
    const out = new Float32Array(2);
    expect(peakBars(p, 0, 1, 2, out)).toBe(out);
    expect(Array.from(out)).toEqual([0.2, 0.4].map(Math.fround));
    const bigger = new Float32Array(4).fill(9);
    const view = peakBars(p, 0, 1, 2, bigger);
    expect(view.buffer).toBe(bigger.buffer);
    expect(Array.from(bigger)).toEqual([0.2, 0.4, 9, 9].map(Math.fround));
    expect(peakBars(p, 0, 1, 2, new Float32Array(1))).toHaveLength(2);
  });

  it('equals the brute-force max of every slice (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 1, maxLength: 700 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 300 }),
        (peaks, x, y, bars) => {
          const from = Math.min(x, y);
          const to = Math.max(x, y);
          fc.pre(to > from);
          const n = peaks.length;
          const got = peakBars(buildPeakPyramid(peaks), from, to, bars);
          expect(got).toHaveLength(bars);
          const width = ((to - from) * n) / bars;
          for (let i = 0; i < bars; i++) {
            const a = from * n + width * i;
            let expected: number;
            if (width < 1) {
              expected = bruteMax(peaks, Math.floor(a + width / 2), Math.floor(a + width / 2) + 1);
            } else {
              const b = i === bars - 1 ? to * n : from * n + width * (i + 1);
              expected = bruteMax(peaks, Math.floor(a + 1e-9), Math.floor(b + 1e-9));
            }
            expect(got[i]).toBe(expected);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('never loses the loudest peak when zoomed out (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 2000 }), fc.integer({ min: 1, max: 64 }), (peaks, bars) => {
        fc.pre(bars <= peaks.length);
        const got = Array.from(peakBars(buildPeakPyramid(peaks), 0, 1, bars));
        expect(Math.max(...got)).toBe(bruteMax(peaks, 0, peaks.length));
      }),
    );
  });

  it('draws a 3-hour waveform window in few pyramid reads', () => {
    const n = 3 * 3600 * 100; // 100 peaks per second
    const peaks = new Float32Array(n);
    for (let i = 0; i < n; i++) peaks[i] = (Math.sin(i * 0.001) + 1) / 4;
    peaks[777_777] = 1;
    const p = buildPeakPyramid(peaks);
    expect(p.levels).toHaveLength(Math.ceil(Math.log2(n)) + 1);
    const bars = peakBars(p, 0, 1, 1000);
    expect(Math.max(...bars)).toBe(1);
    expect(bars[Math.floor((777_777 / n) * 1000)]).toBe(1);
  });
});

describe('rangesInWindow', () => {
  const ranges = [
    { start: 0, end: 1 },
    { start: 2, end: 3 },
    { start: 4, end: 6 },
    { start: 7, end: 7.5 },
    { start: 9, end: 12 },
  ];

  it('returns the ranges overlapping the window, touching ones excluded', () => {
    expect(rangesInWindow(ranges, 2.5, 5)).toEqual([ranges[1], ranges[2]]);
    expect(rangesInWindow(ranges, 3, 4)).toEqual([]);
    expect(rangesInWindow(ranges, 5, 10)).toEqual([ranges[2], ranges[3], ranges[4]]);
    expect(rangesInWindow(ranges, -5, 100)).toEqual(ranges);
    expect(rangesInWindow(ranges, 12, 20)).toEqual([]);
    expect(rangesInWindow(ranges, 5, 5)).toEqual([]);
    expect(rangesInWindow([], 0, 10)).toEqual([]);
  });

  it('matches a linear scan (property)', () => {
    const sortedRanges = fc
      .array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 20 })), { maxLength: 40 })
      .map((steps) => {
        const out: { start: number; end: number }[] = [];
        let t = 0;
        for (const [gap, len] of steps) {
          const start = t + gap / 10;
          out.push({ start, end: start + len / 10 });
          t = start + len / 10;
        }
        return out;
      });
    fc.assert(
      fc.property(sortedRanges, fc.integer({ min: -10, max: 2000 }), fc.integer({ min: 0, max: 500 }), (rs, s, len) => {
        const ws = s / 10;
        const we = ws + len / 10;
        const expected = we > ws ? rs.filter((r) => r.end > ws && r.start < we) : [];
        expect(rangesInWindow(rs, ws, we)).toEqual(expected);
      }),
    );
  });
});
