import fc from 'fast-check';
import { deepFreeze, editListArb, editListError, EPS } from './arbitraries.spec-helpers';
import { mutedSampleEditList } from './samples.spec-helpers';
import {
  EditListError,
  MUTE_VOLUME,
  applyCuts,
  describeEditList,
  editListSchema,
  identityEditList,
  isIdentity,
  outputDuration,
  parseEditList,
  withCaptions,
  type EditList,
} from './index';

/** Source 60 s; plays 30-40, then 0-10, then 50-60 (30 s of output); two mutes, captions. */
const sample = mutedSampleEditList;

describe('identityEditList / isIdentity / outputDuration', () => {
  it('keeps the whole source, in order, with nothing else', () => {
    expect(identityEditList(12.5)).toEqual({ sourceDuration: 12.5, segments: [{ start: 0, end: 12.5 }], mutes: [], burnCaptions: false });
    expect(isIdentity(identityEditList(12.5))).toBe(true);
    expect(outputDuration(identityEditList(12.5))).toBe(12.5);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('rejects the source duration %p', (d) => {
    const error = editListError(() => identityEditList(d));
    expect(error.code).toBe('INVALID_EDIT_LIST');
    expect(error.message).toBe(`the source duration must be a finite number of seconds > 0 (got ${d}).`);
  });

  it('is no longer the identity after a cut, a mute, or captions', () => {
    const id = identityEditList(60);
    expect(isIdentity(applyCuts(id, [{ start: 0, end: 1 }]))).toBe(false);
    expect(isIdentity({ ...id, mutes: [{ start: 1, end: 2, level: 'silence' }] })).toBe(false);
    expect(isIdentity(withCaptions(id, true))).toBe(false);
    expect(isIdentity(withCaptions(withCaptions(id, true), false))).toBe(true);
    expect(isIdentity({ ...id, segments: [{ start: 0, end: 30 }, { start: 30, end: 60 }] })).toBe(false);
  });

  it('sums the kept segments, whatever their order', () => {
    expect(outputDuration(sample())).toBe(30);
  });

  it('rejects an invalid edit list with a message naming the problem', () => {
    const error = editListError(() => outputDuration({ ...sample(), segments: [] }));
    expect(error).toBeInstanceOf(EditListError);
    expect(error.name).toBe('EditListError');
    expect(error.code).toBe('INVALID_EDIT_LIST');
    expect(error.message).toBe('invalid edit list at segments: an edit list keeps at least one segment.');
  });
});

describe('withCaptions', () => {
  it('switches captions and copies everything else', () => {
    const input = deepFreeze(sample());
    const off = withCaptions(input, false);
    expect(off).toEqual({ ...sample(), burnCaptions: false });
    expect(off.segments).not.toBe(input.segments);
    expect(withCaptions(off, true)).toEqual(sample());
  });

  it('rejects a value that is not a boolean', () => {
    const error = editListError(() => withCaptions(sample(), 'yes' as unknown as boolean));
    expect(error.code).toBe('INVALID_EDIT_LIST');
    expect(error.message).toMatch(/true or false \(got yes\)/);
  });
});

describe('describeEditList', () => {
  it('summarises segments, durations, mutes and captions', () => {
    expect(describeEditList(identityEditList(60))).toBe('1 segment, 60 s of 60 s');
    expect(describeEditList(sample())).toBe('3 segments, 30 s of 60 s, 2 mutes, captions');
    expect(describeEditList(applyCuts(identityEditList(60), [{ start: 0, end: 18.8 }]))).toBe('1 segment, 41.2 s of 60 s');
    expect(describeEditList({ ...sample(), mutes: [{ start: 0, end: 1, level: 'background' }], burnCaptions: false })).toBe('3 segments, 30 s of 60 s, 1 mute');
  });

  it('does not throw for an invalid list (it is for logs)', () => {
    expect(describeEditList({ ...sample(), sourceDuration: -1 })).toMatch(/^invalid edit list \(/);
    expect(describeEditList(null as unknown as EditList)).toMatch(/^invalid edit list \(/);
  });
});

describe('MUTE_VOLUME', () => {
  it('gives each level its volume factor', () => {
    expect(MUTE_VOLUME).toEqual({ silence: 0, whisper: 0.1, background: 0.3 });
  });
});

describe('editListSchema / parseEditList', () => {
  it('accepts a valid list from JSON and drops unknown keys', () => {
    const json = JSON.parse(JSON.stringify({ ...sample(), extra: 1 }));
    expect(parseEditList(json)).toEqual(sample());
    expect(editListSchema.parse(json)).toEqual(sample());
  });

  const cases: Array<[string, unknown, RegExp]> = [
    ['not an object', 'x', /^invalid edit list: /],
    ['a missing captions flag', { ...sample(), burnCaptions: undefined }, /at burnCaptions: /],
    ['a zero source duration', { ...sample(), sourceDuration: 0 }, /at sourceDuration: the source duration must be a number of seconds > 0/],
    ['a NaN time', { ...sample(), segments: [{ start: Number.NaN, end: 1 }] }, /at segments\[0\]\.start: /],
    ['an infinite time', { ...sample(), segments: [{ start: 0, end: Number.POSITIVE_INFINITY }] }, /at segments\[0\]\.end: /],
    ['a negative time', { ...sample(), segments: [{ start: -1, end: 1 }] }, /at segments\[0\]\.start: must be a time in seconds >= 0/],
    ['an empty segment', { ...sample(), segments: [{ start: 5, end: 5 }] }, /at segments\[0\]: a segment must start before it ends/],
    ['a segment past the source', { ...sample(), segments: [{ start: 50, end: 61 }] }, /at segments\[0\]\.end: segment ends at 61 s, after the end of the source \(60 s\)/],
    [
      'segments overlapping in source',
      { ...sample(), segments: [{ start: 30, end: 40 }, { start: 0, end: 10 }, { start: 35, end: 45 }] },
      /at segments\[2\]: segment 2 \(35 s to 45 s\) overlaps segment 0 \(30 s to 40 s\) in source time/,
    ],
    ['an unknown mute level', { ...sample(), mutes: [{ start: 1, end: 2, level: 'loud' }] }, /at mutes\[0\]\.level: /],
    ['an empty mute', { ...sample(), mutes: [{ start: 2, end: 1, level: 'silence' }] }, /a mute must start before it ends/],
    ['a mute past the source', { ...sample(), mutes: [{ start: 59, end: 61, level: 'silence' }] }, /mute ends at 61 s, after the end of the source/],
    [
      'unsorted mutes',
      { ...sample(), mutes: [{ start: 5, end: 6, level: 'silence' }, { start: 1, end: 2, level: 'silence' }] },
      /at mutes\[1\]: mute 1 \(1 s to 2 s\) starts before mute 0 ends \(6 s\); mutes must be sorted and must not overlap/,
    ],
    ['overlapping mutes', { ...sample(), mutes: [{ start: 1, end: 3, level: 'silence' }, { start: 2, end: 4, level: 'whisper' }] }, /must not overlap/],
  ];
  it.each(cases)('rejects %s', (_name, json, message) => {
    expect(editListSchema.safeParse(json).success).toBe(false);
    const error = editListError(() => parseEditList(json));
    expect(error.code).toBe('INVALID_EDIT_LIST');
    expect(error.message).toMatch(message);
  });

  it('accepts touching segments and touching mutes', () => {
    const touching: EditList = {
      sourceDuration: 10,
      segments: [{ start: 5, end: 10 }, { start: 0, end: 5 }],
      mutes: [{ start: 0, end: 1, level: 'silence' }, { start: 1, end: 2, level: 'whisper' }],
      burnCaptions: false,
    };
    expect(parseEditList(touching)).toEqual(touching);
  });

  it('accepts every generated edit list, and outputDuration is the sum of segment lengths', () => {
    fc.assert(
      fc.property(editListArb({ grid: 'micro' }), (el) => {
        expect(editListSchema.safeParse(el).success).toBe(true);
        const sum = el.segments.reduce((s, seg) => s + (seg.end - seg.start), 0);
        expect(Math.abs(outputDuration(el) - sum)).toBeLessThanOrEqual(EPS);
        expect(outputDuration(el)).toBeLessThanOrEqual(el.sourceDuration + EPS);
      }),
    );
  });
});
