import fc from 'fast-check';
import type { Paragraph } from '@wordcut/contracts';
import type { ReorderSegment } from './preview';
import {
  OUT_OF_SYNC_TOLERANCE_SECONDS,
  REORDER_USER_ID,
  isOutOfSync,
  moveDown,
  moveItem,
  moveUp,
  paragraphPreviewText,
  paragraphSegments,
  reorderPayload,
  segmentsChanged,
} from './reorder';
import { transcript } from './testing.spec-helpers';

// words k at k/2 .. k/2 + 0.4; paragraphs [0, 1], [2, 3, 4], [5]
const t = transcript('a b', 'c d e', 'f');
const { words, paragraphs } = t;

describe('isOutOfSync', () => {
  const ps = (...ends: number[]): Pick<Paragraph, 'end'>[] => ends.map((end) => ({ end }));

  it('has a 5 s tolerance', () => {
    expect(OUT_OF_SYNC_TOLERANCE_SECONDS).toBe(5);
  });

  it('is true only when the last paragraph ends more than 5 s after the duration', () => {
    expect(isOutOfSync(ps(3, 15.1), 10)).toBe(true);
    expect(isOutOfSync(ps(15), 10)).toBe(false);
    expect(isOutOfSync(ps(15.3), 10.3)).toBe(false); // 15.3 - 10.3 = 5.000000000000002
    expect(isOutOfSync(ps(12), 10)).toBe(false);
  });

  it('uses the latest end, not the last listed paragraph', () => {
    expect(isOutOfSync(ps(20, 3), 10)).toBe(true);
  });

  it('is false without paragraphs or without a known duration', () => {
    expect(isOutOfSync([], 10)).toBe(false);
    expect(isOutOfSync(ps(100), 0)).toBe(false);
    expect(isOutOfSync(ps(100), -1)).toBe(false);
    expect(isOutOfSync(ps(100), Number.NaN)).toBe(false);
  });
});

describe('paragraphSegments', () => {
  it('makes one segment per paragraph from its first word start to its last word end', () => {
    expect(paragraphSegments(words, paragraphs)).toEqual([
      { id: 'p0', start: 0, end: 0.9, paragraphId: 0, wordIndices: [0, 1], type: 'paragraph' },
      { id: 'p1', start: 1, end: 2.4, paragraphId: 1, wordIndices: [2, 3, 4], type: 'paragraph' },
      { id: 'p2', start: 2.5, end: 2.9, paragraphId: 2, wordIndices: [5], type: 'paragraph' },
    ]);
  });

  it('follows the given order and skips indices with no paragraph', () => {
    expect(paragraphSegments(words, paragraphs, [2, 0, 7, 1]).map((s) => s.id)).toEqual(['p2', 'p0', 'p1']);
  });

  it('copies word indices', () => {
    const [s] = paragraphSegments(words, paragraphs);
    s!.wordIndices.push(99);
    expect(paragraphs[0]!.wordIndices).toEqual([0, 1]);
  });

  it('falls back to the paragraph times when words are missing', () => {
    const lone: Paragraph[] = [
      { start: 3, end: 4, wordIndices: [], groupNumber: 0 },
      { start: 5, end: 6, wordIndices: [1, 40], groupNumber: 1 },
    ];
    expect(paragraphSegments(words, lone).map(({ start, end }) => [start, end])).toEqual([
      [3, 4],
      [0.5, 6],
    ]);
    expect(paragraphSegments([], [])).toEqual([]);
  });
});

describe('moveItem, moveUp, moveDown', () => {
  it('moves an item to a new position in a new array', () => {
    const list = ['a', 'b', 'c', 'd'];
    expect(moveItem(list, 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(list, 3, 0)).toEqual(['d', 'a', 'b', 'c']);
    expect(list).toEqual(['a', 'b', 'c', 'd']);
  });

  it('returns an unchanged copy for out-of-range or non-integer positions', () => {
    const list = [1, 2, 3];
    for (const [from, to] of [
      [-1, 0],
      [0, 3],
      [3, 0],
      [0.5, 1],
      [1, 1],
    ] as const) {
      const out = moveItem(list, from, to);
      expect(out).toEqual([1, 2, 3]);
      expect(out).not.toBe(list);
    }
    expect(moveItem([], 0, 0)).toEqual([]);
  });

  it('moves up and down by one, leaving the ends in place', () => {
    expect(moveUp([0, 1, 2], 2)).toEqual([0, 2, 1]);
    expect(moveUp([0, 1, 2], 0)).toEqual([0, 1, 2]);
    expect(moveDown([0, 1, 2], 0)).toEqual([1, 0, 2]);
    expect(moveDown([0, 1, 2], 2)).toEqual([0, 1, 2]);
  });

  it('keeps a permutation (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 20 }), fc.integer({ min: -2, max: 22 }), fc.integer({ min: -2, max: 22 }), (list, from, to) => {
        const out = moveItem(list, from, to);
        expect([...out].sort((x, y) => x - y)).toEqual([...list].sort((x, y) => x - y));
        if (from >= 0 && from < list.length && to >= 0 && to < list.length) expect(out[to]).toBe(list[from]);
        else expect(out).toEqual(list);
      }),
    );
  });
});

