import type { Word } from '@wordcut/contracts';
import { roundMs } from './round';
import { clampSelection, type Selection } from './selection';

/** Gaps this small at both ends mean the selection covers the whole video. */
export const KEEP_EDGE_TOLERANCE_SECONDS = 0.1;

export type KeepCheck =
  | { ok: true; start: number; end: number; cuts: { start: number; end: number }[] }
  | { ok: false; reason: 'empty' | 'not-contiguous' | 'whole-video' };

/** Toast texts of a refused keep selection. */
export const KEEP_MESSAGES = Object.freeze({
  notContiguousTitle: 'Selection must be contiguous',
  notContiguousDescription:
    'Keep selection requires a contiguous selection with no gaps between words. Please select a continuous range of text.',
  wholeVideoTitle: 'Selection covers entire video',
});

/**
 * Validate "keep selection": the selection must be one run of words that does not
 * span the whole video. When it is valid, the video outside the words' time span is cut: [0, start]
 * and [end, duration], each only when it is longer than the edge tolerance (a sliver at an edge is
 * silence, not content). Selected indices with no word are ignored.
 */
export function checkKeepSelection(words: readonly Pick<Word, 'start' | 'end'>[], sel: Selection, duration: number): KeepCheck {
  const ranges = clampSelection(sel, words.length);
  const range = ranges[0];
  if (!range) return { ok: false, reason: 'empty' };
  if (ranges.length > 1) return { ok: false, reason: 'not-contiguous' };
  const start = words[range.start]!.start;
  const end = words[range.end]!.end;
  // compared to the millisecond: a 0.1 s gap such as 1.3 - 1.2 is 0.10000000000000009
  const cutHead = roundMs(start) > KEEP_EDGE_TOLERANCE_SECONDS;
  const cutTail = roundMs(duration - end) > KEEP_EDGE_TOLERANCE_SECONDS;
  if (!cutHead && !cutTail) return { ok: false, reason: 'whole-video' };
  const cuts: { start: number; end: number }[] = [];
  if (cutHead) cuts.push({ start: 0, end: start });
  if (cutTail) cuts.push({ start: end, end: duration });
  return { ok: true, start, end, cuts };
}
