import type { Word } from '@wordcut/contracts';
import { tidyKeptWords, type KeptWord } from './tidy';

/** Words of `text`, one every 0.5 s (0.4 s long, sure: no discourse marker is a filler by itself). */
const wordsOf = (text: string): Word[] =>
  text.split(' ').map((t, i) => ({ text: t, start: i * 0.5, end: i * 0.5 + 0.4, confidence: 1, group_number: 0, word_order: i }));

/** Keeps every word but those at `removed`, in the original order unless `order` says otherwise. */
function keep(before: readonly Word[], removed: readonly number[], order?: readonly number[]): KeptWord<Word>[] {
  const kept = before.flatMap((word, index) => (removed.includes(index) ? [] : [{ index, word }]));
  return order ? order.map((i) => kept.find((k) => k.index === i)!) : kept;
}

/** The text after removing the words at `removed` (positions in `text`'s words). */
function tidied(text: string, removed: readonly number[]): string {
  const before = wordsOf(text);
  return tidyKeptWords(before, keep(before, removed)).map((w) => w.text).join(' ');
}

/** Position of the `nth` word equal to `word` in `text`. */
const at = (text: string, word: string, nth = 0): number => text.split(' ').flatMap((w, i) => (w === word ? [i] : []))[nth]!;

describe('tidyKeptWords: sentence starts', () => {
  it('capitalises the word that now starts a sentence whose first word was removed', () => {
    const text = 'Hi, and welcome to WordCut. Um, today I will';
    expect(tidied(text, [at(text, 'Um,')])).toBe('Hi, and welcome to WordCut. Today I will');
  });

  it('capitalises the first word of the text when the words before it were removed', () => {
    const text = 'Um, uh, today we cut.';
    expect(tidied(text, [0, 1])).toBe('Today we cut.');
  });

  it('capitalises after a removed discourse marker and filler at a sentence start', () => {
    const text = 'It is in the recording. So, uh, if you delete a word';
    expect(tidied(text, [at(text, 'So,'), at(text, 'uh,')])).toBe('It is in the recording. If you delete a word');
  });

  it('leaves a word that has capitals already or inside it, or starts with a digit', () => {
    const base = 'Done. Um, X';
    expect(tidied(base.replace('X', 'iPhone sales'), [1])).toBe('Done. iPhone sales');
    expect(tidied(base.replace('X', 'WordCut works'), [1])).toBe('Done. WordCut works');
    expect(tidied(base.replace('X', '3d models'), [1])).toBe('Done. 3d models');
  });

  it('leaves a lower-case transcript lower case (the removed start had no capital to pass on)', () => {
    expect(tidied('done. um, today we cut', [1])).toBe('done. today we cut');
    expect(tidied('um today we cut', [0])).toBe('today we cut');
  });

  it('changes nothing when the removed word did not start the sentence', () => {
    expect(tidied('We will, um, see it. Today I will', [2])).toBe('We will see it. Today I will');
    expect(tidied('We will see it. um today', [4])).toBe('We will see it. today');
  });

  it('capitalises after quotes and brackets, never lowercases', () => {
    expect(tidied('Done. Um, "quoted" text', [1])).toBe('Done. "Quoted" text');
    expect(tidied('Done. Um, I said', [1])).toBe('Done. I said');
  });
});

describe('tidyKeptWords: commas and sentence marks', () => {
  it('drops the comma that framed a removed filler', () => {
    const text = 'You can also, um, remove all the filler words';
    expect(tidied(text, [at(text, 'um,')])).toBe('You can also remove all the filler words');
    const thanks = 'Thanks for watching, and, uh, happy editing!';
    expect(tidied(thanks, [at(thanks, 'uh,')])).toBe('Thanks for watching, and happy editing!');
  });

  it('drops the comma before several removed fillers', () => {
    const text = 'You can also, um, uh, remove it';
    expect(tidied(text, [3, 4])).toBe('You can also remove it');
  });

  it('drops the comma around a removed aside of several words', () => {
    const text = 'The result, as you can see, is good.';
    expect(tidied(text, [2, 3, 4, 5])).toBe('The result is good.');
  });

  it('keeps one comma when the removed words held several comma-separated parts', () => {
    const text = 'I went to the store, and then, after lunch, we ate.';
    expect(tidied(text, [5, 6, 7, 8])).toBe('I went to the store, we ate.');
  });

  it('keeps the comma when the removed word carried none', () => {
    expect(tidied('You can also, um remove it', [3])).toBe('You can also, remove it');
  });

  it('the comma of the removed filler goes with it', () => {
    expect(tidied('You can um, remove it', [2])).toBe('You can remove it');
  });

  it('drops a comma left at the very end', () => {
    expect(tidied('Thanks, um', [1])).toBe('Thanks');
  });

  it('moves a sentence end the removed word carried to the word before it', () => {
    expect(tidied('Thanks for watching and happy editing uh.', [6])).toBe('Thanks for watching and happy editing.');
    expect(tidied('And that is the end. Next one', [4])).toBe('And that is the. Next one');
    expect(tidied('Is this it, uh? Yes', [3])).toBe('Is this it? Yes');
    expect(tidied('Well it was "great." Then', [3])).toBe('Well it was. Then');
  });

  it('moves a sentence end from inside the removed words and capitalises what follows', () => {
    expect(tidied('We saw the end. Um, today we cut.', [3, 4])).toBe('We saw the. Today we cut.');
  });

  it('keeps a removed abbreviation from ending the sentence', () => {
    expect(tidied('I met Mr. Smith today', [2])).toBe('I met Smith today');
  });
});

