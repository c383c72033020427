import fc from 'fast-check';
import {
  EPS,
  coverage,
  deepFreeze,
  editListArb,
  editListError,
  expectNormalised,
  expectRangesClose,
  fractionRangesArb,
  measure,
  scaleRanges,
  union,
} from './arbitraries.spec-helpers';
import { id60, mutedSampleEditList } from './samples.spec-helpers';
import {
  EditListError,
  applyCuts,
  applyKeep,
  applyReorder,
  identityEditList,
  mapRangeToSource,
  mapSourceRangeToOutput,
  outputDuration,
  type EditList,
  type TimeRange,
} from './index';

const sample = mutedSampleEditList;

describe('applyCuts', () => {
  it('removes output ranges', () => {
    const out = applyCuts(id60(), [
      { start: 10, end: 20 },
      { start: 30, end: 40 },
    ]);
    expect(out.segments).toEqual([
      { start: 0, end: 10 },
      { start: 20, end: 30 },
      { start: 40, end: 60 },
    ]);
    expect(outputDuration(out)).toBe(40);
  });

  it('accepts unsorted, overlapping cuts', () => {
    const out = applyCuts(id60(), [
      { start: 35, end: 45 },
      { start: 10, end: 20 },
      { start: 15, end: 38 },
    ]);
    expect(out.segments).toEqual([
      { start: 0, end: 10 },
      { start: 45, end: 60 },
    ]);
  });

  it('cuts in output time of a reordered list, and keeps captions', () => {
    const out = applyCuts(sample(), [{ start: 5, end: 15 }]);
    expect(out.segments).toEqual([
      { start: 30, end: 35 },
      { start: 5, end: 10 },
      { start: 50, end: 60 },
    ]);
    expect(out.burnCaptions).toBe(true);
  });

  it('merges kept pieces contiguous in source and consecutive in play order', () => {
    const el: EditList = { sourceDuration: 30, segments: [{ start: 0, end: 10 }, { start: 20, end: 30 }, { start: 10, end: 20 }], mutes: [], burnCaptions: false };
    expect(applyCuts(el, [{ start: 10, end: 20 }]).segments).toEqual([{ start: 0, end: 20 }]);
  });

  it('drops mutes over removed content', () => {
    const out = applyCuts(sample(), [{ start: 8, end: 22 }]);
    expect(out.segments).toEqual([
      { start: 30, end: 38 },
      { start: 52, end: 60 },
    ]);
    expect(out.mutes).toEqual([]);
    const partly = applyCuts(sample(), [{ start: 12, end: 20 }]);
    // output 12-20 is source 2-10: the whisper mute (source 5-15) is no longer kept anywhere
    expect(partly.mutes).toEqual([
      { start: 38, end: 40, level: 'silence' },
      { start: 50, end: 52, level: 'silence' },
    ]);
  });

  it('clamps cuts within the tolerance and ignores ones empty after clamping', () => {
    expect(applyCuts(id60(), [{ start: 50, end: 60 + 5e-7 }]).segments).toEqual([{ start: 0, end: 50 }]);
    expect(applyCuts(id60(), [{ start: -5e-7, end: 10 }]).segments).toEqual([{ start: 10, end: 60 }]);
    expect(applyCuts(id60(), [{ start: 60, end: 60 + 5e-7 }])).toEqual(id60());
  });

  it('returns an equal copy for no cuts (mutes over content that is not kept are tidied away)', () => {
    const input = deepFreeze({ ...identityEditList(60), mutes: [{ start: 5, end: 15, level: 'whisper' as const }] });
    const out = applyCuts(input, []);
    expect(out).toEqual(input);
    expect(out).not.toBe(input);
    expect(out.segments).not.toBe(input.segments);
    expect(applyCuts(sample(), []).mutes).toEqual([
      { start: 5, end: 10, level: 'whisper' },
      { start: 38, end: 40, level: 'silence' },
      { start: 50, end: 52, level: 'silence' },
    ]);
  });

  it('refuses to cut everything', () => {
    const all = editListError(() => applyCuts(id60(), [{ start: 0, end: 60 }]));
    expect(all.code).toBe('EMPTY_RESULT');
    expect(all.message).toBe('these cuts remove the whole video (60 s); at least some of it must remain.');
    expect(editListError(() => applyCuts(id60(), [{ start: 30, end: 60 }, { start: 0, end: 30 }])).code).toBe('EMPTY_RESULT');
    // what would remain is float noise
    expect(editListError(() => applyCuts(id60(), [{ start: 0, end: 30 }, { start: 30 + 1e-12, end: 60 }])).code).toBe('EMPTY_RESULT');
  });

  const bad: Array<[string, unknown, RegExp]> = [
    ['start after end', [{ start: 10, end: 5 }], /^cut 1: start \(10 s\) must be before end \(5 s\)\.$/],
    ['an empty cut', [{ start: 1, end: 2 }, { start: 5, end: 5 }], /^cut 2: start \(5 s\) must be before end \(5 s\)\.$/],
    ['NaN', [{ start: Number.NaN, end: 1 }], /^cut 1: start and end must be finite numbers of seconds \(got NaN and 1\)\.$/],
    ['Infinity', [{ start: 1, end: Number.POSITIVE_INFINITY }], /^cut 1: start and end must be finite numbers/],
    ['a negative time', [{ start: -1, end: 2 }], /^cut 1: times must not be negative \(got -1 s to 2 s\)\.$/],
    ['a cut past the end', [{ start: 50, end: 61 }], /^cut 1 \(50 s to 61 s\) goes past the end of the output \(60 s\)\.$/],
    ['not a list', { start: 1, end: 2 }, /^cuts must be a list of ranges/],
  ];
  it.each(bad)('rejects %s', (_name, cuts, message) => {
    const error = editListError(() => applyCuts(id60(), cuts as TimeRange[]));
    expect(error.code).toBe('INVALID_RANGE');
    expect(error.message).toMatch(message);
  });

  it('rejects an invalid edit list', () => {
    const el = { ...sample(), segments: [{ start: 0, end: 10 }, { start: 5, end: 15 }] };
    const error = editListError(() => applyCuts(el, [{ start: 1, end: 2 }]));
    expect(error.code).toBe('INVALID_EDIT_LIST');
    expect(error.message).toMatch(/^invalid edit list at segments\[1\]: segment 1 \(5 s to 15 s\) overlaps segment 0 \(0 s to 10 s\) in source time\.$/);
  });
});

