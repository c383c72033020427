import fc from 'fast-check';
import { EPS, deepFreeze, editListArb, editListError, expectNormalised } from './arbitraries.spec-helpers';
import { EditListError, identityEditList, outputDuration, decodeFrameGrid, encodeFrameGrid, nearestBoundary, quantize, snapToFrame, type EditList } from './index';

const isMultiple = (t: number, fps: number) => Math.abs(t - Math.round(t * fps) / fps) <= EPS;

describe('snapToFrame', () => {
  it.each([
    [1.02, 25, 1.04],
    [1.01, 25, 1],
    [0.5, 30, 0.5],
    [0, 24, 0],
    [10.016, 30000 / 1001, 300 / (30000 / 1001)],
  ])('snaps %p s at %p fps to %p s', (t, fps, expected) => {
    expect(snapToFrame(t, fps)).toBeCloseTo(expected, 12);
  });

  it('rejects bad times and frame rates', () => {
    expect(editListError(() => snapToFrame(Number.NaN, 25)).message).toBe('a time to snap must be a finite number of seconds >= 0 (got NaN).');
    expect(editListError(() => snapToFrame(-1, 25)).code).toBe('INVALID_RANGE');
    const fps = editListError(() => snapToFrame(1, 0));
    expect(fps.code).toBe('INVALID_RANGE');
    expect(fps.message).toBe('the frame rate must be a finite number of frames per second > 0 (got 0).');
    expect(editListError(() => snapToFrame(1, Number.POSITIVE_INFINITY)).code).toBe('INVALID_RANGE');
  });
});

describe('quantize', () => {
  it('keeps the last frame of a 29.97 fps source whose length is a float product (4.004 s is 120 frames)', () => {
    const fps = 30000 / 1001;
    const q = quantize({ ...identityEditList(4.004), segments: [{ start: 3.9, end: 4.004 }] }, fps);
    expect(q.segments).toEqual([{ start: 117 / fps, end: 4.004 }]);
  });

  it('snaps segment and mute boundaries to frames', () => {
    const el: EditList = {
      sourceDuration: 10,
      segments: [
        { start: 5.013, end: 7.021 },
        { start: 0.26, end: 1.04 },
      ],
      mutes: [{ start: 0.31, end: 0.89, level: 'whisper' }],
      burnCaptions: true,
    };
    expect(quantize(deepFreeze(el), 10)).toEqual({
      sourceDuration: 10,
      segments: [
        { start: 5, end: 7 },
        { start: 0.3, end: 1 },
      ],
      mutes: [{ start: 0.3, end: 0.9, level: 'whisper' }],
      burnCaptions: true,
    });
  });

  it('never goes past the last whole frame of the source', () => {
    expect(quantize(identityEditList(10.03), 25).segments).toEqual([{ start: 0, end: 10 }]);
    expect(quantize(identityEditList(10.039), 25).segments).toEqual([{ start: 0, end: 10 }]);
    expect(quantize({ ...identityEditList(10.03), mutes: [{ start: 9, end: 10.03, level: 'silence' }] }, 25).mutes).toEqual([{ start: 9, end: 10, level: 'silence' }]);
  });

  it('drops segments and mutes shorter than half a frame and merges what becomes contiguous', () => {
    const el: EditList = {
      sourceDuration: 10,
      segments: [
        { start: 0, end: 1.03 },
        { start: 1.04, end: 2 },
        { start: 2.5, end: 2.51 },
      ],
      mutes: [{ start: 3.01, end: 3.02, level: 'silence' }],
      burnCaptions: false,
    };
    expect(quantize(el, 10)).toEqual({ sourceDuration: 10, segments: [{ start: 0, end: 2 }], mutes: [], burnCaptions: false });
  });

  it('refuses when nothing would remain', () => {
    const error = editListError(() => quantize(identityEditList(0.01), 25));
    expect(error.code).toBe('EMPTY_RESULT');
    expect(error.message).toBe('at 25 frames per second no segment is at least one frame long; nothing would remain.');
    expect(editListError(() => quantize(identityEditList(1), -1)).code).toBe('INVALID_RANGE');
  });

  it('boundaries are frame multiples, the invariants hold, and quantize is idempotent', () => {
    const fpsArb = fc.constantFrom(24, 25, 30, 50, 60, 24000 / 1001, 30000 / 1001, 60000 / 1001, 12.5);
    fc.assert(
      fc.property(editListArb({ grid: 'micro' }), fpsArb, (el, fps) => {
        let q: EditList;
        try {
          q = quantize(deepFreeze(el), fps);
        } catch (e) {
          expect(e).toBeInstanceOf(EditListError);
          expect((e as EditListError).code).toBe('EMPTY_RESULT');
          // refused only when every segment snaps to nothing (the last whole frame caps the end)
          const last = Math.floor(el.sourceDuration * fps + EPS) / fps;
          expect(el.segments.every((s) => Math.min(snapToFrame(s.end, fps), last) <= Math.min(snapToFrame(s.start, fps), last))).toBe(true);
          return;
        }
        for (const t of [...q.segments, ...q.mutes].flatMap((r) => [r.start, r.end])) {
          expect(isMultiple(t, fps)).toBe(true);
          expect(t).toBeLessThanOrEqual(el.sourceDuration);
        }
        expectNormalised(q);
        expect(quantize(q, fps)).toEqual(q);
        // a boundary moves by at most half a frame (a whole one when capped at the last frame)
        expect(Math.abs(outputDuration(q) - outputDuration(el))).toBeLessThanOrEqual((el.segments.length + 0.5) / fps + EPS);
      }),
    );
  });
});

