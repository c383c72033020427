import type { Paragraph, Word } from '@wordcut/contracts';
import { regroupWords } from './export';
import { detectFillerWords } from './fillers';
import { tidyKeptWords, type KeptWord } from './tidy';

/** Words held inside [0, duration]: a word never starts past the end nor ends before it starts. */
export function clampWords<W extends { start: number; end: number }>(words: readonly W[], duration: number): W[] {
  return words.map((w) => {
    const start = Math.min(Math.max(0, w.start), duration);
    return { ...w, start, end: Math.min(Math.max(start, w.end), duration) };
  });
}

const toMs = (t: number) => Math.round(t * 1000) / 1000;

/**
 * The transcript follows the media: after a render, the words it kept (in play order, at their new
 * times, each with its position in `before`, the words before the render) become the transcript,
 * their text tidied around the removed words (tidyKeptWords), times to the millisecond, paragraphs
 * regrouped and fillers detected again.
 */
export function transcriptForVersion(before: readonly Word[], kept: readonly KeptWord<Word>[]): { words: Word[]; paragraphs: Paragraph[]; fillerWords: number[] } {
  const tidy = tidyKeptWords(before, kept);
  const { words, paragraphs } = regroupWords<Word>(tidy.map((w) => ({ ...w, start: toMs(w.start), end: toMs(w.end) })));
  return { words, paragraphs, fillerWords: detectFillerWords(words) };
}