describe('applyKeep', () => {
  it('keeps only the range', () => {
    const out = applyKeep(id60(), { start: 10, end: 20 });
    expect(out.segments).toEqual([{ start: 10, end: 20 }]);
    expect(outputDuration(out)).toBe(10);
    expect(applyKeep(sample(), { start: 5, end: 25 }).segments).toEqual([
      { start: 35, end: 40 },
      { start: 0, end: 10 },
      { start: 50, end: 55 },
    ]);
  });

  it('keeps the mutes of what remains, clipped', () => {
    expect(applyKeep(sample(), { start: 0, end: 9 }).mutes).toEqual([{ start: 38, end: 39, level: 'silence' }]);
  });

  it('equals cutting everything else', () => {
    expect(applyKeep(sample(), { start: 5, end: 25 })).toEqual(
      applyCuts(sample(), [
        { start: 0, end: 5 },
        { start: 25, end: 30 },
      ]),
    );
  });

  it('rejects bad or empty ranges', () => {
    const past = editListError(() => applyKeep(id60(), { start: 10, end: 70 }));
    expect(past.code).toBe('INVALID_RANGE');
    expect(past.message).toBe('kept range (10 s to 70 s) goes past the end of the output (60 s).');
    const empty = editListError(() => applyKeep(id60(), { start: 60, end: 60 + 5e-7 }));
    expect(empty.code).toBe('EMPTY_RESULT');
    expect(empty.message).toBe('the kept range (60 s to 60 s) holds nothing of the video (60 s).');
  });
});

