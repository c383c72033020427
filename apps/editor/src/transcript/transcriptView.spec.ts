import { RTL_LANGUAGES } from '@wordcut/contracts';
import type { Word } from '@wordcut/contracts';
import {
  RTL_PRIMARY_SUBTAGS,
  confidenceLevel,
  isRtlLanguage,
  nextWordIndex,
  paragraphRows,
  primarySubtag,
  rowOfWord,
  textDirection,
  wordAtTime,
} from './transcriptView';

const w = (text: string, start: number, end: number, group = 0, confidence = 0.9): Word => ({
  text,
  start,
  end,
  confidence,
  group_number: group,
  word_order: 0,
});

describe('right-to-left languages', () => {
  it('matches the contracts list', () => {
    expect([...RTL_PRIMARY_SUBTAGS].sort()).toEqual([...RTL_LANGUAGES].sort());
  });

  it('reads the primary subtag, in any case and with either separator', () => {
    expect(primarySubtag('ar-EG')).toBe('ar');
    expect(primarySubtag('HE_il')).toBe('he');
    expect(primarySubtag(undefined)).toBe('');
    for (const code of ['ar', 'fa-IR', 'he', 'ur-PK', 'dv', 'ku', 'ps', 'sd', 'ae', 'AR-sa']) expect(isRtlLanguage(code)).toBe(true);
    for (const code of ['en', 'en-US', 'fr', 'arn', 'hebrew', '', null]) expect(isRtlLanguage(code)).toBe(false);
    expect(textDirection('fa')).toBe('rtl');
    expect(textDirection('de-CH')).toBe('ltr');
  });
});

it('colours confidence: >= 0.8 good, >= 0.5 medium, else low', () => {
  expect([1, 0.8, 0.79, 0.5, 0.49, 0].map((c) => confidenceLevel(c))).toEqual(['good', 'good', 'medium', 'medium', 'low', 'low']);
});

describe('paragraphRows', () => {
  const words = [w('a', 0, 1, 0), w('b', 1, 2, 0), w('c', 3, 4, 1), w('d', 4, 5, 1), w('e', 6, 7, 3)];

  it("uses the transcript's paragraphs, dropping out-of-range indices and empty paragraphs", () => {
    const rows = paragraphRows({
      words,
      paragraphs: [
        { start: 0, end: 2, wordIndices: [0, 1] },
        { start: 9, end: 9, wordIndices: [42] },
        { start: 3, end: 7, wordIndices: [2, 3, 4, 99] },
      ],
    });
    expect(rows).toEqual([
      { index: 0, start: 0, end: 2, wordIndices: [0, 1] },
      { index: 1, start: 3, end: 7, wordIndices: [2, 3, 4] },
    ]);
  });

  it('groups words by group_number when there are no paragraphs', () => {
    const rows = paragraphRows({ words, paragraphs: [] });
    expect(rows.map((r) => r.wordIndices)).toEqual([[0, 1], [2, 3], [4]]);
    expect(rows.map((r) => [r.start, r.end])).toEqual([[0, 2], [3, 5], [6, 7]]);
    expect(Array.from(rowOfWord(rows, words.length))).toEqual([0, 0, 1, 1, 2]);
  });
});

describe('wordAtTime', () => {
  const words = [w('a', 0.5, 1), w('b', 1, 1.5), w('c', 2, 3)];
  it('finds the word being spoken, none in gaps or outside', () => {
    expect(wordAtTime(words, 0.2)).toBe(-1);
    expect(wordAtTime(words, 0.5)).toBe(0);
    expect(wordAtTime(words, 0.99)).toBe(0);
    expect(wordAtTime(words, 1)).toBe(1);
    expect(wordAtTime(words, 1.7)).toBe(-1);
    expect(wordAtTime(words, 2.5)).toBe(2);
    expect(wordAtTime(words, 3)).toBe(-1);
    expect(wordAtTime([], 1)).toBe(-1);
    expect(wordAtTime(words, Number.NaN)).toBe(-1);
  });
});

describe('nextWordIndex', () => {
  const words = [w('a', 0, 1, 0), w('b', 1, 2, 0), w('c', 3, 4, 1), w('d', 4, 5, 2), w('e', 5, 6, 2)];
  const rows = paragraphRows({ words, paragraphs: [] });
  const rowOf = rowOfWord(rows, words.length);

  it('moves by word with the arrows, by paragraph up and down, to the ends with Home/End', () => {
    expect(nextWordIndex('ArrowRight', 1, rows, rowOf, false)).toBe(2);
    expect(nextWordIndex('ArrowLeft', 2, rows, rowOf, false)).toBe(1);
    expect(nextWordIndex('ArrowLeft', 0, rows, rowOf, false)).toBe(0);
    expect(nextWordIndex('ArrowRight', 4, rows, rowOf, false)).toBe(4);
    expect(nextWordIndex('ArrowDown', 1, rows, rowOf, false)).toBe(2);
    expect(nextWordIndex('ArrowDown', 4, rows, rowOf, false)).toBe(3);
    expect(nextWordIndex('ArrowUp', 3, rows, rowOf, false)).toBe(2);
    expect(nextWordIndex('ArrowUp', 1, rows, rowOf, false)).toBe(0);
    expect(nextWordIndex('Home', 3, rows, rowOf, false)).toBe(0);
    expect(nextWordIndex('End', 0, rows, rowOf, false)).toBe(4);
    expect(nextWordIndex('x', 0, rows, rowOf, false)).toBeNull();
  });

  it('swaps left and right in right-to-left text', () => {
    expect(nextWordIndex('ArrowLeft', 1, rows, rowOf, true)).toBe(2);
    expect(nextWordIndex('ArrowRight', 2, rows, rowOf, true)).toBe(1);
  });
});
