/**
 * A reorder request read against the transcript: the ranges in their new order, refusals for a
 * changed transcript, for no change at all, and for more blocks than one render may join.
 */
import { MAX_REORDER_BLOCKS, MAX_REORDER_ENTRIES, reorderRequestSchema, type Paragraph, type Word } from '@wordcut/contracts';
import { AppError } from '@wordcut/platform';
import { reorderBlocks, reorderRanges } from './reorder';

/** `n` one-word paragraphs, word i from i to i + 0.8 s. */
function talk(n: number): { words: Word[]; transcript: { version: number; paragraphs: Paragraph[] } } {
  const words = Array.from({ length: n }, (_, i): Word => ({ text: `w${i}`, start: i, end: i + 0.8, confidence: 1, group_number: i, word_order: i }));
  const paragraphs = words.map((w, i): Paragraph => ({ start: w.start, end: w.end, wordIndices: [i], groupNumber: i }));
  return { words, transcript: { version: 3, paragraphs } };
}

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected a refusal');
}

const body = (b: unknown) => reorderRequestSchema.parse(b);

describe('reorderBlocks', () => {
  it('counts the runs that stay together as in the source', () => {
    const r = (s: number) => ({ start: s, end: s + 1 });
    expect(reorderBlocks([])).toBe(0);
    expect(reorderBlocks([r(0), r(1), r(2)])).toBe(1);
    // one paragraph moved to the front: it, then the rest in order
    expect(reorderBlocks([r(3), r(0), r(1), r(2), r(4)])).toBe(3);
    expect(reorderBlocks([r(3), r(2), r(1), r(0)])).toBe(4);
  });
});

describe('reorderRanges', () => {
  const { words, transcript } = talk(100);

  it('gives the paragraphs in their new order', () => {
    const order = [1, 0, ...Array.from({ length: 98 }, (_, i) => i + 2)];
    const ranges = reorderRanges(body({ groupOrder: order }), undefined, transcript, words, 100);
    expect(ranges.slice(0, 3)).toEqual([
      { start: 1, end: 1.8 },
      { start: 0, end: 0.8 },
      { start: 2, end: 2.8 },
    ]);
  });

  it(`accepts ${MAX_REORDER_BLOCKS} blocks and refuses one more with 422 naming the limit`, () => {
    // the first k paragraphs reversed: k blocks, plus the untouched rest
    const reversedFront = (k: number) => [...Array.from({ length: k }, (_, i) => k - 1 - i), ...Array.from({ length: 100 - k }, (_, i) => k + i)];
    expect(reorderRanges(body({ groupOrder: reversedFront(MAX_REORDER_BLOCKS - 1) }), undefined, transcript, words, 100)).toHaveLength(100);
    const e = refusal(() => reorderRanges(body({ groupOrder: reversedFront(MAX_REORDER_BLOCKS) }), undefined, transcript, words, 100));
    expect(e).toMatchObject({ statusCode: 422, details: { reason: 'TOO_MANY_BLOCKS', blocks: 33, limit: MAX_REORDER_BLOCKS } });
    expect(e.message).toMatch(/at most 32 can be moved/);
    const reversed = refusal(() => reorderRanges(body({ groupOrder: [...transcript.paragraphs.keys()].reverse() }), undefined, transcript, words, 100));
    expect(reversed.statusCode).toBe(422);
  });

  it('counts segments of a spec the same way', () => {
    const segment = (i: number) => ({ start: i, end: i + 0.8, wordIndices: [i] });
    const spec = (order: number[]) => body({ spec: { segments: order.map(segment) } });
    expect(reorderRanges(spec([2, 0, 1]), undefined, transcript, words, 100)).toEqual([
      { start: 2, end: 2.8 },
      { start: 0, end: 0.8 },
      { start: 1, end: 1.8 },
    ]);
    const many = Array.from({ length: 40 }, (_, i) => 39 - i);
    expect(refusal(() => reorderRanges(spec(many), undefined, transcript, words, 100)).statusCode).toBe(422);
  });

  it('answers 409 for a stale version or changed paragraphs, 422 for no change', () => {
    const order = [1, 0, ...Array.from({ length: 98 }, (_, i) => i + 2)];
    expect(refusal(() => reorderRanges(body({ groupOrder: order, transcriptVersion: 2 }), undefined, transcript, words, 100)).statusCode).toBe(409);
    expect(refusal(() => reorderRanges(body({ groupOrder: order }), '"2"', transcript, words, 100)).statusCode).toBe(409);
    expect(refusal(() => reorderRanges(body({ groupOrder: [1, 0] }), undefined, transcript, words, 100)).statusCode).toBe(409);
    expect(refusal(() => reorderRanges(body({ spec: { segments: [{ start: 5, end: 9, wordIndices: [0] }] } }), undefined, transcript, words, 100)).statusCode).toBe(409);
    expect(refusal(() => reorderRanges(body({ groupOrder: [...transcript.paragraphs.keys()] }), '"3"', transcript, words, 100)).message).toBe('No changes detected');
  });
});

describe('reorder request lists', () => {
  it(`holds groupOrder and spec segments to ${MAX_REORDER_ENTRIES} entries`, () => {
    const over = Array.from({ length: MAX_REORDER_ENTRIES + 1 }, (_, i) => i);
    const r = reorderRequestSchema.safeParse({ groupOrder: over });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ code: 'too_big', path: ['groupOrder'], message: `At most 5,000 paragraphs can be sent at once.` });
    expect(reorderRequestSchema.safeParse({ spec: { segments: over.map((i) => ({ start: i, end: i + 1 })) } }).success).toBe(false);
    expect(reorderRequestSchema.safeParse({ groupOrder: over.slice(1) }).success).toBe(true);
  });
});
