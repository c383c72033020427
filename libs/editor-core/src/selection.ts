import type { Paragraph, Word } from '@wordcut/contracts';
import { isSentenceEnd } from '@wordcut/transcript';

/** A run of selected words: inclusive word indices, start <= end. */
export interface WordRange {
  start: number;
  end: number;
}

/**
 * A word selection as ranges that are sorted, disjoint and not touching ([0..2] and [3..4] are
 * stored as [0..4]), so that equal selections have equal representations and a 30,000-word
 * select-all is one range, not 30,000 indices.
 */
export type Selection = readonly WordRange[];

export const EMPTY_SELECTION: Selection = Object.freeze([]);

/** Pointer movement (px) that turns a press into a drag selection. */
export const DRAG_THRESHOLD_PX = 2;

/** The words a to b, whichever order the user went (a drag may go backwards). */
export function selectRange(a: number, b: number): Selection {
  return [{ start: Math.min(a, b), end: Math.max(a, b) }];
}

/** Union of the selection and words a..b (shift/ctrl selection). */
export function addRange(sel: Selection, a: number, b: number): Selection {
  let start = Math.min(a, b);
  let end = Math.max(a, b);
  const out: WordRange[] = [];
  let placed = false;
  for (const r of sel) {
    if (r.end < start - 1) {
      out.push(r);
    } else if (r.start > end + 1) {
      if (!placed) out.push({ start, end });
      placed = true;
      out.push(r);
    } else {
      // overlapping or touching: absorb into the new range
      start = Math.min(start, r.start);
      end = Math.max(end, r.end);
    }
  }
  if (!placed) out.push({ start, end });
  return out;
}

/** The selection without words a..b (a range may split in two). */
export function removeRange(sel: Selection, a: number, b: number): Selection {
  const start = Math.min(a, b);
  const end = Math.max(a, b);
  const out: WordRange[] = [];
  for (const r of sel) {
    if (r.end < start || r.start > end) {
      out.push(r);
      continue;
    }
    if (r.start < start) out.push({ start: r.start, end: start - 1 });
    if (r.end > end) out.push({ start: end + 1, end: r.end });
  }
  return out;
}

/** Ctrl/Cmd-click: selects the word when it is not selected, deselects it when it is. */
export function toggleWord(sel: Selection, i: number): Selection {
  return isSelected(sel, i) ? removeRange(sel, i, i) : addRange(sel, i, i);
}

/** Binary search: word rendering asks this for every visible word. */
export function isSelected(sel: Selection, i: number): boolean {
  let lo = 0;
  let hi = sel.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = sel[mid]!;
    if (i < r.start) hi = mid - 1;
    else if (i > r.end) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Number of selected words. */
export function selectionSize(sel: Selection): number {
  let size = 0;
  for (const r of sel) size += r.end - r.start + 1;
  return size;
}

/** Every selected index, ascending. */
export function selectedIndices(sel: Selection): number[] {
  const out: number[] = [];
  for (const r of sel) for (let i = r.start; i <= r.end; i++) out.push(i);
  return out;
}

/** First..last selected word, or null when nothing is selected. */
export function selectionBounds(sel: Selection): WordRange | null {
  const first = sel[0];
  const last = sel[sel.length - 1];
  return first && last ? { start: first.start, end: last.end } : null;
}

/** True for exactly one run of words (keep selection needs it). */
export function isContiguous(sel: Selection): boolean {
  return sel.length === 1;
}

/** The part of the selection inside 0..wordCount-1 (after an edit removed words). */
export function clampSelection(sel: Selection, wordCount: number): Selection {
  const out: WordRange[] = [];
  for (const r of sel) {
    const start = Math.max(0, r.start);
    const end = Math.min(wordCount - 1, r.end);
    if (start <= end) out.push(start === r.start && end === r.end ? r : { start, end });
  }
  return out;
}

/**
 * First..last index of the paragraph holding word i (its lowest and highest index), or null.
 * A linear scan: it runs once per click and does not rely on the paragraphs being sorted.
 */
function paragraphBounds(paragraphs: readonly Pick<Paragraph, 'wordIndices'>[], i: number): WordRange | null {
  for (const p of paragraphs) {
    const first = p.wordIndices[0];
    const last = p.wordIndices[p.wordIndices.length - 1];
    if (first !== undefined && last !== undefined && first <= i && i <= last) return { start: first, end: last };
  }
  return null;
}

/** The paragraph holding word i; i..i when no paragraph holds it. */
export function paragraphRange(paragraphs: readonly Pick<Paragraph, 'wordIndices'>[], i: number): WordRange {
  return paragraphBounds(paragraphs, i) ?? { start: i, end: i };
}

/**
 * The sentence holding word i: from the word after the previous sentence end up to the next word
 * that ends a sentence (isSentenceEnd), never leaving i's paragraph (a paragraph break ends a
 * sentence even without punctuation, e.g. in unpunctuated auto-captions). Without a paragraph
 * holding i, the whole word list bounds the sentence.
 */
export function sentenceRange(
  words: readonly Pick<Word, 'text'>[],
  paragraphs: readonly Pick<Paragraph, 'wordIndices'>[],
  i: number,
): WordRange {
  const bounds = paragraphBounds(paragraphs, i) ?? { start: 0, end: words.length - 1 };
  let start = i;
  while (start > bounds.start && !isSentenceEnd(words[start - 1]?.text ?? '')) start--;
  let end = i;
  while (end < bounds.end && !isSentenceEnd(words[end]?.text ?? '')) end++;
  return { start, end };
}

/**
 * Triple click: the sentence first; a triple click on the already selected sentence
 * widens to the paragraph.
 */
export function tripleClickRange(
  words: readonly Pick<Word, 'text'>[],
  paragraphs: readonly Pick<Paragraph, 'wordIndices'>[],
  i: number,
  current: Selection,
): WordRange {
  const sentence = sentenceRange(words, paragraphs, i);
  const only = current.length === 1 ? current[0]! : undefined;
  const sentenceSelected = only !== undefined && only.start === sentence.start && only.end === sentence.end;
  // a sentence that is the whole paragraph already equals the paragraph range; without a
  // paragraph there is nothing wider than the sentence
  return sentenceSelected ? (paragraphBounds(paragraphs, i) ?? sentence) : sentence;
}

/** A press becomes a drag once the pointer moved more than DRAG_THRESHOLD_PX (hand jitter stays a click). */
export function isDrag(dx: number, dy: number): boolean {
  return Math.hypot(dx, dy) > DRAG_THRESHOLD_PX;
}

/** The clipboard text of a selection: the words' texts joined by single spaces (gaps too). */
export function selectionText(words: readonly Pick<Word, 'text'>[], sel: Selection): string {
  const parts: string[] = [];
  for (const r of sel) {
    for (let i = Math.max(0, r.start); i <= r.end && i < words.length; i++) parts.push(words[i]!.text);
  }
  return parts.join(' ');
}