describe('a variable frame rate: snapped to the source\'s own frame starts', () => {
  // 30 fps for 4 frames, then 20 fps with a dropped frame (0.2833 -> 0.3833)
  const grid = { starts: [0, 1 / 30, 2 / 30, 0.1, 0.15, 0.2, 0.2833, 0.3833, 0.4333], end: 0.4833 };

  it('a time goes to the nearest boundary, halves to the later frame, past the last start to the end', () => {
    expect([0.01, 0.02, 0.05, 0.125, 0.33, 0.3334, 0.47, 9].map((t) => nearestBoundary(grid, t))).toEqual([0, 1, 2, 4, 6, 7, 9, 9]);
    expect(nearestBoundary({ fps: 30 }, 0.05)).toBe(2);
  });

  it('quantize names the same frames the timestamps do, never the nominal rate\'s', () => {
    const el: EditList = { ...identityEditList(0.4833), segments: [{ start: 0.09, end: 0.3 }, { start: 0.34, end: 0.47 }], mutes: [{ start: 0.16, end: 0.2, level: 'silence' }] };
    const q = quantize(el, grid);
    expect(q.segments.map((s) => [s.start, s.end])).toEqual([[0.1, 0.2833], [0.3833, 0.4833]]);
    expect(q.mutes.map((m) => [m.start, m.end])).toEqual([[0.15, 0.2]]);
    expect(quantize(q, grid)).toEqual(q);
  });

  it('refuses frame times that do not rise from 0', () => {
    expect(editListError(() => quantize(identityEditList(1), { starts: [0, 0.2, 0.1], end: 0.3 })).code).toBe('INVALID_RANGE');
    expect(editListError(() => quantize(identityEditList(1), { starts: [0.1, 0.2], end: 0.3 })).code).toBe('INVALID_RANGE');
  });
});

describe('a stored frame grid', () => {
  it('round-trips to the microsecond, and names the same frames', () => {
    const starts = Array.from({ length: 500 }, (_, i) => (i < 200 ? i / 30 : 200 / 30 + (i - 200) / 20) + (i > 0 ? 0.0015 * ((i % 3) - 1) : 0));
    const grid = { starts, end: starts[499]! + 0.05 };
    const back = decodeFrameGrid(encodeFrameGrid(grid));
    expect(back.starts).toHaveLength(500);
    expect(Math.max(...back.starts.map((s, i) => Math.abs(s - starts[i]!)))).toBeLessThanOrEqual(1e-6);
    // what the gateway stores (a stored start) is the same frame on the source's exact clock
    back.starts.forEach((t, i) => expect(nearestBoundary(grid, t)).toBe(i));
    expect(nearestBoundary(grid, back.end)).toBe(500);
  });

  it('refuses bytes that are not a grid, without allocating what they claim', () => {
    const bytes = encodeFrameGrid({ starts: [0, 0.04], end: 0.08 });
    expect(editListError(() => decodeFrameGrid(bytes.subarray(0, bytes.length - 1))).code).toBe('INVALID_RANGE');
    const huge = new Uint8Array(bytes);
    new DataView(huge.buffer).setUint32(4, 0xffffffff);
    expect(editListError(() => decodeFrameGrid(huge)).code).toBe('INVALID_RANGE');
    expect(editListError(() => decodeFrameGrid(new Uint8Array(3))).code).toBe('INVALID_RANGE');
  });
});
