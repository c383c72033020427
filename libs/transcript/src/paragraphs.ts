import type { Paragraph, Word } from '@wordcut/contracts';
import { isSentenceEnd, roundTime } from './text';

/** A pause (seconds between a word's end and the next word's start) this long always starts a new paragraph. */
export const PARAGRAPH_PAUSE_SECONDS = 1.5;
/** After a sentence end, a pause this long starts a new paragraph (however short the paragraph is). */
export const SENTENCE_PAUSE_SECONDS = 0.7;
/** After a sentence end, a paragraph that already has this many words is closed. */
export const PARAGRAPH_TARGET_WORDS = 25;
/** A paragraph never has more words than this: it is cut even mid-sentence. */
export const PARAGRAPH_MAX_WORDS = 120;

export interface ParagraphRules {
  pauseSeconds: number;
  sentencePauseSeconds: number;
  targetWords: number;
  maxWords: number;
}

export const DEFAULT_PARAGRAPH_RULES: Readonly<ParagraphRules> = Object.freeze({
  pauseSeconds: PARAGRAPH_PAUSE_SECONDS,
  sentencePauseSeconds: SENTENCE_PAUSE_SECONDS,
  targetWords: PARAGRAPH_TARGET_WORDS,
  maxWords: PARAGRAPH_MAX_WORDS,
});

type Timed = Pick<Word, 'text' | 'start' | 'end'>;

/**
 * Group words (in transcript order) into paragraphs of consecutive words. A new paragraph starts
 * before a word when:
 * - the pause since the previous word is >= pauseSeconds (1.5 s), or
 * - the previous word ends a sentence (. ! ? … 。 ！ ？) and the paragraph has >= targetWords (25)
 *   words or the pause is >= sentencePauseSeconds (0.7 s), or
 * - the paragraph already has maxWords (120) words.
 * wordIndices are positions in `words`; groupNumber is the paragraph's index.
 */
export function buildParagraphs(words: readonly Timed[], rules: ParagraphRules = DEFAULT_PARAGRAPH_RULES): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  let current: number[] = [];
  for (let i = 0; i < words.length; i++) {
    if (current.length > 0) {
      const previous = words[i - 1]!;
      // in whole milliseconds, so that a 0.7 s pause is not 0.69999 s
      const pause = roundTime(words[i]!.start - previous.end);
      const sentenceEnd = isSentenceEnd(previous.text);
      const breakHere =
        pause >= rules.pauseSeconds ||
        (sentenceEnd && (current.length >= rules.targetWords || pause >= rules.sentencePauseSeconds)) ||
        current.length >= rules.maxWords;
      if (breakHere) {
        paragraphs.push(paragraphOf(words, current, paragraphs.length));
        current = [];
      }
    }
    current.push(i);
  }
  if (current.length > 0) paragraphs.push(paragraphOf(words, current, paragraphs.length));
  return paragraphs;
}

/**
 * A paragraph over the given word positions (ascending): start = earliest word start, end = latest
 * word end (for time-ordered words: the first word's start and the last word's end).
 */
export function paragraphOf(words: readonly Timed[], wordIndices: number[], groupNumber: number): Paragraph {
  let start = Infinity;
  let end = 0;
  for (const index of wordIndices) {
    const word = words[index]!;
    if (word.start < start) start = word.start;
    if (word.end > end) end = word.end;
  }
  return { start: wordIndices.length ? start : 0, end, wordIndices, groupNumber };
}

/**
 * Make words and paragraphs agree: word_order = position, group_number = index of the word's
 * paragraph, paragraph groupNumber = its index and start/end recomputed. Paragraphs with no words
 * are dropped. `paragraphs` must put every word in exactly one paragraph (see normalizeReplacement
 * for the validating version).
 */
export function attachParagraphs(
  words: readonly Word[],
  paragraphs: readonly Pick<Paragraph, 'wordIndices'>[],
): { words: Word[]; paragraphs: Paragraph[] } {
  const groupOf = new Int32Array(words.length);
  const out: Paragraph[] = [];
  for (const paragraph of paragraphs) {
    if (paragraph.wordIndices.length === 0) continue;
    const indices = isAscending(paragraph.wordIndices) ? paragraph.wordIndices.slice() : [...paragraph.wordIndices].sort((a, b) => a - b);
    for (const index of indices) groupOf[index] = out.length;
    out.push(paragraphOf(words, indices, out.length));
  }
  return {
    words: words.map((w, i) => copyWord(w, i, groupOf[i]!)),
    paragraphs: out,
  };
}

/** A word with new numbering (an explicit literal: much faster than a spread on large transcripts). */
export function copyWord(w: Word, wordOrder: number, groupNumber: number): Word {
  return { text: w.text, start: w.start, end: w.end, confidence: w.confidence, group_number: groupNumber, word_order: wordOrder };
}

function isAscending(values: readonly number[]): boolean {
  for (let i = 1; i < values.length; i++) if (values[i]! <= values[i - 1]!) return false;
  return true;
}

/** Words with word_order set to their position (0..n-1); other fields unchanged. */
export function renumber(words: readonly Word[]): Word[] {
  return words.map((w, i) => (w.word_order === i ? w : copyWord(w, i, w.group_number)));
}
