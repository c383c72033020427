import type { Paragraph, Word } from '@wordcut/contracts';
import { regroupWords } from './export';
import { detectFillerWords } from './fillers';

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
 * times) become the transcript, times to the millisecond, paragraphs regrouped and fillers
 * detected again.
 */
export function transcriptForVersion(kept: readonly Word[]): { words: Word[]; paragraphs: Paragraph[]; fillerWords: number[] } {
  const { words, paragraphs } = regroupWords<Word>(kept.map((w) => ({ ...w, start: toMs(w.start), end: toMs(w.end) })));
  return { words, paragraphs, fillerWords: detectFillerWords(words) };
}
