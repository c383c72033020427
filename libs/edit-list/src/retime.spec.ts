import fc from 'fast-check';
import { EPS, deepFreeze, editListArb, editListError } from './arbitraries.spec-helpers';
import {
  applyCuts,
  applyReorder,
  identityEditList,
  mapRangeToSource,
  outputDuration,
  retimeWords,
  toOutput,
  type EditList,
} from './index';

interface TestWord {
  text: string;
  start: number;
  end: number;
}
const w = (text: string, start: number, end: number): TestWord => ({ text, start, end });
/** "a b c d", one word a second, in a 10 s video. */
const words = () => deepFreeze([w('a', 0, 1), w('b', 1, 2), w('c', 2, 3), w('d', 3, 4)]);
const id10 = () => deepFreeze(identityEditList(10));
const summary = (out: Array<{ index: number; word: TestWord }>) => out.map(({ index, word }) => [index, word.text, word.start, word.end]);

describe('retimeWords', () => {
  it('drops the words of cut content and moves the others up', () => {
    const after = applyCuts(id10(), [{ start: 1, end: 2 }]);
    expect(summary(retimeWords(id10(), after, words()))).toEqual([
      [0, 'a', 0, 1],
      [2, 'c', 1, 2],
      [3, 'd', 2, 3],
    ]);
  });

  it('returns the words in the new play order with their old index', () => {
    // 0-2 and 2-10 swap: c d ... then a b
    const after = applyReorder(id10(), [
      { start: 2, end: 4 },
      { start: 0, end: 2 },
    ]);
    expect(summary(retimeWords(id10(), after, words()))).toEqual([
      [2, 'c', 0, 1],
      [3, 'd', 1, 2],
      [0, 'a', 8, 9],
      [1, 'b', 9, 10],
    ]);
  });

  it('keeps a word iff the middle of its source is kept, clamping it inside its segment', () => {
    const after = applyCuts(id10(), [{ start: 1, end: 3 }]);
    const out = retimeWords(id10(), after, [w('half-in', 0.2, 1.2), w('half-out', 0.5, 1.5), w('tail', 2.6, 3.2)]);
    expect(summary(out)).toEqual([[0, 'half-in', 0.2, 1]]);
  });

  it('maps a word that straddles a segment boundary by where it starts', () => {
    const before = applyCuts(id10(), [{ start: 2, end: 3 }]); // plays 0-2, 3-10
    // output 1.5-2.5 is source 1.5-2 (clamped to the segment where it starts)
    expect(summary(retimeWords(before, before, [w('x', 1.5, 2.5)]))).toEqual([[0, 'x', 1.5, 2]]);
    expect(summary(retimeWords(before, identityEditList(10), [w('x', 1.5, 2.5)]))).toEqual([[0, 'x', 1.5, 2]]);
  });

  it('copies the other fields, never touches the input, and keeps ties in the old order', () => {
    const input = deepFreeze([w('x', 5, 5), w('y', 5, 5), { ...w('z', 4, 5), extra: true }]);
    const out = retimeWords(id10(), id10(), input);
    expect(out).toEqual([
      { index: 2, word: { text: 'z', start: 4, end: 5, extra: true } },
      { index: 0, word: { text: 'x', start: 5, end: 5 } },
      { index: 1, word: { text: 'y', start: 5, end: 5 } },
    ]);
    expect(out[1]!.word).not.toBe(input[0]);
  });

  it('keeps a zero-length word at the very end while the end is kept', () => {
    expect(summary(retimeWords(id10(), id10(), [w('end', 10, 10)]))).toEqual([[0, 'end', 10, 10]]);
    expect(summary(retimeWords(id10(), applyCuts(id10(), [{ start: 1, end: 2 }]), [w('end', 10, 10)]))).toEqual([[0, 'end', 9, 9]]);
    expect(retimeWords(id10(), applyCuts(id10(), [{ start: 9, end: 10 }]), [w('end', 10, 10)])).toEqual([]);
  });

  it('keeps a zero-length word at the very end with the content that ends there', () => {
    const swapped = deepFreeze(applyReorder(id10(), [{ start: 5, end: 10 }, { start: 0, end: 5 }])); // plays 5-10, then 0-5
    expect(summary(retimeWords(swapped, swapped, [w('end', 10, 10)]))).toEqual([[0, 'end', 10, 10]]);
    expect(summary(retimeWords(swapped, id10(), [w('end', 10, 10)]))).toEqual([[0, 'end', 5, 5]]);
  });

  it('accepts words up to 1e-6 s outside the video (clamped)', () => {
    expect(summary(retimeWords(id10(), id10(), [w('x', 9.5, 10 + 5e-7)]))).toEqual([[0, 'x', 9.5, 10]]);
  });

  it('rejects bad words and lists of different media', () => {
    const cases: Array<[unknown, RegExp]> = [
      [w('x', 2, 1), /^word 0: it ends \(1 s\) before it starts \(2 s\)\.$/],
      [w('x', Number.NaN, 1), /^word 0: start and end must be finite numbers of seconds \(got NaN and 1\)\.$/],
      [w('x', 9, 11), /^word 0 \(9 s to 11 s\) is outside the video before the edit \(0 s to 10 s\)\.$/],
      [w('x', -1, 1), /is outside the video before the edit/],
      [null, /^word 0: start and end must be finite numbers/],
    ];
    for (const [word, message] of cases) {
      const error = editListError(() => retimeWords(id10(), id10(), [word as TestWord]));
      expect(error.code).toBe('INVALID_RANGE');
      expect(error.message).toMatch(message);
    }
    const media = editListError(() => retimeWords(id10(), identityEditList(11), words()));
    expect(media.code).toBe('INVALID_EDIT_LIST');
    expect(media.message).toMatch(/different media/);
    expect(editListError(() => retimeWords(id10(), id10(), 'abc' as unknown as TestWord[])).message).toMatch(/^words must be a list/);
  });
});

