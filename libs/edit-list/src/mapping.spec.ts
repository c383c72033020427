import fc from 'fast-check';
import { EPS, editListArb, editListError, expectRangesClose, fractionRangesArb, measure, scaleRanges } from './arbitraries.spec-helpers';
import { sampleEditList } from './samples.spec-helpers';
import {
  applyCuts,
  identityEditList,
  mapRangeToSource,
  mapSourceRangeToOutput,
  mapTimeThrough,
  outputDuration,
  toOutput,
  toSource,
  type EditList,
  type TimeRange,
} from './index';

const sample = (): EditList => sampleEditList();

describe('toSource', () => {
  it.each([
    [0, 30],
    [5, 35],
    [9.5, 39.5],
    [10, 0], // a boundary belongs to the later segment
    [19.5, 9.5],
    [20, 50],
    [25, 55],
    [30, 60], // the end of the video is the end of the last segment
    [30 + 5e-7, 60], // within the tolerance: clamped
    [-5e-7, 30],
  ])('maps output %p s to source %p s', (t, s) => {
    expect(toSource(sample(), t)).toBe(s);
  });

  it('rejects times outside the video and non-finite times', () => {
    const outside = editListError(() => toSource(sample(), 31));
    expect(outside.code).toBe('INVALID_RANGE');
    expect(outside.message).toBe('output time (31 s) is outside the output (0 s to 30 s).');
    expect(editListError(() => toSource(sample(), -0.5)).message).toBe('output time (-0.5 s) is outside the output (0 s to 30 s).');
    expect(editListError(() => toSource(sample(), Number.NaN)).message).toBe('output time must be a finite number of seconds (got NaN).');
    expect(editListError(() => toSource(sample(), Number.POSITIVE_INFINITY)).code).toBe('INVALID_RANGE');
  });

  it('puts a boundary computed with float noise on the later segment', () => {
    const el: EditList = { sourceDuration: 1, segments: [{ start: 0.7, end: 1 }, { start: 0, end: 0.1 }], mutes: [], burnCaptions: false };
    // 0.1 + 0.2 style noise: 0.30000000000000004 - 1e-16 is still the boundary
    expect(toSource(el, 0.3 - 1e-12)).toBe(0);
  });
});

describe('toOutput', () => {
  it.each([
    [30, 0],
    [35, 5],
    [0, 10], // segment start is inclusive
    [9.5, 19.5],
    [50, 20],
    [55, 25],
    [60, 30], // the end of the last play segment is the end of the video
  ])('maps source %p s to output %p s', (s, t) => {
    expect(toOutput(sample(), s)).toBe(t);
  });

  it.each([40, 10, 20, 45, 29.999])('gives null for source %p s, which is not kept (segment end is exclusive)', (s) => {
    expect(toOutput(sample(), s)).toBeNull();
  });

  it('prefers a segment start over the end of the last segment (the same source instant)', () => {
    const el: EditList = { sourceDuration: 20, segments: [{ start: 10, end: 20 }, { start: 0, end: 10 }], mutes: [], burnCaptions: false };
    expect(toSource(el, 20)).toBe(10);
    expect(toOutput(el, 10)).toBe(0);
    expect(toOutput(el, 20)).toBeNull();
  });

  it('rejects times outside the source', () => {
    const error = editListError(() => toOutput(sample(), 61));
    expect(error.code).toBe('INVALID_RANGE');
    expect(error.message).toBe('source time (61 s) is outside the source (0 s to 60 s).');
    expect(editListError(() => toOutput(sample(), -1)).code).toBe('INVALID_RANGE');
    expect(editListError(() => toOutput(sample(), Number.NaN)).message).toMatch(/must be a finite number of seconds \(got NaN\)/);
  });
});

