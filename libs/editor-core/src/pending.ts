import type { Word } from '@wordcut/contracts';
import { mergeRanges, type MuteLevel } from '@wordcut/edit-list';
import { countAfter, indicesAfter, lowerBound, type OriginRun } from '@wordcut/transcript';
import { roundMs } from './round';

/** Words marked for cutting, not yet processed: one run of consecutive words. */
export interface PendingCut {
  id: string;
  wordIndices: number[];
  startTime: number;
  endTime: number;
  text: string;
}

/** Words marked for muting at one level: one run of consecutive words. */
export interface PendingMute extends PendingCut {
  level: MuteLevel;
}

/** Cuts closer than this are merged for playback skipping, which also jumps this far past the end. */
export const CUT_MERGE_GAP_SECONDS = 0.1;

/** Mute level codes in a word mark (bits 2-3); 0 means not muted. */
export const MUTE_LEVEL_CODE: Readonly<Record<MuteLevel, 1 | 2 | 3>> = Object.freeze({ silence: 1, whisper: 2, background: 3 });
const LEVEL_OF_CODE: readonly (MuteLevel | null)[] = [null, 'silence', 'whisper', 'background'];

type Timed = Pick<Word, 'text' | 'start' | 'end'>;

/** Sorted unique indices grouped into runs of consecutive indices ([5, 1, 2, 2] -> [[1, 2], [5]]). */
export function runsOf(indices: readonly number[]): number[][] {
  const runs: number[][] = [];
  for (const i of [...new Set(indices)].sort((a, b) => a - b)) {
    const run = runs[runs.length - 1];
    if (run && run[run.length - 1] === i - 1) run.push(i);
    else runs.push([i]);
  }
  return runs;
}

function isWordIndex(i: number, words: readonly Timed[]): boolean {
  return Number.isInteger(i) && i >= 0 && i < words.length;
}

/** Times and text of a run of words (ascending indices, all existing). */
function describeRun(words: readonly Timed[], run: number[]): Omit<PendingCut, 'id'> {
  return {
    wordIndices: run,
    startTime: words[run[0]!]!.start,
    endTime: words[run[run.length - 1]!]!.end,
    text: run.map((i) => words[i]!.text).join(' '),
  };
}

function byStart<T extends PendingCut>(items: T[]): T[] {
  return items.sort((a, b) => a.startTime - b.startTime);
}

function cutsOf(words: readonly Timed[], indices: readonly number[]): PendingCut[] {
  const runs = runsOf(indices.filter((i) => isWordIndex(i, words)));
  return byStart(runs.map((run) => ({ id: `cut-${run[0]}-${run[run.length - 1]}`, ...describeRun(words, run) })));
}

/** Mark words for cutting: the union with the cuts already marked, one cut per run of consecutive words. Indices with no word are ignored. */
export function markCuts(cuts: readonly PendingCut[], words: readonly Timed[], indices: readonly number[]): PendingCut[] {
  return cutsOf(words, [...cuts.flatMap((c) => c.wordIndices), ...indices]);
}

/** Unmark words: a cut loses them, and splits in two when they were in its middle. */
export function unmarkCuts(cuts: readonly PendingCut[], words: readonly Timed[], indices: readonly number[]): PendingCut[] {
  const removed = new Set(indices);
  return cutsOf(words, cuts.flatMap((c) => c.wordIndices).filter((i) => !removed.has(i)));
}

function levelsOf(mutes: readonly PendingMute[]): Map<number, MuteLevel> {
  const levels = new Map<number, MuteLevel>();
  for (const mute of mutes) for (const i of mute.wordIndices) levels.set(i, mute.level);
  return levels;
}

/** One mute per run of consecutive words at the same level, sorted by start. */
function mutesOf(words: readonly Timed[], levels: ReadonlyMap<number, MuteLevel>): PendingMute[] {
  const mutes: PendingMute[] = [];
  let run: number[] = [];
  let level: MuteLevel | undefined;
  const flush = () => {
    if (run.length > 0 && level) mutes.push({ id: `mute-${run[0]}-${run[run.length - 1]}`, ...describeRun(words, run), level });
  };
  const indices = [...levels.keys()].filter((i) => isWordIndex(i, words)).sort((a, b) => a - b);
  for (const i of indices) {
    const l = levels.get(i)!;
    if (run.length > 0 && run[run.length - 1] === i - 1 && l === level) {
      run.push(i);
    } else {
      flush();
      run = [i];
      level = l;
    }
  }
  flush();
  return byStart(mutes);
}

/** Mark words for muting at `level` (a word has one level: this replaces any other). Indices with no word are ignored. */
export function markMutes(mutes: readonly PendingMute[], words: readonly Timed[], indices: readonly number[], level: MuteLevel): PendingMute[] {
  const levels = levelsOf(mutes);
  for (const i of indices) levels.set(i, level);
  return mutesOf(words, levels);
}

/** Unmute words (Shift+M); a mute splits in two when they were in its middle. */
export function unmarkMutes(mutes: readonly PendingMute[], words: readonly Timed[], indices: readonly number[]): PendingMute[] {
  const levels = levelsOf(mutes);
  for (const i of indices) levels.delete(i);
  return mutesOf(words, levels);
}

