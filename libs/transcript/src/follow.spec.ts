import type { Word } from '@wordcut/contracts';
import { clampWords, transcriptForVersion } from './follow';

const word = (text: string, start: number, end: number, group: number, order: number): Word =>
  ({ text, start, end, confidence: 1, group_number: group, word_order: order }) as Word;

describe('clampWords', () => {
  it('holds words inside the media and never lets one end before it starts', () => {
    expect(clampWords([{ start: -1, end: 0.5 }, { start: 9, end: 12 }, { start: 11, end: 13 }], 10)).toEqual([
      { start: 0, end: 0.5 },
      { start: 9, end: 10 },
      { start: 10, end: 10 },
    ]);
  });
});

describe('transcriptForVersion', () => {
  it('renumbers words and paragraphs in play order, rounds times to the millisecond and finds fillers again', () => {
    const kept = [word('Second', 0.00049, 0.4004, 5, 7), word('part.', 0.5, 0.9, 5, 8), word('um', 1.0, 1.2, 2, 1), word('First', 1.3, 1.7, 2, 2)];
    const t = transcriptForVersion(kept);
    expect(t.words.map((w) => [w.text, w.start, w.end, w.word_order, w.group_number])).toEqual([
      ['Second', 0, 0.4, 0, 0],
      ['part.', 0.5, 0.9, 1, 0],
      ['um', 1, 1.2, 2, 1],
      ['First', 1.3, 1.7, 3, 1],
    ]);
    expect(t.paragraphs.map((p) => p.wordIndices)).toEqual([[0, 1], [2, 3]]);
    expect(t.fillerWords).toEqual([2]);
  });

  it('keeps an empty transcript empty', () => {
    expect(transcriptForVersion([])).toEqual({ words: [], paragraphs: [], fillerWords: [] });
  });
});
