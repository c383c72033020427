import fc from 'fast-check';
import type { Paragraph, Word, WordDelta } from '@wordcut/contracts';
import { thrownBy } from '../../../tools/testing/thrown';
import {
  INSERTED_WORD_CONFIDENCE,
  TranscriptEditError,
  applyWordDeltas,
  buildTranscriptFromWordByWord,
  findInconsistencies,
  normalizeReplacement,
  type TranscriptEditErrorCode,
} from './index';

/** A transcript of two paragraphs: "Hello there friend." | "How are you" (pause between). */
function sample() {
  return buildTranscriptFromWordByWord({
    words: [
      { text: 'Hello', start: 0, end: 0.5 },
      { text: 'there', start: 0.5, end: 1 },
      { text: 'friend.', start: 1, end: 1.6 },
      { text: 'How', start: 4, end: 4.6 },
      { text: 'are', start: 4.6, end: 5.2 },
      { text: 'you', start: 5.2, end: 5.8 },
    ],
  });
}
const texts = (t: { words: Word[] }) => t.words.map((w) => w.text).join(' ');
const paragraphTexts = (t: { words: Word[]; paragraphs: Paragraph[] }) =>
  t.paragraphs.map((p) => p.wordIndices.map((i) => t.words[i]!.text).join(' '));

const editError = (fn: () => unknown): TranscriptEditError => thrownBy(fn, TranscriptEditError);

