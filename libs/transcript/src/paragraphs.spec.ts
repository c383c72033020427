import type { Word } from '@wordcut/contracts';
import {
  PARAGRAPH_MAX_WORDS,
  PARAGRAPH_PAUSE_SECONDS,
  PARAGRAPH_TARGET_WORDS,
  SENTENCE_PAUSE_SECONDS,
  attachParagraphs,
  buildParagraphs,
  isSentenceEnd,
  renumber,
} from './index';

/** Words read from "text" separated by spaces, 0.3 s each, back to back, with extra pauses before given positions. */
function words(text: string, pauses: Record<number, number> = {}): Word[] {
  let t = 0;
  return text.split(' ').map((w, i) => {
    t += pauses[i] ?? 0;
    const word = { text: w, start: ms(t), end: ms(t + 0.3), confidence: 1, group_number: 0, word_order: i };
    t = ms(t + 0.3);
    return word;
  });
}
const ms = (seconds: number) => Math.round(seconds * 1000) / 1000;
const sizes = (ws: Word[]) => buildParagraphs(ws).map((p) => p.wordIndices.length);

describe('paragraph constants', () => {
  it('are the documented, sane values', () => {
    expect([PARAGRAPH_PAUSE_SECONDS, SENTENCE_PAUSE_SECONDS, PARAGRAPH_TARGET_WORDS, PARAGRAPH_MAX_WORDS]).toEqual([1.5, 0.7, 25, 120]);
  });
});

describe('buildParagraphs', () => {
  it('returns nothing for no words', () => {
    expect(buildParagraphs([])).toEqual([]);
  });

  it('starts a new paragraph after a pause of 1.5 s, even mid-sentence, not after 1.49 s', () => {
    expect(sizes(words('one two three four', { 2: 1.5 }))).toEqual([2, 2]);
    expect(sizes(words('one two three four', { 2: 1.49 }))).toEqual([4]);
  });

  it('starts one after a sentence end followed by a pause of 0.7 s, not 0.69 s, nor 0.7 s without a sentence end', () => {
    expect(sizes(words('It works. Then more', { 2: 0.7 }))).toEqual([2, 2]);
    expect(sizes(words('It works. Then more', { 2: 0.69 }))).toEqual([4]);
    expect(sizes(words('It works then more', { 2: 0.7 }))).toEqual([4]);
  });

  it('starts one after a sentence end once the paragraph has 25 words, not 24', () => {
    const sentence = (n: number) => [...Array.from({ length: n - 1 }, () => 'word'), 'end.'].join(' ');
    expect(sizes(words(`${sentence(25)} next words`))).toEqual([25, 2]);
    expect(sizes(words(`${sentence(24)} next words`))).toEqual([26]);
  });

  it('never lets a paragraph exceed 120 words', () => {
    const long = Array.from({ length: 300 }, () => 'and').join(' ');
    expect(sizes(words(long))).toEqual([120, 120, 60]);
  });

  it('sets start/end from the words and groupNumber from the position', () => {
    const ws = words('Hi there. Bye now', { 2: 2 });
    expect(buildParagraphs(ws)).toEqual([
      { start: 0, end: 0.6, wordIndices: [0, 1], groupNumber: 0 },
      { start: 2.6, end: 3.2, wordIndices: [2, 3], groupNumber: 1 },
    ]);
  });
});

describe('isSentenceEnd', () => {
  it('knows Latin and CJK sentence ends, closing quotes, and common abbreviations', () => {
    for (const w of ['done.', 'really?', 'wow!', 'so…', 'end."', 'this).', '好。', '吗？', '対！', 'wait?!']) expect(isSentenceEnd(w)).toBe(true);
    for (const w of ['Mr.', 'Dr.', 'e.g.', 'vs.', 'comma,', 'colon:', '3.5', 'word', '']) expect(isSentenceEnd(w)).toBe(false);
  });
});

describe('attachParagraphs and renumber', () => {
  it('renumbers words and paragraphs, drops empty paragraphs, recomputes times', () => {
    const ws = words('a b c d').map((w) => ({ ...w, word_order: 7, group_number: 9 }));
    const out = attachParagraphs(ws, [{ wordIndices: [] }, { wordIndices: [1, 0] }, { wordIndices: [2, 3] }]);
    expect(out.words.map((w) => [w.word_order, w.group_number])).toEqual([
      [0, 0],
      [1, 0],
      [2, 1],
      [3, 1],
    ]);
    expect(out.paragraphs).toEqual([
      { start: 0, end: 0.6, wordIndices: [0, 1], groupNumber: 0 },
      { start: 0.6, end: 1.2, wordIndices: [2, 3], groupNumber: 1 },
    ]);
  });

  it('renumber sets word_order only', () => {
    const ws = words('a b').map((w) => ({ ...w, word_order: 5, group_number: 3 }));
    expect(renumber(ws).map((w) => [w.word_order, w.group_number])).toEqual([
      [0, 3],
      [1, 3],
    ]);
  });
});