describe('retimeWords: properties', () => {
  /** Sorted, non-overlapping words inside the output of `el` (some of zero length). */
  const wordsIn = (el: EditList) =>
    fc.uniqueArray(fc.integer({ min: 0, max: 4096 }), { maxLength: 40 }).map((ticks) => {
      const d = outputDuration(el);
      const sorted = [...ticks].sort((a, b) => a - b).map((k) => (k / 4096) * d);
      const out: TestWord[] = [];
      for (let i = 0; i + 1 < sorted.length; i += 2) out.push(w(`w${i / 2}`, sorted[i]!, sorted[i + 1]!));
      if (sorted.length % 2) out.push(w('point', sorted[sorted.length - 1]!, sorted[sorted.length - 1]!));
      return out;
    });
  const cutsIn = (el: EditList) =>
    fc.array(fc.tuple(fc.integer({ min: 0, max: 1024 }), fc.integer({ min: 0, max: 1024 })), { maxLength: 4 }).map((pairs) =>
      pairs.filter(([a, b]) => a !== b).map(([a, b]) => ({ start: (Math.min(a, b) / 1024) * outputDuration(el), end: (Math.max(a, b) / 1024) * outputDuration(el) })),
    );
  /** A list, words in it, and the list after some cuts (or unchanged when the cuts would remove everything). */
  const scenario = (grid: 'dyadic' | 'micro') =>
    editListArb({ grid }).chain((before) =>
      fc.tuple(fc.constant(before), wordsIn(before), cutsIn(before)).map(([b, ws, cuts]) => {
        let after = b;
        try {
          after = applyCuts(b, cuts);
        } catch {
          // everything cut: keep the list as it is
        }
        return { before: b, after, words: ws };
      }),
    );

  it('words entirely inside kept content keep their duration and land where their source is', () => {
    for (const grid of ['dyadic', 'micro'] as const) {
      fc.assert(
        fc.property(scenario(grid), ({ before, after, words: ws }) => {
          const out = retimeWords(deepFreeze(before), deepFreeze(after), deepFreeze(ws));
          const byIndex = new Map(out.map((r) => [r.index, r.word]));
          ws.forEach((word, i) => {
            if (word.end === word.start) return;
            const pieces = mapRangeToSource(before, word);
            if (pieces.length !== 1) return;
            const piece = pieces[0]!;
            const inside = after.segments.some((s) => s.start <= piece.start && piece.end <= s.end);
            if (!inside) return;
            const moved = byIndex.get(i);
            expect(moved).toBeDefined();
            expect(Math.abs(moved!.end - moved!.start - (word.end - word.start))).toBeLessThanOrEqual(EPS);
            expect(Math.abs(moved!.start - toOutput(after, piece.start)!)).toBeLessThanOrEqual(EPS);
          });
        }),
      );
    }
  });

  it('returns the kept words in output order (ties by old index), each inside the new video', () => {
    fc.assert(
      fc.property(scenario('micro'), ({ before, after, words: ws }) => {
        const out = retimeWords(before, after, ws);
        const d = outputDuration(after);
        out.forEach((r, k) => {
          expect(r.word.end).toBeGreaterThanOrEqual(r.word.start);
          expect(r.word.start).toBeGreaterThanOrEqual(0);
          expect(r.word.end).toBeLessThanOrEqual(d + EPS);
          expect(r.word.text).toBe(ws[r.index]!.text);
          const prev = out[k - 1];
          if (prev) expect(prev.word.start < r.word.start || (prev.word.start === r.word.start && prev.index < r.index)).toBe(true);
        });
        expect(new Set(out.map((r) => r.index)).size).toBe(out.length);
      }),
    );
  });

  it('keeps every word through an unchanged list, in place', () => {
    fc.assert(
      fc.property(
        editListArb({ grid: 'micro' }).chain((el) => fc.tuple(fc.constant(el), wordsIn(el))),
        ([el, ws]) => {
          const out = retimeWords(el, el, ws);
          expect(out.map((r) => r.index)).toEqual(ws.map((_, i) => i));
          out.forEach((r) => {
            const word = ws[r.index]!;
            // a word crossing a segment boundary is clamped to the segment where it starts
            const pieces = word.end > word.start ? mapRangeToSource(el, word) : [];
            expect(Math.abs(r.word.start - word.start)).toBeLessThanOrEqual(EPS);
            if (pieces.length <= 1) expect(Math.abs(r.word.end - word.end)).toBeLessThanOrEqual(EPS);
          });
        },
      ),
    );
  });

  it('a reorder cuts nothing, so every word is kept', () => {
    fc.assert(
      fc.property(
        editListArb({ grid: 'dyadic' }).chain((el) =>
          fc.tuple(fc.constant(el), wordsIn(el), fc.uniqueArray(fc.integer({ min: 1, max: 1023 }), { minLength: 1, maxLength: 5 }), fc.nat()),
        ),
        ([el, ws, points, rotation]) => {
          const d = outputDuration(el);
          const cuts = [0, ...[...points].sort((a, b) => a - b), 1024].map((k) => (k / 1024) * d);
          const ranges = cuts.slice(1).map((end, i) => ({ start: cuts[i]!, end }));
          const r = rotation % ranges.length;
          const after = applyReorder(el, [...ranges.slice(r), ...ranges.slice(0, r)]);
          const out = retimeWords(el, after, ws);
          expect(out.map((x) => x.index).sort((a, b) => a - b)).toEqual(ws.map((_, i) => i));
        },
      ),
    );
  });
});