describe('mapRangeToSource', () => {
  it('gives the source pieces in play order', () => {
    expect(mapRangeToSource(sample(), { start: 5, end: 25 })).toEqual([
      { start: 35, end: 40 },
      { start: 0, end: 10 },
      { start: 50, end: 55 },
    ]);
    expect(mapRangeToSource(sample(), { start: 10, end: 20 })).toEqual([{ start: 0, end: 10 }]);
    expect(mapRangeToSource(sample(), { start: 0, end: 30 })).toEqual(sample().segments);
    expect(mapRangeToSource(sample(), { start: 12, end: 13 })).toEqual([{ start: 2, end: 3 }]);
  });

  it('clamps within the tolerance and merges pieces contiguous in source', () => {
    expect(mapRangeToSource(sample(), { start: 29, end: 30 + 5e-7 })).toEqual([{ start: 59, end: 60 }]);
    const split: EditList = { sourceDuration: 20, segments: [{ start: 0, end: 10 }, { start: 10, end: 20 }], mutes: [], burnCaptions: false };
    expect(mapRangeToSource(split, { start: 5, end: 15 })).toEqual([{ start: 5, end: 15 }]);
  });

  it('rejects bad ranges', () => {
    const cases: Array<[TimeRange, RegExp]> = [
      [{ start: 29, end: 31 }, /^output range \(29 s to 31 s\) goes past the end of the output \(30 s\)\.$/],
      [{ start: 5, end: 5 }, /^output range: start \(5 s\) must be before end \(5 s\)\.$/],
      [{ start: 6, end: 5 }, /start \(6 s\) must be before end \(5 s\)/],
      [{ start: -1, end: 5 }, /^output range: times must not be negative \(got -1 s to 5 s\)\.$/],
      [{ start: Number.NaN, end: 5 }, /^output range: start and end must be finite numbers of seconds \(got NaN and 5\)\.$/],
      [null as unknown as TimeRange, /^output range must be a range \{ start, end \} \(got null\)\.$/],
    ];
    for (const [range, message] of cases) {
      const error = editListError(() => mapRangeToSource(sample(), range));
      expect(error.code).toBe('INVALID_RANGE');
      expect(error.message).toMatch(message);
    }
  });
});

describe('mapSourceRangeToOutput', () => {
  it('gives the kept output pieces, sorted by output start', () => {
    expect(mapSourceRangeToOutput(sample(), { start: 5, end: 35 })).toEqual([
      { start: 0, end: 5 },
      { start: 15, end: 20 },
    ]);
    expect(mapSourceRangeToOutput(sample(), { start: 38, end: 52 })).toEqual([
      { start: 8, end: 10 },
      { start: 20, end: 22 },
    ]);
  });

  it('merges pieces adjacent in output, and is empty for cut content', () => {
    expect(mapSourceRangeToOutput(sample(), { start: 0, end: 60 })).toEqual([{ start: 0, end: 30 }]);
    expect(mapSourceRangeToOutput(sample(), { start: 10, end: 30 })).toEqual([]);
    const swapped: EditList = { sourceDuration: 20, segments: [{ start: 10, end: 20 }, { start: 0, end: 10 }], mutes: [], burnCaptions: false };
    expect(mapSourceRangeToOutput(swapped, { start: 5, end: 15 })).toEqual([
      { start: 0, end: 5 },
      { start: 15, end: 20 },
    ]);
  });

  it('rejects ranges outside the source', () => {
    const error = editListError(() => mapSourceRangeToOutput(sample(), { start: 50, end: 70 }));
    expect(error.code).toBe('INVALID_RANGE');
    expect(error.message).toBe('source range (50 s to 70 s) goes past the end of the source (60 s).');
  });
});

describe('mapTimeThrough', () => {
  const before = identityEditList(60);
  const after = applyCuts(before, [{ start: 10, end: 20 }]);
  it.each([
    [5, 5],
    [10, null],
    [15, null],
    [20, 10],
    [25, 15],
    [60, 50],
  ])('maps %p s through a cut of 10-20 s to %p', (t, expected) => {
    expect(mapTimeThrough(before, after, t)).toBe(expected);
  });

  it('keeps the end of the video with the content that ends there', () => {
    const swapped: EditList = { sourceDuration: 20, segments: [{ start: 10, end: 20 }, { start: 0, end: 10 }], mutes: [], burnCaptions: false };
    // source 10 is both the end of the last segment and the start of the first one
    expect(mapTimeThrough(swapped, swapped, 20)).toBe(20);
    expect(mapTimeThrough(swapped, identityEditList(20), 20)).toBe(10);
    expect(mapTimeThrough(identityEditList(20), swapped, 20)).toBe(10);
    expect(mapTimeThrough(swapped, swapped, 0)).toBe(0);
  });

  it('rejects lists of different media and times outside the video', () => {
    const different = editListError(() => mapTimeThrough(before, identityEditList(30), 1));
    expect(different.code).toBe('INVALID_EDIT_LIST');
    expect(different.message).toBe('the two edit lists describe different media (source durations 60 s and 30 s).');
    expect(editListError(() => mapTimeThrough(before, after, 61)).code).toBe('INVALID_RANGE');
    expect(editListError(() => mapTimeThrough(before, { ...after, segments: [] }, 1)).message).toMatch(/^invalid edit list after at segments/);
  });
});

