import { findSimilarWords, normalizeForMatch } from './index';

const word = (text: string, start: number, end: number, confidence = 0.9) => ({ text, start, end, confidence });

describe('normalizeForMatch', () => {
  it('lower-cases and drops everything but letters and numbers', () => {
    expect(['Like,', "don't", '“Über”!', 'COVID-19', '--'].map((t) => normalizeForMatch(t))).toEqual(['like', 'dont', 'über', 'covid19', '']);
  });
});

describe('findSimilarWords', () => {
  const words = [
    word('Like,', 0, 0.3, 0.8),
    word('I', 0.3, 0.4),
    word('like', 0.4, 0.7, 1),
    word('running', 0.7, 1.1),
    word('LIKE', 1.1, 1.35, 0.6),
    word('liked', 1.4, 1.8),
    word('like', 2, 2.2, 0.5),
    word('—', 2.2, 2.3),
    word('run', 2.3, 2.5),
  ];

  it('groups every occurrence of the same word by spelling', () => {
    expect(findSimilarWords(words, 2)).toEqual({
      originalWord: 'like',
      matches: [
        { word: 'Like,', indices: [0], matchType: 'exact', confidence: 0.8 },
        { word: 'like', indices: [2, 6], matchType: 'exact', confidence: 0.75 },
        { word: 'LIKE', indices: [4], matchType: 'exact', confidence: 0.6 },
      ],
      totalMatches: 4,
      totalDuration: 1.05,
    });
  });

  it("matches the same word only: 'run' is not 'running'", () => {
    const run = findSimilarWords(words, 8);
    expect(run.matches).toEqual([{ word: 'run', indices: [8], matchType: 'exact', confidence: 0.9 }]);
    expect(run.totalMatches).toBe(1);
    expect(run.totalDuration).toBe(0.2);
  });

  it('finds nothing for a word that is only punctuation', () => {
    expect(findSimilarWords(words, 7)).toEqual({ originalWord: '—', matches: [], totalMatches: 0, totalDuration: 0 });
  });

  it('throws a RangeError when there is no such word', () => {
    expect(() => findSimilarWords(words, 9)).toThrow(RangeError);
  });
});