/**
 * One byte per word for rendering 30,000 words without set lookups: bit 1 = pending cut, bits 2-3 =
 * mute level code (MUTE_LEVEL_CODE), i.e. (cut ? 1 : 0) | (code << 1).
 */
export function wordMarks(cuts: readonly PendingCut[], mutes: readonly PendingMute[], wordCount: number): Uint8Array {
  const marks = new Uint8Array(wordCount);
  for (const cut of cuts) for (const i of cut.wordIndices) if (i >= 0 && i < wordCount) marks[i] = marks[i]! | 1;
  for (const mute of mutes) {
    const code = MUTE_LEVEL_CODE[mute.level];
    for (const i of mute.wordIndices) if (i >= 0 && i < wordCount) marks[i] = (marks[i]! & 1) | (code << 1);
  }
  return marks;
}

/** The mute level in a word mark, or null when the word is not muted. */
export function muteLevelOfMark(mark: number): MuteLevel | null {
  return LEVEL_OF_CODE[(mark >> 1) & 3] ?? null;
}

/** True when the word mark says pending cut. */
export function isCutMark(mark: number): boolean {
  return (mark & 1) === 1;
}

/** First position whose value is >= x (or > x when `after`), in ascending values. */
function bound(values: readonly number[], x: number, after: boolean): number {
  return lowerBound(values, (v) => !(v < x || (after && v === x)));
}

/**
 * Follow pending items through a transcript change (an edit moved word indices): an item keeps
 * its time range and now holds the words whose midpoint lies in [startTime, endTime]; its text is
 * recomputed and items left without words are dropped. Times, unlike indices, survive edits.
 */
export function remapPending<T extends PendingCut>(items: readonly T[], words: readonly Timed[]): T[] {
  const mids = words.map((w) => (w.start + w.end) / 2);
  const ascending = mids.every((m, k) => k === 0 || m >= mids[k - 1]!);
  const inside = (item: T): number[] => {
    if (!ascending) return mids.flatMap((m, i) => (m >= item.startTime && m <= item.endTime ? [i] : []));
    const from = bound(mids, item.startTime, false);
    const to = bound(mids, item.endTime, true);
    return Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k);
  };
  return items.flatMap((item) => {
    const wordIndices = inside(item);
    if (wordIndices.length === 0) return [];
    return [{ ...item, wordIndices, text: wordIndices.map((i) => words[i]!.text).join(' ') }];
  });
}

/**
 * Ranges sorted by start, merged when the gap between them is at most maxGap seconds (compared to
 * the millisecond, so float noise does not split two cuts 0.1 s apart).
 */
export function mergeCloseRanges(ranges: readonly { start: number; end: number }[], maxGap = CUT_MERGE_GAP_SECONDS): { start: number; end: number }[] {
  return mergeRanges(ranges, maxGap, roundMs);
}

/** The apply-cuts payload: the cuts' time ranges, sorted, overlapping (or touching) ones merged. */
export function cutRanges(cuts: readonly PendingCut[]): { start: number; end: number }[] {
  return mergeCloseRanges(cuts.map((c) => ({ start: c.startTime, end: c.endTime })), 0);
}

/** The mute confirmation lists the first `max` regions, then 'and N more'. */
export function summarizeList<T>(items: readonly T[], max = 5): { shown: T[]; more: number } {
  return { shown: items.slice(0, max), more: Math.max(0, items.length - max) };
}

/** Pending marks carried through a render that kept some of the words (their origin runs). */
export interface MarksThrough {
  cuts: PendingCut[];
  mutes: PendingMute[];
  /** mutes whose every word the render removed (they went with their words) */
  droppedMutes: number;
  /** cut marks whose every word the render removed */
  droppedCuts: number;
}

/**
 * Pending cuts and mutes after a render (a cut, filler or silence removal, a reorder) that kept
 * the words `runs` names: each mark keeps the words that survived, at their new indices and
 * times; a mark left without words goes and is counted. Null when the runs are not a map of
 * `countBefore` words onto `wordsAfter`.
 */
export function mapPendingThrough(
  marks: { cuts: readonly PendingCut[]; mutes: readonly PendingMute[] },
  runs: readonly OriginRun[],
  countBefore: number,
  wordsAfter: readonly Timed[],
): MarksThrough | null {
  const after = indicesAfter(runs, countBefore);
  if (!after || countAfter(runs) !== wordsAfter.length) return null;
  const moved = (i: number): number => (Number.isInteger(i) && i >= 0 && i < countBefore ? after[i]! : -1);
  let droppedCuts = 0;
  const cutIndices: number[] = [];
  for (const cut of marks.cuts) {
    const kept = cut.wordIndices.map(moved).filter((i) => i >= 0);
    if (kept.length === 0) droppedCuts++;
    cutIndices.push(...kept);
  }
  let droppedMutes = 0;
  const levels = new Map<number, MuteLevel>();
  for (const mute of marks.mutes) {
    const kept = mute.wordIndices.map(moved).filter((i) => i >= 0);
    if (kept.length === 0) droppedMutes++;
    for (const i of kept) levels.set(i, mute.level);
  }
  return { cuts: cutsOf(wordsAfter, cutIndices), mutes: mutesOf(wordsAfter, levels), droppedCuts, droppedMutes };
}
