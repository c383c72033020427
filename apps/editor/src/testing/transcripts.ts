/**
 * Spec helper of the editor remote (test-only; excluded from the app's tsconfig): a transcript
 * built from its words' texts, for specs of the editing stores and commands (no React).
 */
import type { Transcript, Word } from '@wordcut/contracts';
import { attachParagraphs } from '@wordcut/transcript';

/**
 * Words one second apart (0.8 s long); `paragraphs` groups them by index (default: one
 * paragraph); `fillerWords` are indexes of words flagged as fillers (default: none).
 */
export function transcriptOfTexts(texts: string[], o: { paragraphs?: number[][] | undefined; fillerWords?: number[] } = {}): Transcript {
  const words: Word[] = texts.map((text, i) => ({ text, start: i, end: i + 0.8, confidence: 0.95, group_number: 0, word_order: i }));
  const paragraphs = o.paragraphs ?? [texts.map((_, i) => i)];
  return {
    id: '00000000-0000-4000-8000-000000000001',
    videoId: '00000000-0000-4000-8000-000000000002',
    version: 1,
    languageCode: 'en',
    ...attachParagraphs(words, paragraphs.map((wordIndices) => ({ wordIndices }))),
    fillerWords: o.fillerWords ?? [],
    updatedAt: new Date(0).toISOString(),
  };
}
