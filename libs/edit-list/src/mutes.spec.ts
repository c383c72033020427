import fc from 'fast-check';
import { EPS, deepFreeze, editListArb, editListError, expectNormalised, fractionRangesArb, scaleRanges } from './arbitraries.spec-helpers';
import { id60, sampleEditList } from './samples.spec-helpers';
import {
  EditListError,
  MUTE_LEVELS,
  applyCuts,
  applyMute,
  applyMutes,
  applyReorder,
  mapRangeToSource,
  outputDuration,
  outputMutes,
  toSource,
  unappliedMutes,
  type EditList,
  type MuteLevel,
  type SourceMute,
  type TimeRange,
} from './index';

const sample = (mutes: SourceMute[] = []): EditList => sampleEditList({ mutes });

describe('applyMute', () => {
  it('adds a mute in source time', () => {
    expect(applyMute(id60(), [{ start: 10, end: 20 }], 'silence').mutes).toEqual([{ start: 10, end: 20, level: 'silence' }]);
    expect(applyMute(sample(), [{ start: 5, end: 25 }], 'background').mutes).toEqual([
      { start: 0, end: 10, level: 'background' },
      { start: 35, end: 40, level: 'background' },
      { start: 50, end: 55, level: 'background' },
    ]);
  });

  it('lets the new level win where it overlaps an existing mute', () => {
    const first = applyMute(id60(), [{ start: 10, end: 20 }], 'silence');
    const second = applyMute(first, [{ start: 15, end: 30 }], 'whisper');
    expect(second.mutes).toEqual([
      { start: 10, end: 15, level: 'silence' },
      { start: 15, end: 30, level: 'whisper' },
    ]);
    expect(applyMute(second, [{ start: 12, end: 13 }], 'whisper').mutes).toEqual([
      { start: 10, end: 12, level: 'silence' },
      { start: 12, end: 13, level: 'whisper' },
      { start: 13, end: 15, level: 'silence' },
      { start: 15, end: 30, level: 'whisper' },
    ]);
    expect(applyMute(second, [{ start: 0, end: 60 }], 'background').mutes).toEqual([{ start: 0, end: 60, level: 'background' }]);
  });

  it('merges touching and overlapping mutes of the same level', () => {
    const base = applyMute(id60(), [{ start: 10, end: 20 }], 'silence');
    expect(applyMute(base, [{ start: 20, end: 25 }], 'silence').mutes).toEqual([{ start: 10, end: 25, level: 'silence' }]);
    expect(
      applyMute(
        id60(),
        [
          { start: 5, end: 8 },
          { start: 1, end: 6 },
        ],
        'whisper',
      ).mutes,
    ).toEqual([{ start: 1, end: 8, level: 'whisper' }]);
  });

  it('keeps the mutes over content that a reorder moved', () => {
    const muted = applyMute(sample(), [{ start: 0, end: 5 }], 'silence');
    const moved = applyReorder(muted, [
      { start: 20, end: 30 },
      { start: 0, end: 20 },
    ]);
    expect(moved.mutes).toEqual(muted.mutes);
    expect(outputMutes(moved)).toEqual([{ start: 10, end: 15, level: 'silence', volume: 0 }]);
  });

  it('changes nothing for no ranges or ranges empty after clamping', () => {
    const el = sample([{ start: 1, end: 2, level: 'whisper' }]);
    expect(applyMute(el, [], 'silence')).toEqual(el);
    expect(applyMute(el, [{ start: 30, end: 30 + 5e-7 }], 'silence')).toEqual(el);
  });

  it('rejects an unknown level and bad ranges', () => {
    const level = editListError(() => applyMute(id60(), [{ start: 1, end: 2 }], 'loud' as MuteLevel));
    expect(level.code).toBe('INVALID_EDIT_LIST');
    expect(level.message).toBe("unknown mute level 'loud'; use one of silence, whisper, background.");
    const range = editListError(() => applyMute(id60(), [{ start: 1, end: 2 }, { start: 50, end: 70 }], 'silence'));
    expect(range.code).toBe('INVALID_RANGE');
    expect(range.message).toBe('mute range 2 (50 s to 70 s) goes past the end of the output (60 s).');
    expect(editListError(() => applyMute(id60(), [{ start: 3, end: 2 }], 'silence')).message).toMatch(/^mute range 1: start \(3 s\) must be before end \(2 s\)/);
  });
});

describe('outputMutes', () => {
  it('places the mutes in output time with their volume, merging adjacent pieces of the same level', () => {
    const el = sample([
      { start: 0, end: 10, level: 'whisper' },
      { start: 35, end: 40, level: 'whisper' },
      { start: 50, end: 55, level: 'silence' },
    ]);
    expect(outputMutes(el)).toEqual([
      { start: 5, end: 20, level: 'whisper', volume: 0.1 },
      { start: 20, end: 25, level: 'silence', volume: 0 },
    ]);
  });

  it('leaves out muted content that is cut, and splits a mute across segments', () => {
    expect(outputMutes(sample([{ start: 12, end: 20, level: 'silence' }]))).toEqual([]);
    expect(outputMutes(sample([{ start: 8, end: 32, level: 'background' }]))).toEqual([
      { start: 0, end: 2, level: 'background', volume: 0.3 },
      { start: 18, end: 20, level: 'background', volume: 0.3 },
    ]);
  });

  it('is empty without mutes', () => {
    expect(outputMutes(id60())).toEqual([]);
  });
});