describe('segmentsChanged', () => {
  const before = paragraphSegments(words, paragraphs);

  it('is false for the same order', () => {
    expect(segmentsChanged(before, paragraphSegments(words, paragraphs, [0, 1, 2]))).toBe(false);
    expect(segmentsChanged([], [])).toBe(false);
  });

  it('is true for a new order, a different count, start or word-index list', () => {
    expect(segmentsChanged(before, paragraphSegments(words, paragraphs, [1, 0, 2]))).toBe(true);
    expect(segmentsChanged(before, before.slice(0, 2))).toBe(true);
    expect(segmentsChanged(before, before.map((s, k) => (k === 1 ? { ...s, start: s.start + 0.01 } : s)))).toBe(true);
    expect(segmentsChanged(before, before.map((s, k) => (k === 2 ? { ...s, wordIndices: [5, 6] } : s)))).toBe(true);
    expect(segmentsChanged(before, before.map((s, k) => (k === 0 ? { ...s, wordIndices: [0, 2] } : s)))).toBe(true);
  });

  it('ignores ids and ends (not part of the seed rule)', () => {
    expect(segmentsChanged(before, before.map((s) => ({ ...s, id: 'x', end: s.end + 1 })))).toBe(false);
  });

  it('moving a paragraph up then down again is no change', () => {
    const order = moveDown(moveUp([0, 1, 2], 1), 0);
    expect(segmentsChanged(before, paragraphSegments(words, paragraphs, order))).toBe(false);
  });
});

describe('reorderPayload', () => {
  const segments = paragraphSegments(words, paragraphs, [2, 0, 1]);
  const withGroups = (...groups: (number | undefined)[]): Paragraph[] =>
    paragraphs.map((p, k) => {
      const { groupNumber: _, ...rest } = p;
      return groups[k] === undefined ? rest : { ...rest, groupNumber: groups[k] };
    });

  it('sends the group numbers in the new order when every paragraph has one', () => {
    expect(REORDER_USER_ID).toBe('wordcut-editor');
    expect(reorderPayload(paragraphs, segments)).toEqual({ groupOrder: [2, 0, 1], userId: 'wordcut-editor' });
    expect(reorderPayload(withGroups(10, 20, 30), segments)).toEqual({ groupOrder: [30, 10, 20], userId: 'wordcut-editor' });
  });

  it.each([
    ['a negative group number', withGroups(0, -1, 2)],
    ['a missing group number', withGroups(0, undefined, 2)],
    ['a NaN group number', withGroups(0, Number.NaN, 2)],
    ['an infinite group number', withGroups(0, Number.POSITIVE_INFINITY, 2)],
    ['a fractional group number', withGroups(0, 1.5, 2)],
  ])('sends a paragraph spec for %s', (_, ps) => {
    const payload = reorderPayload(ps, segments);
    expect(payload).toEqual({ spec: { granularity: 'paragraph', segments }, userId: 'wordcut-editor' });
  });

  it('checks every paragraph, also one no segment mentions', () => {
    const payload = reorderPayload(withGroups(0, 1, undefined), segments.slice(1));
    expect('spec' in payload).toBe(true);
  });

  it('sends a spec when a segment names no paragraph', () => {
    const stray: ReorderSegment = { ...segments[0]!, paragraphId: 9 };
    expect('spec' in reorderPayload(paragraphs, [stray])).toBe(true);
  });

  it('copies the segments into the spec', () => {
    const payload = reorderPayload(withGroups(undefined, undefined, undefined), segments);
    if (!('spec' in payload)) throw new Error('expected the spec form');
    payload.spec.segments[0]!.wordIndices.push(42);
    expect(segments[0]!.wordIndices).toEqual([5]);
  });
});

describe('paragraphPreviewText', () => {
  it('joins the paragraph words', () => {
    expect(paragraphPreviewText(words, paragraphs[1]!)).toBe('c d e');
    expect(paragraphPreviewText(words, { wordIndices: [] })).toBe('');
    expect(paragraphPreviewText(words, { wordIndices: [0, 77, 1] })).toBe('a b');
  });

  it('cuts at maxChars (ellipsis included), trimming a trailing space', () => {
    const long = transcript('one two three four five six');
    const p = long.paragraphs[0]!;
    expect(paragraphPreviewText(long.words, p, 9)).toBe('one two…');
    expect(paragraphPreviewText(long.words, p, 10)).toBe('one two t…');
    expect(paragraphPreviewText(long.words, p, 11)).toBe('one two th…');
    expect(paragraphPreviewText(long.words, p, 100)).toBe('one two three four five six');
    expect(paragraphPreviewText(long.words, p, 27)).toBe('one two three four five six');
    expect(paragraphPreviewText(long.words, p, 26)).toHaveLength(26);
  });

  it('defaults to 140 characters', () => {
    const many = transcript(Array.from({ length: 60 }, (_, k) => `word${k}`).join(' '));
    const text = paragraphPreviewText(many.words, many.paragraphs[0]!);
    expect(text.length).toBeLessThanOrEqual(140);
    expect(text.endsWith('…')).toBe(true);
  });

  it('does not split a surrogate pair', () => {
    const emoji = transcript('😀😀😀 😀😀😀');
    expect(paragraphPreviewText(emoji.words, emoji.paragraphs[0]!, 3)).toBe('😀😀…');
  });
});
