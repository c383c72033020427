import fc from 'fast-check';
import {
  DRAG_THRESHOLD_PX,
  EMPTY_SELECTION,
  addRange,
  clampSelection,
  isContiguous,
  isDrag,
  isSelected,
  paragraphRange,
  removeRange,
  selectRange,
  selectedIndices,
  selectionBounds,
  selectionSize,
  selectionText,
  sentenceRange,
  toggleWord,
  tripleClickRange,
  type Selection,
} from './index';
import { transcript } from './testing.spec-helpers';

describe('selection ranges', () => {
  it('selects a range in either drag direction', () => {
    expect(selectRange(2, 5)).toEqual([{ start: 2, end: 5 }]);
    expect(selectRange(5, 2)).toEqual([{ start: 2, end: 5 }]);
    expect(selectRange(3, 3)).toEqual([{ start: 3, end: 3 }]);
  });

  it('adds ranges, merging overlapping and touching ones', () => {
    let sel = addRange(EMPTY_SELECTION, 0, 2);
    sel = addRange(sel, 8, 6);
    expect(sel).toEqual([{ start: 0, end: 2 }, { start: 6, end: 8 }]);
    expect(addRange(sel, 3, 4)).toEqual([{ start: 0, end: 4 }, { start: 6, end: 8 }]);
    expect(addRange(sel, 3, 5)).toEqual([{ start: 0, end: 8 }]);
    expect(addRange(sel, 10, 12)).toEqual([{ start: 0, end: 2 }, { start: 6, end: 8 }, { start: 10, end: 12 }]);
    expect(addRange(sel, 4, 4)).toEqual([{ start: 0, end: 2 }, { start: 4, end: 4 }, { start: 6, end: 8 }]);
    expect(addRange(sel, 1, 7)).toEqual([{ start: 0, end: 8 }]);
  });

  it('removes ranges, splitting a range in two', () => {
    const sel = selectRange(0, 9);
    expect(removeRange(sel, 3, 5)).toEqual([{ start: 0, end: 2 }, { start: 6, end: 9 }]);
    expect(removeRange(sel, 0, 0)).toEqual([{ start: 1, end: 9 }]);
    expect(removeRange(sel, 12, 9)).toEqual([{ start: 0, end: 8 }]);
    expect(removeRange(sel, 0, 20)).toEqual([]);
    expect(removeRange(sel, 11, 20)).toEqual(sel);
  });

  it('toggles one word', () => {
    const sel = toggleWord(toggleWord(EMPTY_SELECTION, 4), 5);
    expect(sel).toEqual([{ start: 4, end: 5 }]);
    expect(toggleWord(sel, 4)).toEqual([{ start: 5, end: 5 }]);
    expect(toggleWord(toggleWord(sel, 7), 7)).toEqual(sel);
  });

  it('answers membership, size, indices, bounds and contiguity', () => {
    const sel: Selection = [{ start: 1, end: 2 }, { start: 5, end: 5 }, { start: 9, end: 11 }];
    expect([0, 1, 2, 3, 5, 8, 9, 11, 12].map((i) => isSelected(sel, i))).toEqual([false, true, true, false, true, false, true, true, false]);
    expect(selectionSize(sel)).toBe(6);
    expect(selectedIndices(sel)).toEqual([1, 2, 5, 9, 10, 11]);
    expect(selectionBounds(sel)).toEqual({ start: 1, end: 11 });
    expect(selectionBounds(EMPTY_SELECTION)).toBeNull();
    expect(isContiguous(sel)).toBe(false);
    expect(isContiguous(selectRange(1, 4))).toBe(true);
    expect(isContiguous(EMPTY_SELECTION)).toBe(false);
    expect(selectionSize(EMPTY_SELECTION)).toBe(0);
  });

  it('clamps a selection to the words that still exist', () => {
    const sel: Selection = [{ start: 1, end: 2 }, { start: 5, end: 9 }, { start: 12, end: 14 }];
    expect(clampSelection(sel, 7)).toEqual([{ start: 1, end: 2 }, { start: 5, end: 6 }]);
    expect(clampSelection(sel, 0)).toEqual([]);
    expect(clampSelection([{ start: -3, end: 1 }], 5)).toEqual([{ start: 0, end: 1 }]);
  });

  it('copies the selected words joined by single spaces', () => {
    const { words } = transcript('Hello there friend.', 'How are you');
    expect(selectionText(words, selectRange(1, 3))).toBe('there friend. How');
    expect(selectionText(words, [{ start: 0, end: 0 }, { start: 4, end: 5 }])).toBe('Hello are you');
    expect(selectionText(words, [{ start: 5, end: 9 }])).toBe('you');
    expect(selectionText(words, EMPTY_SELECTION)).toBe('');
  });
});

