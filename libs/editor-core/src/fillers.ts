export { detectFillerWords, detectKeyboardFillers } from '@wordcut/transcript';

/** Filler recomputation after edits waits this long for typing to stop. */
export const FILLER_RECOMPUTE_DEBOUNCE_MS = 1000;

/** One byte per word, 1 for a filler: O(1) lookups when rendering 30,000 words. Indices with no word are ignored. */
export function fillerSet(fillerWords: readonly number[], wordCount: number): Uint8Array {
  const set = new Uint8Array(wordCount);
  for (const i of fillerWords) if (Number.isInteger(i) && i >= 0 && i < wordCount) set[i] = 1;
  return set;
}