describe('applyWordDeltas', () => {
  it('starts from a two-paragraph sample', () => {
    expect(paragraphTexts(sample())).toEqual(['Hello there friend.', 'How are you']);
  });

  it('changes text, times and confidence, keeping the paragraph, and recomputes fillers', () => {
    const out = applyWordDeltas(sample(), [{ word_order: 1, changes: { text: 'um', start: 0.6, end: 0.9, confidence: 0.5 } }]);
    expect(out.words[1]).toEqual({ text: 'um', start: 0.6, end: 0.9, confidence: 0.5, group_number: 0, word_order: 1 });
    expect(out.fillerWords).toEqual([1]);
    expect(findInconsistencies(out)).toEqual([]);
  });

  it('deletes words, renumbers, and recomputes paragraph times', () => {
    const out = applyWordDeltas(sample(), [{ word_order: 0, delete: true }, { word_order: 5, delete: true }]);
    expect(texts(out)).toBe('there friend. How are');
    expect(out.words.map((w) => w.word_order)).toEqual([0, 1, 2, 3]);
    expect(out.paragraphs).toEqual([
      { start: 0.5, end: 1.6, wordIndices: [0, 1], groupNumber: 0 },
      { start: 4, end: 5.2, wordIndices: [2, 3], groupNumber: 1 },
    ]);
  });

  it('drops a paragraph whose words are all deleted and renumbers the rest', () => {
    const out = applyWordDeltas(sample(), [0, 1, 2].map((word_order) => ({ word_order, delete: true as const })));
    expect(paragraphTexts(out)).toEqual(['How are you']);
    expect(out.words.map((w) => w.group_number)).toEqual([0, 0, 0]);
    expect(out.paragraphs[0]!.groupNumber).toBe(0);
  });

  it('inserts after a word into its paragraph, first with -1, and after the last word', () => {
    const out = applyWordDeltas(sample(), [
      { word_order: 2, insertAfter: [{ text: 'Well,', start: 1.6, end: 2, confidence: 1 }] },
      { word_order: -1, insertAfter: [{ text: 'So', start: 0, end: 0.1, confidence: 1 }] },
      { word_order: 5, insertAfter: [{ text: 'today?', start: 5.8, end: 6.2, confidence: 1 }] },
    ]);
    expect(paragraphTexts(out)).toEqual(['So Hello there friend. Well,', 'How are you today?']);
    expect(out.paragraphs.map((p) => [p.start, p.end])).toEqual([
      [0, 2],
      [4, 6.2],
    ]);
    expect(findInconsistencies(out)).toEqual([]);
  });

  it('keeps the order of several inserts after the same word, and gives them confidence 0.9 by default', () => {
    const out = applyWordDeltas(sample(), [
      { word_order: 0, insertAfter: [{ text: 'a', start: 0.5, end: 0.5 } as never] },
      { word_order: 0, insertAfter: [{ text: 'b', start: 0.5, end: 0.5, confidence: 1 }, { text: 'c', start: 0.5, end: 0.5, confidence: 1 }] },
    ]);
    expect(texts(out)).toBe('Hello a b c there friend. How are you');
    expect(out.words[1]!.confidence).toBe(INSERTED_WORD_CONFIDENCE);
  });

  it('addresses words by their word_order in the input, whatever earlier deltas did', () => {
    const out = applyWordDeltas(sample(), [
      { word_order: 0, delete: true },
      { word_order: 1, changes: { text: 'Hi' } },
      { word_order: 1, insertAfter: [{ text: 'dear', start: 1, end: 1, confidence: 0.9 }] },
    ]);
    expect(texts(out)).toBe('Hi dear friend. How are you');
  });

  it('lets new words take the place of a deleted word', () => {
    const out = applyWordDeltas(sample(), [
      { word_order: 3, delete: true },
      { word_order: 3, insertAfter: [{ text: 'Who', start: 4, end: 4.6, confidence: 0.9 }] },
    ]);
    expect(paragraphTexts(out)).toEqual(['Hello there friend.', 'Who are you']);
  });

  it('leaves the input untouched', () => {
    const input = sample();
    const copy = JSON.parse(JSON.stringify(input));
    applyWordDeltas(input, [{ word_order: 0, delete: true }, { word_order: 1, changes: { text: 'x' } }]);
    expect(input).toEqual(copy);
  });

  it('builds paragraphs for a transcript that has none, including an empty one', () => {
    const empty = applyWordDeltas({ words: [], paragraphs: [] }, [
      { word_order: -1, insertAfter: [{ text: 'First', start: 0, end: 0.4, confidence: 0.9 }, { text: 'words.', start: 0.4, end: 0.8, confidence: 0.9 }] },
    ]);
    expect(paragraphTexts(empty)).toEqual(['First words.']);
    expect(findInconsistencies(empty)).toEqual([]);
  });

  it('finds words by word_order even when the stored numbering is not 0..n-1', () => {
    const t = sample();
    const words = t.words.map((w) => ({ ...w, word_order: w.word_order * 10 }));
    const out = applyWordDeltas({ words, paragraphs: t.paragraphs }, [{ word_order: 20, delete: true }]);
    expect(texts(out)).toBe('Hello there How are you');
    expect(editError(() => applyWordDeltas({ words, paragraphs: t.paragraphs }, [{ word_order: 2, delete: true }])).code).toBe('UNKNOWN_WORD');
  });

  describe('errors', () => {
    const cases: Array<[string, WordDelta[], TranscriptEditErrorCode, RegExp]> = [
      ['change of a word that does not exist', [{ word_order: 6, changes: { text: 'x' } }], 'UNKNOWN_WORD', /^delta 1: there is no word with word_order 6 \(word_order goes from 0 to 5\)\.$/],
      ['delete of a word that does not exist', [{ word_order: 99, delete: true }], 'UNKNOWN_WORD', /word_order 99/],
      ['insert after a word that does not exist', [{ word_order: 6, insertAfter: [{ text: 'x', start: 0, end: 1, confidence: 1 }] }], 'UNKNOWN_WORD', /word_order 6/],
      ['change with -1', [{ word_order: -1, changes: { text: 'x' } } as never], 'UNKNOWN_WORD', /word_order -1/],
      ['change making end < start', [{ word_order: 2, changes: { end: 0.5 } }], 'INVALID_TIMING', /^delta 1 \(word 2\) \('friend\.'\): it ends \(0\.5 s\) before it starts \(1 s\)\.$/],
      ['change of start past the end', [{ word_order: 0, changes: { start: 3 } }], 'INVALID_TIMING', /ends \(0\.5 s\) before it starts \(3 s\)/],
      ['insert with end < start', [{ word_order: 0, insertAfter: [{ text: 'x', start: 2, end: 1, confidence: 1 }] }], 'INVALID_TIMING', /^delta 1, new word 1 \('x'\)/],
      ['insert with a negative time', [{ word_order: 0, insertAfter: [{ text: 'x', start: -1, end: 1, confidence: 1 }] }], 'INVALID_TIMING', /finite numbers of seconds >= 0/],
      ['change with blank text', [{ word_order: 0, changes: { text: '  ' } }], 'INVALID_WORD', /the word text is empty/],
      ['delete twice', [{ word_order: 1, delete: true }, { word_order: 1, delete: true }], 'CONFLICTING_DELTAS', /^delta 2: word 1 \('there'\) is already deleted by delta 1/],
      ['change then delete', [{ word_order: 1, changes: { text: 'x' } }, { word_order: 1, delete: true }], 'CONFLICTING_DELTAS', /already changed by delta 1/],
      ['change twice', [{ word_order: 4, changes: { text: 'x' } }, { word_order: 0, delete: true }, { word_order: 4, changes: { text: 'y' } }], 'CONFLICTING_DELTAS', /^delta 3: word 4/],
    ];
    it.each(cases)('%s', (_name, deltas, code, message) => {
      const error = editError(() => applyWordDeltas(sample(), deltas));
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
    });
  });
});

