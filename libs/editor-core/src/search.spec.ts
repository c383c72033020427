import fc from 'fast-check';
import {
  SEARCH_DEBOUNCE_MS,
  SEARCH_SCROLL_SUPPRESS_MS,
  applyEdit,
  findMatches,
  matchCounter,
  replaceMatchDeltas,
  stepMatch,
} from './index';
import { longTranscript, texts, transcript } from './testing.spec-helpers';

const words = (line: string) => line.split(' ').map((text) => ({ text }));

describe('findMatches', () => {
  it('finds case-insensitive substrings inside words, with offsets', () => {
    expect(findMatches(words('The cat SCATTERED cats'), 'cat')).toEqual([
      { first: 1, last: 1, startOffset: 0, endOffset: 3 },
      { first: 2, last: 2, startOffset: 1, endOffset: 4 },
      { first: 3, last: 3, startOffset: 0, endOffset: 3 },
    ]);
  });

  it('matches across words, the query normalised to single spaces', () => {
    expect(findMatches(words('so you know, I mean'), '  YOU   know ')).toEqual([{ first: 1, last: 2, startOffset: 0, endOffset: 4 }]);
    expect(findMatches(words('end. Next'), 'd. ne')).toEqual([{ first: 0, last: 1, startOffset: 2, endOffset: 2 }]);
  });

  it('returns non-overlapping matches in order', () => {
    expect(findMatches(words('aaaa aa'), 'aa')).toEqual([
      { first: 0, last: 0, startOffset: 0, endOffset: 2 },
      { first: 0, last: 0, startOffset: 2, endOffset: 4 },
      { first: 1, last: 1, startOffset: 0, endOffset: 2 },
    ]);
  });

  it('finds nothing for an empty query or no words', () => {
    expect(findMatches(words('a b'), '')).toEqual([]);
    expect(findMatches(words('a b'), '   ')).toEqual([]);
    expect(findMatches([], 'a')).toEqual([]);
    expect(findMatches(words('a b'), 'c')).toEqual([]);
  });

  it('keeps offsets right when lower-casing would change a length', () => {
    // 'İ' lower-cases to two code units; the offsets of later words must not shift
    const found = findMatches(words('İstanbul Straße STRASSE'), 'straße');
    expect(found).toEqual([{ first: 1, last: 1, startOffset: 0, endOffset: 6 }]);
    expect(findMatches(words('İİ x'), 'x')).toEqual([{ first: 1, last: 1, startOffset: 0, endOffset: 1 }]);
    expect(findMatches(words('ÉCOLE école'), 'École')).toHaveLength(2);
  });

  it('searches 30,000 words in one pass, not one per word', () => {
    const long = longTranscript(30_000).words;
    findMatches(long, 'warm up');
    // CPU time of this process (a neighbour's load does not count); a search that re-read the
    // text from each word (10^9 steps) would take seconds
    const cpu = process.cpuUsage();
    const found = findMatches(long, 'Long talks');
    const { user, system } = process.cpuUsage(cpu);
    expect(found).toHaveLength(3000);
    expect(found[0]).toEqual({ first: 7, last: 8, startOffset: 0, endOffset: 5 });
    expect((user + system) / 1000).toBeLessThan(500);
  });

  it('every match spells the query, case-insensitively (property)', () => {
    const text = fc.stringMatching(/^[a-cA-C.]{1,4}$/);
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 12 }), fc.stringMatching(/^[abAB. ]{1,5}$/), (ws, query) => {
        const list = ws.map((t) => ({ text: t }));
        const needle = query.trim().replace(/\s+/g, ' ').toLowerCase();
        const joined = ws.join(' ');
        const found = findMatches(list, query);
        let from = 0;
        for (const m of found) {
          const start = ws.slice(0, m.first).join(' ').length + (m.first > 0 ? 1 : 0) + m.startOffset;
          const end = ws.slice(0, m.last).join(' ').length + (m.last > 0 ? 1 : 0) + m.endOffset;
          expect(joined.slice(start, end).toLowerCase()).toBe(needle);
          expect(start).toBeGreaterThanOrEqual(from);
          from = end;
        }
        const expected = needle === '' ? 0 : joined.toLowerCase().split(needle).length - 1;
        expect(found).toHaveLength(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('result navigation', () => {
  it('counts as n of m', () => {
    expect(matchCounter(2, 12)).toBe('3 of 12');
    expect(matchCounter(0, 1)).toBe('1 of 1');
    expect(matchCounter(0, 0)).toBe('0 of 0');
  });

  it('steps and wraps around', () => {
    expect(stepMatch(0, 3, 1)).toBe(1);
    expect(stepMatch(2, 3, 1)).toBe(0);
    expect(stepMatch(0, 3, -1)).toBe(2);
    expect(stepMatch(1, 3, -1)).toBe(0);
    expect(stepMatch(0, 0, 1)).toBe(0);
  });

  it('debounces and suppresses scrolling as the seed says', () => {
    expect(SEARCH_DEBOUNCE_MS).toBe(300);
    expect(SEARCH_SCROLL_SUPPRESS_MS).toBe(3000);
  });
});

describe('replaceMatchDeltas', () => {
  const t = transcript('The Colour, of money', 'is green.');

  it('replaces the matched part of a word, keeping its punctuation', () => {
    const [match] = findMatches(t.words, 'colour');
    const deltas = replaceMatchDeltas(t.words, match!, 'color');
    expect(deltas).toEqual([{ word_order: 1, changes: { text: 'color,', confidence: 1 } }]);
  });

  it('replaces a match spanning words, keeping the outer prefix and suffix', () => {
    const [match] = findMatches(t.words, 'of money is gr');
    const out = applyEdit(t, replaceMatchDeltas(t.words, match!, 'for bl'));
    expect(texts(out)).toEqual(['The', 'Colour,', 'for', 'bleen.']);
  });

  it('deletes a whole-word match replaced by nothing', () => {
    const [match] = findMatches(t.words, 'money');
    expect(replaceMatchDeltas(t.words, match!, '')).toEqual([{ word_order: 3, delete: true }]);
  });
});