describe('applyReorder', () => {
  it('plays the ranges in the given order', () => {
    expect(
      applyReorder(id60(), [
        { start: 40, end: 60 },
        { start: 0, end: 20 },
        { start: 20, end: 40 },
      ]).segments,
    ).toEqual([
      { start: 40, end: 60 },
      { start: 0, end: 40 },
    ]);
    expect(
      applyReorder(sample(), [
        { start: 20, end: 30 },
        { start: 0, end: 10 },
        { start: 10, end: 20 },
      ]).segments,
    ).toEqual([
      { start: 50, end: 60 },
      { start: 30, end: 40 },
      { start: 0, end: 10 },
    ]);
  });

  it('assigns the gaps: each range extends to the next one, the first back to 0 and the last to the end', () => {
    const out = applyReorder(id60(), [
      { start: 30, end: 40 },
      { start: 5, end: 10 },
    ]);
    // 5-10 becomes 0-30, 30-40 becomes 30-60
    expect(out.segments).toEqual([
      { start: 30, end: 60 },
      { start: 0, end: 30 },
    ]);
    expect(outputDuration(out)).toBe(60);
  });

  it('changes nothing for the current order, and keeps mutes and captions', () => {
    const out = applyReorder(sample(), [
      { start: 0, end: 10 },
      { start: 12, end: 15 },
      { start: 20, end: 30 },
    ]);
    expect(out).toEqual(sample());
    expect(applyReorder(sample(), [{ start: 3, end: 4 }])).toEqual(sample());
  });

  it('moves a range within a segment', () => {
    expect(
      applyReorder(id60(), [
        { start: 10, end: 20 },
        { start: 0, end: 10 },
      ]).segments,
    ).toEqual([
      { start: 10, end: 60 },
      { start: 0, end: 10 },
    ]);
  });

  it('accepts touching ranges and clamps within the tolerance', () => {
    expect(
      applyReorder(id60(), [
        { start: 30, end: 60 + 5e-7 },
        { start: 0, end: 30 },
      ]).segments,
    ).toEqual([
      { start: 30, end: 60 },
      { start: 0, end: 30 },
    ]);
  });

  it('rejects overlapping ranges and an empty order', () => {
    const overlap = editListError(() =>
      applyReorder(id60(), [
        { start: 0, end: 10 },
        { start: 20, end: 30 },
        { start: 5, end: 15 },
      ]),
    );
    expect(overlap.code).toBe('INVALID_REORDER');
    expect(overlap.message).toBe('reorder ranges 1 (0 s to 10 s) and 3 (5 s to 15 s) overlap; each moment of the video can be placed only once.');
    const empty = editListError(() => applyReorder(id60(), []));
    expect(empty.code).toBe('INVALID_REORDER');
    expect(empty.message).toBe('a reorder must list at least one range.');
  });

  it('rejects bad ranges', () => {
    const error = editListError(() => applyReorder(id60(), [{ start: 0, end: 10 }, { start: 30, end: 20 }]));
    expect(error.code).toBe('INVALID_RANGE');
    expect(error.message).toBe('reorder range 2: start (30 s) must be before end (20 s).');
    expect(editListError(() => applyReorder(id60(), [{ start: 50, end: 70 }])).code).toBe('INVALID_RANGE');
  });
});