describe('tidyKeptWords: edits that need no tidying', () => {
  it('a whole sentence cut leaves the next one as it was', () => {
    const text = 'First one here. Second one is gone. Third one stays.';
    expect(tidied(text, [3, 4, 5, 6])).toBe('First one here. Third one stays.');
  });

  it('a word removed mid-sentence without punctuation changes nothing', () => {
    expect(tidied('We will really see it.', [2])).toBe('We will see it.');
  });

  it('a reorder (nothing removed) changes nothing, whatever the order', () => {
    const before = wordsOf('First part here. Second part, there.');
    const out = tidyKeptWords(before, keep(before, [], [3, 4, 5, 0, 1, 2]));
    expect(out.map((w) => w.text)).toEqual(['Second', 'part,', 'there.', 'First', 'part', 'here.']);
    out.forEach((w, i) => expect(w).toBe(before[[3, 4, 5, 0, 1, 2][i]!]));
  });

  it('a removal inside a moved paragraph tidies by the words around it before the edit', () => {
    const before = wordsOf('First part here. Um, second part there.');
    const out = tidyKeptWords(before, keep(before, [3], [4, 5, 6, 0, 1, 2]));
    expect(out.map((w) => w.text)).toEqual(['Second', 'part', 'there.', 'First', 'part', 'here.']);
  });
});

describe('tidyKeptWords: spacing, times, counts, idempotence', () => {
  it('trims word texts and makes runs of spaces one', () => {
    const before = wordsOf('a b c');
    before[0]!.text = '  Hello ';
    before[1]!.text = 'big   world';
    expect(tidyKeptWords(before, keep(before, [])).map((w) => w.text)).toEqual(['Hello', 'big world', 'c']);
  });

  const cases: Array<[string, number[]]> = [
    ['Hi, and welcome to WordCut. Um, today I will', [5]],
    ['You can also, um, uh, remove it', [3, 4]],
    ['Thanks for watching, and, uh, happy editing!', [4]],
    ['We saw the end. Um, today we cut.', [3, 4]],
    ['Thanks for watching and happy editing uh.', [6]],
    ['I went to the store, and then, after lunch, we ate.', [5, 6, 7, 8]],
    ['Um, today', [0]],
  ];

  it.each(cases)('changes text only: times, order and count stay (%s)', (text, removed) => {
    const before = wordsOf(text);
    const kept = keep(before, removed);
    const out = tidyKeptWords(before, kept);
    expect(out).toHaveLength(kept.length);
    out.forEach((w, i) => expect({ ...w, text: '' }).toEqual({ ...kept[i]!.word, text: '' }));
  });

  it.each(cases)('is idempotent: tidying the tidy text again changes nothing (%s)', (text, removed) => {
    const before = wordsOf(text);
    const kept = keep(before, removed);
    const once = tidyKeptWords(before, kept);
    const again = before.map((w, i) => {
      const k = kept.findIndex((x) => x.index === i);
      return k >= 0 ? once[k]! : w;
    });
    const twice = tidyKeptWords(again, kept.map((k, i) => ({ index: k.index, word: once[i]! })));
    expect(twice).toEqual(once);
  });

  it('does not change its input', () => {
    const before = wordsOf('Done. Um, today we, uh, cut');
    const copy = JSON.parse(JSON.stringify(before)) as Word[];
    tidyKeptWords(before, keep(before, [1, 4]));
    expect(before).toEqual(copy);
  });

  it('keeps nothing when nothing is kept and ignores positions outside the words', () => {
    const before = wordsOf('Um, today');
    expect(tidyKeptWords(before, [])).toEqual([]);
    expect(tidyKeptWords([], [{ index: 3, word: before[1]! }]).map((w) => w.text)).toEqual(['today']);
  });
});
