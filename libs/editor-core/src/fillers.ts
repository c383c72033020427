import type { Word } from '@wordcut/contracts';
import { detectFillerWords, detectKeyboardFillers, normalizeWord } from '@wordcut/transcript';

export { detectFillerWords, detectKeyboardFillers };

/** Filler recomputation after edits waits this long for typing to stop. */
export const FILLER_RECOMPUTE_DEBOUNCE_MS = 1000;

/** One byte per word, 1 for a filler: O(1) lookups when rendering 30,000 words. Indices with no word are ignored. */
export function fillerSet(fillerWords: readonly number[], wordCount: number): Uint8Array {
  const set = new Uint8Array(wordCount);
  for (const i of fillerWords) if (Number.isInteger(i) && i >= 0 && i < wordCount) set[i] = 1;
  return set;
}

/** One filler in the review list: the word and a few words either side. */
export interface FillerOccurrence {
  index: number;
  start: number;
  before: string;
  text: string;
  after: string;
}

/** The fillers of one kind ("um", "you", "so"), most frequent kinds first. */
export interface FillerKind {
  kind: string;
  count: number;
  occurrences: FillerOccurrence[];
}

/** Words of context shown either side of a filler in the review. */
export const FILLER_CONTEXT_WORDS = 4;

const kindOf = (text: string) => normalizeWord(text) || text.trim().toLowerCase();

/**
 * The filler review: the flagged words grouped by kind (the word without case or punctuation),
 * each occurrence with its context, kinds by count (then by first appearance). Indices with no
 * word are ignored.
 */
export function fillerReview(words: readonly Pick<Word, 'text' | 'start'>[], fillerWords: readonly number[], contextWords = FILLER_CONTEXT_WORDS): FillerKind[] {
  const kinds = new Map<string, FillerKind>();
  const indices = [...new Set(fillerWords)].filter((i) => Number.isInteger(i) && i >= 0 && i < words.length).sort((a, b) => a - b);
  for (const index of indices) {
    const word = words[index]!;
    const kind = kindOf(word.text);
    const text = (from: number, to: number) => words.slice(Math.max(0, from), Math.max(0, to)).map((w) => w.text).join(' ');
    const entry = kinds.get(kind) ?? { kind, count: 0, occurrences: [] };
    entry.count++;
    entry.occurrences.push({ index, start: word.start, before: text(index - contextWords, index), text: word.text, after: text(index + 1, index + 1 + contextWords) });
    kinds.set(kind, entry);
  }
  return [...kinds.values()].sort((a, b) => b.count - a.count);
}

/** The fillers to remove: every flagged word but the ones kept, ascending. */
export function fillersToRemove(fillerWords: readonly number[], kept: ReadonlySet<number>): number[] {
  return [...new Set(fillerWords)].filter((i) => !kept.has(i)).sort((a, b) => a - b);
}

/** Ctrl/Cmd+M: the keyboard fillers added to the automatic ones, so the chip counts what was flagged. */
export function flaggedFillers(words: readonly Pick<Word, 'text' | 'start' | 'end' | 'confidence'>[]): number[] {
  return [...new Set([...detectFillerWords(words), ...detectKeyboardFillers(words)])].sort((a, b) => a - b);
}