describe('drag threshold', () => {
  it('starts a drag only after moving more than 2 px', () => {
    expect(DRAG_THRESHOLD_PX).toBe(2);
    expect(isDrag(0, 0)).toBe(false);
    expect(isDrag(2, 0)).toBe(false);
    expect(isDrag(0, -2)).toBe(false);
    expect(isDrag(1.4, 1.4)).toBe(false); // hypot 1.98
    expect(isDrag(1.5, 1.5)).toBe(true); // hypot 2.12
    expect(isDrag(-3, 0)).toBe(true);
  });
});

describe('sentences and paragraphs', () => {
  // paragraph 0: "Hi there. How are you? Fine" (0..5), paragraph 1: "Next one. Mr. Smith came." (6..10)
  const t = transcript('Hi there. How are you? Fine', 'Next one. Mr. Smith came.');

  it('finds the sentence of a word, inside its paragraph', () => {
    expect(sentenceRange(t.words, t.paragraphs, 0)).toEqual({ start: 0, end: 1 });
    expect(sentenceRange(t.words, t.paragraphs, 1)).toEqual({ start: 0, end: 1 });
    expect(sentenceRange(t.words, t.paragraphs, 3)).toEqual({ start: 2, end: 4 });
    // unterminated last sentence stops at the paragraph end
    expect(sentenceRange(t.words, t.paragraphs, 5)).toEqual({ start: 5, end: 5 });
    // the paragraph start bounds the sentence although the previous word does not end one
    expect(sentenceRange(t.words, t.paragraphs, 7)).toEqual({ start: 6, end: 7 });
    // "Mr." does not end a sentence
    expect(sentenceRange(t.words, t.paragraphs, 9)).toEqual({ start: 8, end: 10 });
  });

  it('bounds a sentence by the whole transcript when no paragraph holds the word', () => {
    expect(sentenceRange(t.words, [], 3)).toEqual({ start: 2, end: 4 });
    expect(sentenceRange(t.words, [], 6)).toEqual({ start: 5, end: 7 });
  });

  it('finds the paragraph of a word, or the word alone', () => {
    expect(paragraphRange(t.paragraphs, 0)).toEqual({ start: 0, end: 5 });
    expect(paragraphRange(t.paragraphs, 8)).toEqual({ start: 6, end: 10 });
    expect(paragraphRange(t.paragraphs, 42)).toEqual({ start: 42, end: 42 });
    expect(paragraphRange([], 3)).toEqual({ start: 3, end: 3 });
  });

  it('triple click selects the sentence, then the paragraph', () => {
    expect(tripleClickRange(t.words, t.paragraphs, 3, EMPTY_SELECTION)).toEqual({ start: 2, end: 4 });
    expect(tripleClickRange(t.words, t.paragraphs, 3, selectRange(3, 3))).toEqual({ start: 2, end: 4 });
    expect(tripleClickRange(t.words, t.paragraphs, 3, selectRange(2, 4))).toEqual({ start: 0, end: 5 });
    // the sentence plus something else is not "the sentence already selected"
    expect(tripleClickRange(t.words, t.paragraphs, 3, addRange(selectRange(2, 4), 8, 8))).toEqual({ start: 2, end: 4 });
  });

  it('triple click on a one-sentence paragraph selects the paragraph', () => {
    const one = transcript('Just one sentence here.', 'Another.');
    expect(tripleClickRange(one.words, one.paragraphs, 1, EMPTY_SELECTION)).toEqual({ start: 0, end: 3 });
  });
});

describe('selection properties', () => {
  const op = fc.record({ add: fc.boolean(), a: fc.integer({ min: 0, max: 60 }), b: fc.integer({ min: 0, max: 60 }) });

  /** The reference model: a plain set of indices. */
  function model(ops: { add: boolean; a: number; b: number }[]): number[] {
    const set = new Set<number>();
    for (const o of ops) {
      for (let i = Math.min(o.a, o.b); i <= Math.max(o.a, o.b); i++) {
        if (o.add) set.add(i);
        else set.delete(i);
      }
    }
    return [...set].sort((x, y) => x - y);
  }

  it('union and removal keep ranges sorted, disjoint and non-touching, and agree with a set model', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        let sel: Selection = EMPTY_SELECTION;
        for (const o of ops) sel = o.add ? addRange(sel, o.a, o.b) : removeRange(sel, o.a, o.b);
        const wellFormed = sel.every((r, k) => r.start <= r.end && (k === 0 || r.start > sel[k - 1]!.end + 1));
        expect(wellFormed).toBe(true);
        const indices = selectedIndices(sel);
        expect(indices).toEqual(model(ops));
        expect(selectionSize(sel)).toBe(indices.length);
        const chosen = new Set(indices);
        const probes = Array.from({ length: 64 }, (_, k) => k - 1);
        expect(probes.filter((i) => isSelected(sel, i))).toEqual(probes.filter((i) => chosen.has(i)));
      }),
      { numRuns: 300 },
    );
  });
});
