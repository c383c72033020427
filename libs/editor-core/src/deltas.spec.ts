import fc from 'fast-check';
import { INSERTED_WORD_CONFIDENCE, TranscriptEditError, applyWordDeltas } from '@wordcut/transcript';
import { applyEdit, deleteWordsDeltas, deltasBetween, pasteDeltas, replaceRunDeltas } from './index';
import { contentArb, editStepArb, essence, statesAlong, texts, transcript } from './testing.spec-helpers';

// words k at k/2 .. k/2 + 0.4; paragraphs "Hello there friend." (0..2) and "How are you" (3..5)
const base = transcript('Hello there friend.', 'How are you');

describe('deltasBetween', () => {
  it('is empty for equal content', () => {
    expect(deltasBetween(base, structuredClone(base))).toEqual([]);
  });

  it('expresses a word change, a deletion and an insertion', () => {
    const changed = applyEdit(base, [{ word_order: 1, changes: { text: 'here', confidence: 1 } }]);
    expect(deltasBetween(base, changed)).toEqual([{ word_order: 1, changes: { text: 'here', confidence: 1 } }]);

    const deleted = applyEdit(base, [{ word_order: 3, delete: true }, { word_order: 4, delete: true }]);
    expect(deltasBetween(base, deleted)).toEqual([
      { word_order: 3, delete: true },
      { word_order: 4, delete: true },
    ]);

    const word = { text: 'new', start: 1.4, end: 1.4, confidence: 0.9 };
    const inserted = applyEdit(base, [{ word_order: 2, insertAfter: [word] }]);
    expect(deltasBetween(base, inserted)).toEqual([{ word_order: 2, insertAfter: [word] }]);

    const first = applyEdit(base, [{ word_order: -1, insertAfter: [{ ...word, start: 0, end: 0 }] }]);
    expect(deltasBetween(base, first)).toEqual([{ word_order: -1, insertAfter: [{ ...word, start: 0, end: 0 }] }]);
  });

  it('undoes an edit: the deltas from after back to before', () => {
    const after = applyEdit(base, [{ word_order: 1, delete: true }, { word_order: 2, delete: true }]);
    const back = deltasBetween(after, base)!;
    expect(back).toEqual([
      { word_order: 0, insertAfter: base.words.slice(1, 3).map(({ text, start, end, confidence }) => ({ text, start, end, confidence })) },
    ]);
    expect(essence(applyEdit(after, back))).toEqual(essence(base));
  });

  it('gives null for edits at two places whose splice would shift words across a paragraph break', () => {
    // back from "Hello friend. | How were you": the splice pairs 'How' (paragraph 1) with 'friend.'
    const after = applyEdit(base, [{ word_order: 1, delete: true }, { word_order: 4, changes: { text: 'were' } }]);
    expect(deltasBetween(after, base)).toBeNull();
  });

  it('gives null when deltas cannot express the change', () => {
    // filler indices set by hand: the server recomputes them from the words
    expect(deltasBetween(base, { ...base, fillerWords: [0] })).toBeNull();
    // same words, another paragraph boundary
    expect(deltasBetween(base, transcript('Hello there', 'friend. How are you'))).toBeNull();
    // a word change together with a hand-set filler
    const changed = applyEdit(base, [{ word_order: 0, changes: { text: 'Hi' } }]);
    expect(deltasBetween(base, { ...changed, fillerWords: [5] })).toBeNull();
  });

  it('reproduces any chain of edits exactly, or gives null (property)', () => {
    fc.assert(
      fc.property(contentArb, fc.array(editStepArb, { minLength: 1, maxLength: 4 }), (before, steps) => {
        const after = statesAlong(before, steps).pop()!;
        const deltas = deltasBetween(before, after);
        const byHand = steps.some((s) => s.kind === 'fillers');
        // one word edit is always expressible
        if (steps.length === 1 && !byHand) expect(deltas).not.toBeNull();
        if (deltas) expect(essence(applyWordDeltas(before, deltas))).toEqual(essence(after));
      }),
      { numRuns: 300 },
    );
  });
});

