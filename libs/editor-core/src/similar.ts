import type { Word } from '@wordcut/contracts';
import { normalizeWord } from '@wordcut/transcript';
import { roundMs } from './round';

/**
 * The form mute-similar compares: lower case with every character that is not a
 * letter or a number removed ("Like," -> "like", "don't" -> "dont"). It is the transcript domain's
 * normalizeWord, so mute-similar and filler detection agree on what "the same word" is.
 */
export function normalizeForMatch(text: string): string {
  return normalizeWord(text);
}

export interface SimilarWordMatch {
  /** one spelling as it appears in the transcript ("Like," and "like" are two matches) */
  word: string;
  indices: number[];
  matchType: 'exact';
  /** mean recognition confidence of those words */
  confidence: number;
}

export interface SimilarWordAnalysis {
  originalWord: string;
  matches: SimilarWordMatch[];
  totalMatches: number;
  /** seconds, to the millisecond */
  totalDuration: number;
}

type Timed = Pick<Word, 'text' | 'start' | 'end' | 'confidence'>;

/**
 * Every occurrence of the word at `index` (itself included), compared as normalizeForMatch forms:
 * the same word only, so 'run' never matches 'running'. Occurrences are grouped by spelling in
 * order of first appearance. A word that is only punctuation matches nothing. Throws RangeError
 * when there is no word at `index`.
 */
export function findSimilarWords(words: readonly Timed[], index: number): SimilarWordAnalysis {
  const original = words[index];
  if (!original) throw new RangeError(`there is no word ${index} (the transcript has ${words.length} words)`);
  const target = normalizeForMatch(original.text);
  if (target === '') return { originalWord: original.text, matches: [], totalMatches: 0, totalDuration: 0 };
  const bySpelling = new Map<string, number[]>();
  let total = 0;
  let duration = 0;
  words.forEach((w, i) => {
    if (normalizeForMatch(w.text) !== target) return;
    const indices = bySpelling.get(w.text) ?? [];
    indices.push(i);
    bySpelling.set(w.text, indices);
    total++;
    duration += w.end - w.start;
  });
  const matches = [...bySpelling].map(([word, indices]): SimilarWordMatch => ({
    word,
    indices,
    matchType: 'exact',
    confidence: indices.reduce((sum, i) => sum + words[i]!.confidence, 0) / indices.length,
  }));
  return { originalWord: original.text, matches, totalMatches: total, totalDuration: roundMs(duration) };
}