/** t is the end of the video, and the source instant there is also where another segment starts. */
function endIsAlsoAStart(el: EditList, t: number): boolean {
  const last = el.segments[el.segments.length - 1]!;
  return t === outputDuration(el) && el.segments.some((s) => s.start === last.end);
}

describe('mapping: properties', () => {
  const timeIn = (el: EditList) => fc.integer({ min: 0, max: 1 << 20 }).map((k) => (k / (1 << 20)) * outputDuration(el));

  it('toOutput(toSource(t)) == t for every output time inside the video', () => {
    for (const grid of ['dyadic', 'micro'] as const) {
      fc.assert(
        fc.property(
          editListArb({ grid }).chain((el) => fc.tuple(fc.constant(el), timeIn(el))),
          ([el, t]) => {
            // at the very end, the end of the last segment may also be where another one starts
            // (played earlier); segment starts are inclusive, so it maps there
            if (endIsAlsoAStart(el, t)) return;
            const back = toOutput(el, toSource(el, t));
            expect(back).not.toBeNull();
            expect(Math.abs(back! - t)).toBeLessThanOrEqual(EPS);
          },
        ),
      );
    }
  });

  // an output time within 1e-9 s before a boundary counts as on it (float noise), so source times
  // that close to the end of a segment map back to the start of the next one
  it('toSource(toOutput(s)) == s for every kept source time not within 1e-9 s of a segment end', () => {
    fc.assert(
      fc.property(
        editListArb({ grid: 'micro' }).chain((el) => fc.tuple(fc.constant(el), fc.integer({ min: 0, max: el.segments.length - 1 }), fc.double({ min: 0, max: 1, noNaN: true }))),
        ([el, i, f]) => {
          const seg = el.segments[i]!;
          const s = Math.min(seg.start + f * (seg.end - seg.start), seg.end);
          const t = toOutput(el, s);
          if (i !== el.segments.length - 1 && s > seg.end - 2 * EPS) return;
          expect(t).not.toBeNull();
          expect(Math.abs(toSource(el, t!) - s)).toBeLessThanOrEqual(EPS);
        },
      ),
    );
  });

  it('mapRangeToSource covers exactly the range length, and maps back onto the range', () => {
    fc.assert(
      fc.property(editListArb({ grid: 'micro' }), fractionRangesArb(1), (el, fractions) => {
        const [range] = scaleRanges(fractions, outputDuration(el));
        if (!range) return;
        const pieces = mapRangeToSource(el, range);
        const length = pieces.reduce((sum, p) => sum + (p.end - p.start), 0);
        expect(Math.abs(length - (range.end - range.start))).toBeLessThanOrEqual(EPS);
        const back = pieces.flatMap((p) => mapSourceRangeToOutput(el, p));
        expect(Math.abs(measure(back) - (range.end - range.start))).toBeLessThanOrEqual(EPS);
        for (const r of back) {
          expect(r.start).toBeGreaterThanOrEqual(range.start - EPS);
          expect(r.end).toBeLessThanOrEqual(range.end + EPS);
        }
      }),
    );
  });

  it('mapSourceRangeToOutput is sorted, disjoint, and as long as the kept part of the range', () => {
    fc.assert(
      fc.property(editListArb({ grid: 'dyadic' }), fractionRangesArb(1), (el, fractions) => {
        const [range] = scaleRanges(fractions, el.sourceDuration);
        if (!range) return;
        const out = mapSourceRangeToOutput(el, range);
        const kept = el.segments.reduce((sum, s) => sum + Math.max(0, Math.min(s.end, range.end) - Math.max(s.start, range.start)), 0);
        expect(out.reduce((sum, r) => sum + (r.end - r.start), 0)).toBe(kept);
        out.forEach((r, i) => {
          expect(r.end).toBeGreaterThan(r.start);
          if (i > 0) expect(r.start).toBeGreaterThan(out[i - 1]!.end);
        });
      }),
    );
  });

  it('mapTimeThrough the same list is the identity', () => {
    fc.assert(
      fc.property(
        editListArb({ grid: 'micro' }).chain((el) => fc.tuple(fc.constant(el), timeIn(el))),
        ([el, t]) => {
          expect(Math.abs(mapTimeThrough(el, el, t)! - t)).toBeLessThanOrEqual(EPS);
        },
      ),
    );
  });

  it('the whole output maps to the segments themselves', () => {
    fc.assert(
      fc.property(editListArb(), (el) => {
        expectRangesClose(mapRangeToSource(el, { start: 0, end: outputDuration(el) }), el.segments);
      }),
    );
  });
});