describe('applyWordDeltas: properties', () => {
  const wordArb = fc.record({
    text: fc.constantFrom('um', 'the', 'like', 'so', 'I', 'mean', 'hello', 'world.', 'kind', 'of', 'yes!'),
    start: fc.integer({ min: 0, max: 600_000 }).map((ms) => ms / 1000),
    length: fc.integer({ min: 0, max: 2000 }).map((ms) => ms / 1000),
    confidence: fc.constantFrom(0.5, 0.79, 0.9, 1),
  });
  const transcriptArb = fc.array(wordArb, { minLength: 0, maxLength: 80 }).map((ws) =>
    ws.length === 0
      ? { words: [] as Word[], paragraphs: [] as Paragraph[] }
      : buildTranscriptFromWordByWord({ words: ws.map((w) => ({ text: w.text, start: w.start, end: w.start + w.length, confidence: w.confidence })) }),
  );
  /** Deltas against a transcript of n words; `valid` keeps one change/delete per word and in-range orders. */
  const deltasArb = (n: number, valid: boolean): fc.Arbitrary<WordDelta[]> => {
    const order = valid ? fc.integer({ min: 0, max: Math.max(0, n - 1) }) : fc.integer({ min: -2, max: n + 1 });
    const newWords = fc.array(wordArb.map((w) => ({ text: w.text, start: w.start, end: w.start + w.length, confidence: w.confidence })), { minLength: 1, maxLength: 3 });
    const delta: fc.Arbitrary<WordDelta> = fc.oneof(
      fc.record({ word_order: order, delete: fc.constant(true as const) }),
      fc.record({ word_order: order, changes: fc.record({ text: fc.constantFrom('um', 'so', 'changed') }, { requiredKeys: [] }) }),
      fc.record({ word_order: valid ? fc.integer({ min: -1, max: n - 1 }) : order, insertAfter: newWords }),
    );
    return fc.array(delta, { maxLength: 12 }).map((ds) => {
      if (!valid) return ds;
      const used = new Set<number>();
      return ds.filter((d) => {
        if ('insertAfter' in d) return true;
        if (n === 0 || used.has(d.word_order)) return false;
        used.add(d.word_order);
        return true;
      });
    });
  };

  /** A straightforward model: the words the result must hold, in order. */
  function model(words: Word[], deltas: WordDelta[]): string[] {
    const slots = words.map((w) => ({ text: w.text as string | null, after: [] as string[] }));
    const first: string[] = [];
    for (const d of deltas) {
      if ('insertAfter' in d) (d.word_order === -1 ? first : slots[d.word_order]!.after).push(...d.insertAfter.map((w) => w.text));
      else if ('delete' in d) slots[d.word_order]!.text = null;
      else if (d.changes.text !== undefined) slots[d.word_order]!.text = d.changes.text;
    }
    return [...first, ...slots.flatMap((s) => [...(s.text === null ? [] : [s.text]), ...s.after])];
  }

  it('valid delta sequences give the modelled words and a consistent transcript', () => {
    fc.assert(
      fc.property(
        transcriptArb.chain((t) => fc.tuple(fc.constant(t), deltasArb(t.words.length, true))),
        ([t, deltas]) => {
          const out = applyWordDeltas(t, deltas);
          expect(out.words.map((w) => w.text)).toEqual(model(t.words, deltas));
          expect(findInconsistencies(out)).toEqual([]);
          // paragraphs are kept, never split or merged (a transcript without any gets them built)
          if (t.paragraphs.length > 0) expect(out.paragraphs.length).toBeLessThanOrEqual(t.paragraphs.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('arbitrary delta sequences either apply consistently or throw a TranscriptEditError', () => {
    fc.assert(
      fc.property(
        transcriptArb.chain((t) => fc.tuple(fc.constant(t), deltasArb(t.words.length, false))),
        ([t, deltas]) => {
          let out;
          try {
            out = applyWordDeltas(t, deltas);
          } catch (e) {
            expect(e).toBeInstanceOf(TranscriptEditError);
            return;
          }
          expect(findInconsistencies(out)).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('normalizeReplacement', () => {
  const words = (...texts: string[]): Word[] =>
    texts.map((text, i) => ({ text, start: i, end: i + 0.6, confidence: 1, group_number: 42, word_order: 100 + i }));

  it('renumbers the words, builds paragraphs and detects fillers when they are absent', () => {
    const out = normalizeReplacement({ words: words('Um', 'hello', 'there.') });
    expect(out.words.map((w) => [w.word_order, w.group_number])).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
    ]);
    expect(out.paragraphs).toEqual([{ start: 0, end: 2.6, wordIndices: [0, 1, 2], groupNumber: 0 }]);
    expect(out.fillerWords).toEqual([0]);
    expect(findInconsistencies(out)).toEqual([]);
  });

  it('keeps given paragraphs (renumbered, times recomputed, empty ones dropped) and given fillers', () => {
    const out = normalizeReplacement({
      words: words('a', 'b', 'c'),
      paragraphs: [
        { start: 9, end: 9, wordIndices: [1, 0], groupNumber: 7 },
        { start: 0, end: 0, wordIndices: [] },
        { start: 0, end: 0, wordIndices: [2] },
      ],
      fillerWords: [2, 0, 2],
    });
    expect(out.paragraphs).toEqual([
      { start: 0, end: 1.6, wordIndices: [0, 1], groupNumber: 0 },
      { start: 2, end: 2.6, wordIndices: [2], groupNumber: 1 },
    ]);
    expect(out.words.map((w) => w.group_number)).toEqual([0, 0, 1]);
    expect(out.fillerWords).toEqual([0, 2]);
    expect(findInconsistencies(out, 'any')).toEqual([]);
  });

  it('treats an empty paragraph list as absent', () => {
    expect(normalizeReplacement({ words: words('a', 'b'), paragraphs: [] }).paragraphs).toHaveLength(1);
  });

  it('accepts an empty transcript', () => {
    expect(normalizeReplacement({ words: [] })).toEqual({ words: [], paragraphs: [], fillerWords: [] });
  });

  it('rejects invalid content with a clear error', () => {
    const bad = (input: Parameters<typeof normalizeReplacement>[0]) => editError(() => normalizeReplacement(input));
    const backwards = words('a', 'b');
    backwards[1] = { ...backwards[1]!, start: 5, end: 4 };
    expect(bad({ words: backwards })).toMatchObject({ code: 'INVALID_TIMING', message: "word 1 ('b'): it ends (4 s) before it starts (5 s)." });
    expect(bad({ words: [{ ...words('a')[0]!, start: Number.NaN }] }).code).toBe('INVALID_TIMING');
    expect(bad({ words: words('a', ' ') })).toMatchObject({ code: 'INVALID_WORD', message: 'word 1: the word text is empty.' });
    expect(bad({ words: [{ ...words('a')[0]!, confidence: 2 }] }).code).toBe('INVALID_WORD');
    const p = (wordIndices: number[]): Paragraph => ({ start: 0, end: 0, wordIndices });
    expect(bad({ words: words('a', 'b'), paragraphs: [p([0, 1, 2])] })).toMatchObject({ code: 'UNKNOWN_WORD', message: 'paragraph 0: word index 2 does not exist (the transcript has 2 words).' });
    expect(bad({ words: words('a', 'b'), paragraphs: [p([0, 1]), p([1])] })).toMatchObject({ code: 'INVALID_PARAGRAPHS', message: "word 1 ('b') is in paragraph 0 and in paragraph 1; a word belongs to exactly one paragraph." });
    expect(bad({ words: words('a', 'b'), paragraphs: [p([1])] })).toMatchObject({ code: 'INVALID_PARAGRAPHS', message: "word 0 ('a') is in no paragraph; every word belongs to exactly one paragraph." });
    expect(bad({ words: words('a'), fillerWords: [1] })).toMatchObject({ code: 'UNKNOWN_WORD', message: 'fillerWords: word index 1 does not exist (the transcript has 1 words).' });
    expect(bad({ words: words('a'), fillerWords: [0.5] }).code).toBe('UNKNOWN_WORD');
  });
});