describe('edits: properties', () => {
  const listWithRanges = (grid: 'dyadic' | 'micro', maxRanges = 5) => fc.tuple(editListArb({ grid }), fractionRangesArb(maxRanges));

  it('applyCuts reduces the output duration by exactly the measure of the union of the cuts', () => {
    for (const grid of ['dyadic', 'micro'] as const) {
      fc.assert(
        fc.property(listWithRanges(grid), ([el, fractions]) => {
          const d = outputDuration(el);
          const cuts = scaleRanges(fractions, d);
          const removed = measure(cuts);
          // gaps between cuts shorter than 1e-9 s are float noise and go too
          const gaps = gapsOf(cuts, d);
          if (gaps.every((g) => g.end - g.start < EPS)) {
            expect(editListError(() => applyCuts(el, cuts)).code).toBe('EMPTY_RESULT');
            return;
          }
          const out = applyCuts(deepFreeze(el), cuts);
          expect(Math.abs(outputDuration(out) - (d - removed))).toBeLessThanOrEqual(grid === 'dyadic' ? 0 : EPS * gaps.length);
          expectNormalised(out);
        }),
      );
    }
  });

  it('applyCuts keeps exactly the source of the uncut output', () => {
    fc.assert(
      fc.property(listWithRanges('dyadic'), ([el, fractions]) => {
        const d = outputDuration(el);
        const cuts = scaleRanges(fractions, d);
        if (d - measure(cuts) <= 0) return;
        const out = applyCuts(el, cuts);
        expect(out.segments).toEqual(normalise(gapsOf(cuts, d).flatMap((r) => mapRangeToSource(el, r))));
      }),
    );
  });

  it('cut lists commute: one list then the other (mapped) equals both at once', () => {
    fc.assert(
      fc.property(listWithRanges('dyadic', 6), ([el, fractions]) => {
        const all = union(scaleRanges(fractions, outputDuration(el)));
        const first = all.filter((_, i) => i % 2 === 0);
        const second = all.filter((_, i) => i % 2 === 1);
        if (outputDuration(el) - measure(all) <= 0) return;
        const once = applyCuts(el, all);
        const afterFirst = applyCuts(el, first);
        // the second list, moved into the output time of the list after the first cuts
        const mapped = second.flatMap((r) => mapRangeToSource(el, r)).flatMap((s) => mapSourceRangeToOutput(afterFirst, s));
        expect(applyCuts(afterFirst, mapped)).toEqual(once);
        const afterSecond = applyCuts(el, second);
        const mappedFirst = first.flatMap((r) => mapRangeToSource(el, r)).flatMap((s) => mapSourceRangeToOutput(afterSecond, s));
        expect(applyCuts(afterSecond, mappedFirst)).toEqual(once);
      }),
    );
  });

  it('applyKeep leaves exactly the range length', () => {
    for (const grid of ['dyadic', 'micro'] as const) {
      fc.assert(
        fc.property(listWithRanges(grid, 1), ([el, fractions]) => {
          const [keep] = scaleRanges(fractions, outputDuration(el));
          if (!keep) return;
          const out = applyKeep(deepFreeze(el), keep);
          expect(Math.abs(outputDuration(out) - (keep.end - keep.start))).toBeLessThanOrEqual(EPS);
          expectNormalised(out);
        }),
      );
    }
  });

  /** Disjoint output ranges (from sorted fractions) listed in a random order. */
  const reorderArb = (grid: 'dyadic' | 'micro') =>
    editListArb({ grid }).chain((el) =>
      fc
        .uniqueArray(fc.integer({ min: 0, max: 1024 }), { minLength: 2, maxLength: 12 })
        .chain((points) => {
          const sorted = [...points].sort((a, b) => a - b);
          const ranges = sorted.slice(1).map((end, i) => [sorted[i]!, end] as const).filter((_, i) => i % 3 !== 2);
          return fc.tuple(fc.constant(ranges), fc.shuffledSubarray(ranges, { minLength: ranges.length, maxLength: ranges.length }));
        })
        .map(([, shuffled]) => [el, shuffled.map(([a, b]) => ({ start: (a / 1024) * outputDuration(el), end: (b / 1024) * outputDuration(el) }))] as const),
    );

  it('applyReorder keeps the output duration and the source coverage (nothing lost, nothing doubled)', () => {
    for (const grid of ['dyadic', 'micro'] as const) {
      fc.assert(
        fc.property(reorderArb(grid), ([el, order]) => {
          if (order.length === 0) return;
          const out = applyReorder(deepFreeze(el), order);
          expect(Math.abs(outputDuration(out) - outputDuration(el))).toBeLessThanOrEqual(grid === 'dyadic' ? 0 : EPS);
          expectRangesClose(coverage(out), coverage(el));
          expect(out.mutes).toEqual(el.mutes);
          expectNormalised(out);
        }),
      );
    }
  });

  it('applyReorder plays each range where the order puts it', () => {
    fc.assert(
      fc.property(reorderArb('dyadic'), ([el, order]) => {
        if (order.length === 0) return;
        const out = applyReorder(el, order);
        // the content of each listed range appears after the content of the ranges listed before it
        let at = 0;
        const sorted = [...order].sort((a, b) => a.start - b.start);
        for (const r of order) {
          const k = sorted.indexOf(r);
          const extended = { start: k === 0 ? 0 : r.start, end: k === sorted.length - 1 ? outputDuration(el) : sorted[k + 1]!.start };
          const length = extended.end - extended.start;
          if (length > 0) {
            expect(normalise(mapRangeToSource(out, { start: at, end: at + length }))).toEqual(mapRangeToSource(el, extended));
          }
          at += length;
        }
      }),
    );
  });

  it('applyReorder by the current order is the identity', () => {
    fc.assert(
      fc.property(reorderArb('dyadic'), ([el, order]) => {
        if (order.length === 0) return;
        const inOrder = [...order].sort((a, b) => a.start - b.start);
        expect(applyReorder(el, inOrder)).toEqual(el);
      }),
    );
  });

  it('random sequences of edits keep every invariant and never touch their input', () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('cut' as const), ranges: fractionRangesArb(3) }),
      fc.record({ kind: fc.constant('keep' as const), ranges: fractionRangesArb(1) }),
      fc.record({ kind: fc.constant('reorder' as const), ranges: fractionRangesArb(4) }),
    );
    fc.assert(
      fc.property(editListArb({ grid: 'micro' }), fc.array(step, { maxLength: 8 }), (start, steps) => {
        // inputs are deep-frozen: a mutation would throw a TypeError, which fails the property
        let el = deepFreeze(start);
        for (const s of steps) {
          const previous = el;
          const snapshot = JSON.stringify(previous);
          const ranges = scaleRanges(s.ranges, outputDuration(el));
          try {
            if (s.kind === 'cut') el = applyCuts(el, ranges);
            else if (s.kind === 'keep' && ranges[0]) el = applyKeep(el, ranges[0]);
            else if (s.kind === 'reorder' && ranges.length) el = applyReorder(el, ranges);
          } catch (e) {
            // overlapping reorder ranges and removing everything are refused, nothing else
            expect(e).toBeInstanceOf(EditListError);
            expect(['INVALID_REORDER', 'EMPTY_RESULT']).toContain((e as EditListError).code);
          }
          expect(JSON.stringify(previous)).toBe(snapshot);
          expectNormalised(el);
          el = deepFreeze(el);
        }
      }),
    );
  });
});

/** The output ranges of [0, duration] that no cut covers. */
function gapsOf(cuts: readonly TimeRange[], duration: number): TimeRange[] {
  const gaps: TimeRange[] = [];
  let from = 0;
  for (const c of [...union(cuts), { start: duration, end: duration }]) {
    if (c.start > from) gaps.push({ start: from, end: c.start });
    from = Math.max(from, c.end);
  }
  return gaps;
}

/** Consecutive pieces contiguous in source merged (what the edits do). */
function normalise(pieces: TimeRange[]): TimeRange[] {
  const out: TimeRange[] = [];
  for (const p of pieces) {
    const prev = out[out.length - 1];
    if (prev && prev.end === p.start) prev.end = p.end;
    else out.push({ ...p });
  }
  return out;
}
