import type { Paragraph, Word } from '@wordcut/contracts';
import type { ReorderSegment } from './preview';
import { roundMs } from './round';

/**
 * Reorder mode: paragraphs become segments, the user moves them (drag or up/down arrows), a
 * change is detected position by position, and the new order is sent as a group order or as a
 * paragraph-granularity spec.
 */

/** Reorder mode is refused when the transcript runs this far past the video. */
export const OUT_OF_SYNC_TOLERANCE_SECONDS = 5;

/** The fixed placeholder user id the reorder payload carries. */
export const REORDER_USER_ID = 'wordcut-editor';

/**
 * True when the transcript does not fit the video (toast 'Data out of sync'): the last paragraph
 * ends more than 5 s after the duration. False while the duration is unknown (not a finite
 * number > 0) or there are no paragraphs. Compared to the millisecond.
 */
export function isOutOfSync(paragraphs: readonly Pick<Paragraph, 'end'>[], duration: number): boolean {
  if (!Number.isFinite(duration) || duration <= 0) return false;
  let lastEnd = -Infinity;
  for (const p of paragraphs) if (p.end > lastEnd) lastEnd = p.end;
  return Number.isFinite(lastEnd) && roundMs(lastEnd - duration) > OUT_OF_SYNC_TOLERANCE_SECONDS;
}

/**
 * One segment per paragraph, in `order` (indices into paragraphs; default their own order; indices
 * with no paragraph are skipped): it spans the paragraph's first word start to its last word end
 * (the words the server checks a spec segment against), falling back to the paragraph's own
 * start/end when such a word is missing.
 */
export function paragraphSegments(
  words: readonly Pick<Word, 'start' | 'end'>[],
  paragraphs: readonly Paragraph[],
  order?: readonly number[],
): ReorderSegment[] {
  const indices = order ?? paragraphs.map((_, k) => k);
  return indices.flatMap((k) => {
    const p = paragraphs[k];
    if (!p) return [];
    const first = p.wordIndices.length > 0 ? words[p.wordIndices[0]!] : undefined;
    const last = p.wordIndices.length > 0 ? words[p.wordIndices[p.wordIndices.length - 1]!] : undefined;
    return [{ id: `p${k}`, start: first?.start ?? p.start, end: last?.end ?? p.end, paragraphId: k, wordIndices: [...p.wordIndices], type: 'paragraph' as const }];
  });
}

function isPosition(list: readonly unknown[], i: number): boolean {
  return Number.isInteger(i) && i >= 0 && i < list.length;
}

/** A new list with the item at `from` moved to position `to`; positions out of range give an unchanged copy. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const out = [...list];
  if (!isPosition(list, from) || !isPosition(list, to) || from === to) return out;
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item as T);
  return out;
}

/** The up arrow on a paragraph: swap it with the one before; the first stays. */
export function moveUp<T>(order: readonly T[], i: number): T[] {
  return moveItem(order, i, i - 1);
}

/** The down arrow on a paragraph: swap it with the one after; the last stays. */
export function moveDown<T>(order: readonly T[], i: number): T[] {
  return moveItem(order, i, i + 1);
}

function sameIndices(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, k) => x === b[k]);
}

/**
 * True when the order changed: a different count, start or word-index list, compared position
 * by position. Applying without a change gives 'No changes detected'.
 */
export function segmentsChanged(
  before: readonly Pick<ReorderSegment, 'start' | 'wordIndices'>[],
  after: readonly Pick<ReorderSegment, 'start' | 'wordIndices'>[],
): boolean {
  if (before.length !== after.length) return true;
  return before.some((b, k) => {
    const a = after[k]!;
    return a.start !== b.start || !sameIndices(a.wordIndices, b.wordIndices);
  });
}

/** The reorder request body. */
export type ReorderPayload =
  | { groupOrder: number[]; userId: string }
  | { spec: { granularity: 'paragraph'; segments: ReorderSegment[] }; userId: string };

function isGroupNumber(g: unknown): g is number {
  return typeof g === 'number' && Number.isInteger(g) && g >= 0;
}

/**
 * The reorder payload: when every paragraph has a numeric non-negative groupNumber
 * (an integer, as the server requires), the group numbers in the new order; otherwise the
 * segments as a paragraph-granularity spec. A segment whose paragraphId names no paragraph also
 * forces the spec form.
 */
export function reorderPayload(paragraphs: readonly Pick<Paragraph, 'groupNumber'>[], segments: readonly ReorderSegment[]): ReorderPayload {
  const groupOrder = segments.map((s) => paragraphs[s.paragraphId]?.groupNumber);
  if (paragraphs.every((p) => isGroupNumber(p.groupNumber)) && groupOrder.every(isGroupNumber)) {
    return { groupOrder, userId: REORDER_USER_ID };
  }
  return {
    spec: { granularity: 'paragraph', segments: segments.map((s) => ({ ...s, wordIndices: [...s.wordIndices] })) },
    userId: REORDER_USER_ID,
  };
}

/**
 * The text shown for a paragraph in reorder mode: its words joined by spaces, at most `maxChars`
 * characters (code points) including a trailing '…' when it is cut. Indices with no word are skipped.
 */
export function paragraphPreviewText(words: readonly Pick<Word, 'text'>[], paragraph: Pick<Paragraph, 'wordIndices'>, maxChars = 140): string {
  const text = paragraph.wordIndices.flatMap((i) => words[i]?.text ?? []).join(' ');
  const limit = Number.isFinite(maxChars) ? Math.max(1, Math.floor(maxChars)) : Infinity;
  if (text.length <= limit) return text;
  const chars = Array.from(text);
  if (chars.length <= limit) return text;
  return `${chars.slice(0, limit - 1).join('').trimEnd()}…`;
}
