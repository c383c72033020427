import { FILLER_RECOMPUTE_DEBOUNCE_MS, detectFillerWords, detectKeyboardFillers, fillerSet } from './index';

const word = (text: string, start: number, end: number, confidence = 0.95) => ({ text, start, end, confidence });

describe('fillers', () => {
  it('re-exports the transcript filler rules', () => {
    const words = [word('Um,', 0, 0.3), word('like', 0.3, 0.5), word('the', 0.5, 1.2), word('like', 1.2, 2)];
    // "like" is a filler only when quick or uncertain; the keyboard rule flags it regardless
    expect(detectFillerWords(words)).toEqual([0, 1]);
    expect(detectKeyboardFillers(words)).toEqual([0, 1, 3]);
  });

  it('recomputes after a 1 s pause in typing', () => {
    expect(FILLER_RECOMPUTE_DEBOUNCE_MS).toBe(1000);
  });

  it('builds a per-word flag array, ignoring indices with no word', () => {
    expect(Array.from(fillerSet([0, 3, 3, 9, -1], 5))).toEqual([1, 0, 0, 1, 0]);
    expect(fillerSet([], 0)).toHaveLength(0);
  });
});
