import { FILLER_RECOMPUTE_DEBOUNCE_MS, detectFillerWords, detectKeyboardFillers, fillerReview, fillerSet, fillersToRemove, flaggedFillers } from './index';

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

describe('filler review', () => {
  const words = ['So,', 'um,', 'we', 'built', 'it.', 'Um', 'the', 'the', 'editor', 'um'].map((t, k) => word(t, k, k + 0.4));

  it('groups the flagged words by kind with their context, most frequent first', () => {
    const review = fillerReview(words, [9, 1, 0, 5, 7, 1], 2);
    expect(review.map((k) => [k.kind, k.count])).toEqual([['um', 3], ['so', 1], ['the', 1]]);
    expect(review[0]!.occurrences[0]).toEqual({ index: 1, start: 1, before: 'So,', text: 'um,', after: 'we built' });
    expect(review[0]!.occurrences[2]).toEqual({ index: 9, start: 9, before: 'the editor', text: 'um', after: '' });
    expect(fillerReview(words, [42, -1])).toEqual([]);
  });

  it('removes every flagged word but the kept ones', () => {
    expect(fillersToRemove([9, 0, 1, 1], new Set([0]))).toEqual([1, 9]);
  });

  it('Ctrl+M flags the keyboard fillers on top of the automatic ones (the chip counts what it flagged)', () => {
    // a slow "So," is not an automatic filler and not a keyboard one; a quick one is automatic
    const slow = [word('So,', 0, 0.8), word('like', 1, 1.9), word('um', 2, 2.2), word('so', 3, 3.2)];
    expect(flaggedFillers(slow)).toEqual([1, 2, 3]);
    expect(flaggedFillers(slow)).toEqual(expect.arrayContaining(detectFillerWords(slow)));
  });
});