describe('unappliedMutes and applyMutes', () => {
  it('a wanted mute is applied only when a mute of its level covers it (within the tolerance)', () => {
    const el = sample([
      { start: 0, end: 10, level: 'whisper' }, // output 10-20
      { start: 50, end: 55, level: 'silence' }, // output 20-25
    ]);
    expect(
      unappliedMutes(el, [
        { start: 10.02, end: 19.98, level: 'whisper' },
        { start: 12, end: 14, level: 'silence' },
        { start: 20, end: 26, level: 'silence' },
        { start: 21, end: 24, level: 'silence' },
        { start: 2, end: 3, level: 'background' },
      ]),
    ).toEqual([
      { start: 12, end: 14, level: 'silence' },
      { start: 20, end: 26, level: 'silence' },
      { start: 2, end: 3, level: 'background' },
    ]);
  });

  it('applies each mute at its own level; the later level wins where two overlap', () => {
    const out = applyMutes(id60(), [
      { start: 1, end: 3, level: 'silence' },
      { start: 10, end: 12, level: 'background' },
      { start: 2, end: 5, level: 'whisper' },
    ]);
    expect(outputMutes(out)).toEqual([
      { start: 1, end: 2, level: 'silence', volume: 0 },
      { start: 2, end: 5, level: 'whisper', volume: 0.1 },
      { start: 10, end: 12, level: 'background', volume: 0.3 },
    ]);
    expect(unappliedMutes(out, [{ start: 2, end: 5, level: 'whisper' }, { start: 10, end: 12, level: 'background' }])).toEqual([]);
    expect(applyMutes(id60(), [])).toEqual(id60());
  });
});

/** Level of the mute covering source time x (half-open), or null. */
const levelAt = (mutes: readonly SourceMute[], x: number): MuteLevel | null => mutes.find((m) => m.start <= x && x < m.end)?.level ?? null;
const inAny = (ranges: readonly TimeRange[], x: number) => ranges.some((r) => r.start <= x && x < r.end);

describe('mutes: properties', () => {
  const levelArb = fc.constantFrom(...MUTE_LEVELS);

  it('mutes stay sorted, non-overlapping and merged through random mutes and cuts', () => {
    const step = fc.record({ mute: fc.boolean(), ranges: fractionRangesArb(3), level: levelArb });
    fc.assert(
      fc.property(editListArb({ grid: 'micro' }), fc.array(step, { maxLength: 8 }), (start, steps) => {
        let el = deepFreeze(start);
        for (const s of steps) {
          const ranges = scaleRanges(s.ranges, outputDuration(el));
          if (s.mute) el = deepFreeze(applyMute(el, ranges, s.level));
          else if (ranges.length) {
            try {
              el = deepFreeze(applyCuts(el, ranges));
            } catch (e) {
              expect(e).toBeInstanceOf(EditListError);
              expect((e as EditListError).code).toBe('EMPTY_RESULT');
            }
          }
          expectNormalised(el);
        }
      }),
    );
  });

  it('the new level wins exactly on the muted content, and everything else keeps its level', () => {
    fc.assert(
      fc.property(editListArb({ grid: 'dyadic' }), fractionRangesArb(3), levelArb, fc.array(fc.integer({ min: 0, max: 4096 }), { maxLength: 20 }), (el, fractions, level, probes) => {
        const ranges = scaleRanges(fractions, outputDuration(el));
        const out = applyMute(el, ranges, level);
        const muted = ranges.flatMap((r) => mapRangeToSource(el, r));
        for (const p of probes) {
          const x = (p / 4096) * el.sourceDuration;
          expect(levelAt(out.mutes, x)).toBe(inAny(muted, x) ? level : levelAt(el.mutes, x));
        }
        expectNormalised(out);
      }),
    );
  });

  it('outputMutes says, at every output time, the level of the source there', () => {
    fc.assert(
      fc.property(editListArb({ grid: 'dyadic' }), fc.array(fc.integer({ min: 0, max: 4095 }), { maxLength: 20 }), (el, probes) => {
        const out = outputMutes(el);
        out.forEach((m, i) => {
          expect(m.end).toBeGreaterThan(m.start);
          expect(m.volume).toBe({ silence: 0, whisper: 0.1, background: 0.3 }[m.level]);
          const prev = out[i - 1];
          if (prev) expect(prev.end < m.start || (prev.end === m.start && prev.level !== m.level)).toBe(true);
        });
        const d = outputDuration(el);
        for (const p of probes) {
          const t = (p / 4096) * d;
          expect(out.find((m) => m.start <= t && t < m.end)?.level ?? null).toBe(levelAt(el.mutes, toSource(el, t)));
        }
        const keptMuted = el.mutes.reduce(
          (sum, m) => sum + el.segments.reduce((s, seg) => s + Math.max(0, Math.min(m.end, seg.end) - Math.max(m.start, seg.start)), 0),
          0,
        );
        expect(Math.abs(out.reduce((sum, m) => sum + (m.end - m.start), 0) - keptMuted)).toBeLessThanOrEqual(EPS);
      }),
    );
  });
});