describe('replaceRunDeltas', () => {
  it('changes only the texts that differ when the word count is the same', () => {
    expect(replaceRunDeltas(base.words, 0, 2, 'Hello there, friend!')).toEqual([
      { word_order: 1, changes: { text: 'there,', confidence: 1 } },
      { word_order: 2, changes: { text: 'friend!', confidence: 1 } },
    ]);
    expect(replaceRunDeltas(base.words, 1, 1, '  there  ')).toEqual([]);
  });

  it('spreads more tokens over the span by character length and inserts the extra ones', () => {
    // word 1 spans 0.5..0.9; 'a' (1 char) and 'bbb' (3 chars)
    const deltas = replaceRunDeltas(base.words, 1, 1, 'a bbb');
    expect(deltas).toEqual([
      { word_order: 1, changes: { text: 'a', start: 0.5, end: 0.6, confidence: 1 } },
      { word_order: 1, insertAfter: [{ text: 'bbb', start: 0.6, end: 0.9, confidence: 1 }] },
    ]);
    const out = applyEdit(base, deltas);
    expect(texts(out)).toEqual(['Hello', 'a', 'bbb', 'friend.', 'How', 'are', 'you']);
    expect(out.paragraphs.map((p) => p.wordIndices)).toEqual([[0, 1, 2, 3], [4, 5, 6]]);
  });

  it('reuses words in order and deletes the surplus when there are fewer tokens', () => {
    // words 3..5 span 1.5..2.9; 'Howdy' takes all of it
    expect(replaceRunDeltas(base.words, 3, 5, 'Howdy')).toEqual([
      { word_order: 3, changes: { text: 'Howdy', start: 1.5, end: 2.9, confidence: 1 } },
      { word_order: 4, delete: true },
      { word_order: 5, delete: true },
    ]);
  });

  it('rounds boundaries to the millisecond and ends exactly at the span end', () => {
    // span 0..1.4 of three words shared equally by six one-letter tokens
    const out = applyEdit(base, replaceRunDeltas(base.words, 0, 2, 'a b c d e f'));
    expect(out.words.slice(0, 6).map((w) => [w.text, w.start, w.end])).toEqual([
      ['a', 0, 0.233],
      ['b', 0.233, 0.467],
      ['c', 0.467, 0.7],
      ['d', 0.7, 0.933],
      ['e', 0.933, 1.167],
      ['f', 1.167, 1.4],
    ]);
  });

  it('deletes the run when no tokens are left', () => {
    expect(replaceRunDeltas(base.words, 4, 5, '   ')).toEqual([
      { word_order: 4, delete: true },
      { word_order: 5, delete: true },
    ]);
  });

  it('throws a RangeError for a run that does not exist', () => {
    expect(() => replaceRunDeltas(base.words, 2, 1, 'x')).toThrow(RangeError);
    expect(() => replaceRunDeltas(base.words, 4, 6, 'x')).toThrow(RangeError);
    expect(() => replaceRunDeltas(base.words, -1, 0, 'x')).toThrow(RangeError);
  });

  it('puts the tokens in place, contiguous over the span (property)', () => {
    const token = fc.stringMatching(/^[a-z,.!]{1,8}$/);
    fc.assert(
      fc.property(
        contentArb.filter((c) => c.words.length > 0),
        fc.nat(),
        fc.nat(),
        fc.array(token, { maxLength: 6 }),
        (c, a, b, tokens) => {
          const n = c.words.length;
          const first = Math.min(a % n, b % n);
          const last = Math.max(a % n, b % n);
          const out = applyEdit(c, replaceRunDeltas(c.words, first, last, tokens.join(' ')));
          expect(texts(out)).toEqual([...texts(c).slice(0, first), ...tokens, ...texts(c).slice(last + 1)]);
          if (tokens.length === last - first + 1) return;
          const placed = out.words.slice(first, first + tokens.length);
          placed.forEach((w, k) => {
            expect(w.confidence).toBe(1);
            expect(w.end).toBeGreaterThanOrEqual(w.start);
            if (k > 0) expect(w.start).toBe(placed[k - 1]!.end);
          });
          if (placed.length > 0) {
            expect(placed[0]!.start).toBe(c.words[first]!.start);
            expect(placed[placed.length - 1]!.end).toBe(c.words[last]!.end);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('deleteWordsDeltas', () => {
  it('deletes each word once, in ascending order', () => {
    expect(deleteWordsDeltas([4, 1, 4], base.words)).toEqual([
      { word_order: 1, delete: true },
      { word_order: 4, delete: true },
    ]);
    expect(texts(applyEdit(base, deleteWordsDeltas([4, 1], base.words)))).toEqual(['Hello', 'friend.', 'How', 'you']);
    expect(deleteWordsDeltas([], base.words)).toEqual([]);
  });

  it('throws a RangeError for an index with no word', () => {
    expect(() => deleteWordsDeltas([6], base.words)).toThrow(RangeError);
  });
});

describe('pasteDeltas', () => {
  it('inserts the clipboard words after a word, at its end, with confidence 0.9', () => {
    const deltas = pasteDeltas(base.words, 2, ' big\n wide ')!;
    const inserted = { start: 1.4, end: 1.4, confidence: INSERTED_WORD_CONFIDENCE };
    expect(deltas).toEqual([{ word_order: 2, insertAfter: [{ text: 'big', ...inserted }, { text: 'wide', ...inserted }] }]);
    const out = applyEdit(base, deltas);
    expect(texts(out)).toEqual(['Hello', 'there', 'friend.', 'big', 'wide', 'How', 'are', 'you']);
    expect(out.paragraphs.map((p) => p.wordIndices)).toEqual([[0, 1, 2, 3, 4], [5, 6, 7]]);
  });

  it('inserts first at time 0 for afterIndex -1 and into an empty transcript', () => {
    expect(pasteDeltas(base.words, -1, 'Well,')).toEqual([
      { word_order: -1, insertAfter: [{ text: 'Well,', start: 0, end: 0, confidence: 0.9 }] },
    ]);
    const empty = pasteDeltas([], 0, 'first words')!;
    expect(empty).toEqual([
      {
        word_order: -1,
        insertAfter: [
          { text: 'first', start: 0, end: 0, confidence: 0.9 },
          { text: 'words', start: 0, end: 0, confidence: 0.9 },
        ],
      },
    ]);
    expect(texts(applyEdit({ words: [], paragraphs: [], fillerWords: [] }, empty))).toEqual(['first', 'words']);
  });

  it('ignores an empty or blank clipboard', () => {
    expect(pasteDeltas(base.words, 1, '')).toBeNull();
    expect(pasteDeltas(base.words, 1, ' \n\t ')).toBeNull();
  });

  it('throws a RangeError when there is no word to paste after', () => {
    expect(() => pasteDeltas(base.words, 6, 'x')).toThrow(RangeError);
    expect(() => pasteDeltas(base.words, -2, 'x')).toThrow(RangeError);
  });
});

describe('applyEdit', () => {
  it('is the server function: same result, same errors', () => {
    const deltas = [{ word_order: 0, delete: true as const }];
    expect(applyEdit(base, deltas)).toEqual(applyWordDeltas(base, deltas));
    expect(() => applyEdit(base, [{ word_order: 9, delete: true }])).toThrow(TranscriptEditError);
  });

  it('recomputes fillers like the server', () => {
    const out = applyEdit(base, [{ word_order: 1, changes: { text: 'um' } }]);
    expect(out.fillerWords).toEqual([1]);
  });
});
