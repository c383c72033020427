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
    const t = transcriptForVersion(kept, kept.map((w, index) => ({ index, word: w })));
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
    expect(transcriptForVersion([], [])).toEqual({ words: [], paragraphs: [], fillerWords: [] });
  });

  /** The words of `text` (one paragraph per sentence, a word every 0.5 s) and the ones kept without those at `removed`. */
  function edit(text: string, removed: readonly number[]) {
    let group = 0;
    const before = text.split(' ').map((t, i) => {
      const w = word(t, i * 0.5, i * 0.5 + 0.4, group, i);
      if (/[.!?]$/.test(t)) group++;
      return w;
    });
    const kept = before.flatMap((w, index) => (removed.includes(index) ? [] : [{ index, word: { ...w, start: w.start + 10, end: w.end + 10 } }]));
    return { before, kept };
  }

  it('tidies the text around removed words: capitals, commas, sentence ends; times and count untouched', () => {
    const { before, kept } = edit('Hi, and welcome to WordCut. Um, today I will show you. You can also, um, remove them. Thanks, and, uh, happy editing uh.', [5, 14, 19, 22]);
    const t = transcriptForVersion(before, kept);
    expect(t.words.map((w) => w.text).join(' ')).toBe('Hi, and welcome to WordCut. Today I will show you. You can also remove them. Thanks, and happy editing.');
    expect(t.words.map((w) => [w.start, w.end])).toEqual(kept.map(({ word: w }) => [w.start, w.end]));
    expect(t.paragraphs.map((p) => p.wordIndices.length)).toEqual([5, 5, 5, 4]);
  });

  it('leaves the text as it was when no word is removed (a reorder)', () => {
    const { before, kept } = edit('First part, here. Second part there.', []);
    const t = transcriptForVersion(before, [...kept.slice(3), ...kept.slice(0, 3)]);
    expect(t.words.map((w) => w.text)).toEqual(['Second', 'part', 'there.', 'First', 'part,', 'here.']);
  });
});
