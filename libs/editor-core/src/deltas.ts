import type { Word, WordDelta } from '@wordcut/contracts';
import { applyWordDeltas, INSERTED_WORD_CONFIDENCE, splitWords, type TranscriptContent } from '@wordcut/transcript';
import { roundMs } from './round';

/** Confidence of a word a person typed: it is what they meant, whatever the recogniser heard. */
const TYPED_WORD_CONFIDENCE = 1;

type WordChanges = Partial<Pick<Word, 'text' | 'start' | 'end' | 'confidence'>>;
type NewWord = Pick<Word, 'text' | 'start' | 'end' | 'confidence'>;

function sameWord(a: Word, b: Word): boolean {
  return a.text === b.text && a.start === b.start && a.end === b.end && a.confidence === b.confidence;
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, k) => x === b[k]);
}

/** Equal as a save compares them: words, paragraph membership and filler indices. */
function sameContent(a: TranscriptContent, b: TranscriptContent): boolean {
  return (
    a.words.length === b.words.length &&
    a.words.every((w, k) => sameWord(w, b.words[k]!)) &&
    a.paragraphs.length === b.paragraphs.length &&
    a.paragraphs.every((p, k) => sameNumbers(p.wordIndices, b.paragraphs[k]!.wordIndices)) &&
    sameNumbers(a.fillerWords, b.fillerWords)
  );
}

/** The fields of `to` that differ from `from` (empty when none do). */
function changedFields(from: Word, to: Word): WordChanges {
  const changes: WordChanges = {};
  if (from.text !== to.text) changes.text = to.text;
  if (from.start !== to.start) changes.start = to.start;
  if (from.end !== to.end) changes.end = to.end;
  if (from.confidence !== to.confidence) changes.confidence = to.confidence;
  return changes;
}

const newWord = (w: NewWord): NewWord => ({ text: w.text, start: w.start, end: w.end, confidence: w.confidence });

/**
 * Deltas turning old words into new ones through their common prefix/suffix splice: the differing
 * middle is changed position by position, surplus old words are deleted, surplus new words are
 * inserted after the last old word kept in place.
 */
function spliceDeltas(old: readonly Word[], next: readonly Word[]): WordDelta[] {
  const shorter = Math.min(old.length, next.length);
  let prefix = 0;
  while (prefix < shorter && sameWord(old[prefix]!, next[prefix]!)) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && sameWord(old[old.length - 1 - suffix]!, next[next.length - 1 - suffix]!)) suffix++;
  const oldCount = old.length - prefix - suffix;
  const newCount = next.length - prefix - suffix;
  const paired = Math.min(oldCount, newCount);
  const deltas: WordDelta[] = [];
  for (let k = 0; k < paired; k++) {
    const changes = changedFields(old[prefix + k]!, next[prefix + k]!);
    if (Object.keys(changes).length > 0) deltas.push({ word_order: old[prefix + k]!.word_order, changes });
  }
  for (let k = paired; k < oldCount; k++) deltas.push({ word_order: old[prefix + k]!.word_order, delete: true });
  if (newCount > paired) {
    const anchor = old[prefix + paired - 1];
    deltas.push({ word_order: anchor ? anchor.word_order : -1, insertAfter: next.slice(prefix + paired, prefix + newCount).map(newWord) });
  }
  return deltas;
}

/**
 * The word deltas that save `after` on a server holding `before` (a much smaller PATCH than a full
 * replacement of a long transcript). They come from the common prefix/suffix splice and are then
 * verified with the server's own applyWordDeltas; null when the result would differ (filler indices
 * set by hand, a paragraph boundary deltas cannot express...): the caller sends a full replacement.
 * [] when nothing changed.
 */
export function deltasBetween(before: TranscriptContent, after: TranscriptContent): WordDelta[] | null {
  if (sameContent(before, after)) return [];
  const deltas = spliceDeltas(before.words, after.words);
  // the words are equal, so only paragraphs or fillers differ: no delta expresses that
  if (deltas.length === 0) return null;
  let applied: TranscriptContent;
  try {
    applied = applyWordDeltas(before, deltas);
  } catch {
    return null;
  }
  return sameContent(applied, after) ? deltas : null;
}

function checkRun(words: readonly Word[], first: number, last: number): void {
  if (!(Number.isInteger(first) && Number.isInteger(last) && first >= 0 && first <= last && last < words.length)) {
    throw new RangeError(`words ${first}..${last} are not a run of the transcript's ${words.length} words`);
  }
}

/**
 * Times of tokens sharing start..end in proportion to their character length (a longer word takes
 * longer to say): contiguous, boundaries rounded to the millisecond, the last token ends at `end`.
 */
function spreadTimes(tokens: readonly string[], start: number, end: number): { start: number; end: number }[] {
  const totalChars = tokens.reduce((sum, t) => sum + t.length, 0);
  const out: { start: number; end: number }[] = [];
  let chars = 0;
  let from = start;
  tokens.forEach((token, k) => {
    chars += token.length;
    const to = k === tokens.length - 1 ? end : Math.min(end, Math.max(from, roundMs(start + ((end - start) * chars) / totalChars)));
    out.push({ start: from, end: to });
    from = to;
  });
  return out;
}

/**
 * Replace words first..last by the whitespace-separated tokens of `text` (word edit, search
 * replace). Same token count: only the texts that differ change, times are kept. Otherwise the
 * run's time span is shared among the tokens by character length; the run's words are reused in
 * order, surplus ones deleted, extra tokens inserted after the last reused word. No tokens deletes
 * the run. Typed words get confidence 1. Throws RangeError when first..last is not a run of words.
 */
export function replaceRunDeltas(words: readonly Word[], first: number, last: number, text: string): WordDelta[] {
  checkRun(words, first, last);
  const run = words.slice(first, last + 1);
  const tokens = splitWords(text);
  if (tokens.length === run.length) {
    return run.flatMap((w, k): WordDelta[] =>
      w.text === tokens[k] ? [] : [{ word_order: w.word_order, changes: { text: tokens[k]!, confidence: TYPED_WORD_CONFIDENCE } }],
    );
  }
  const times = spreadTimes(tokens, run[0]!.start, run[run.length - 1]!.end);
  const reused = Math.min(tokens.length, run.length);
  const deltas: WordDelta[] = [];
  for (let k = 0; k < reused; k++) {
    deltas.push({ word_order: run[k]!.word_order, changes: { text: tokens[k]!, ...times[k]!, confidence: TYPED_WORD_CONFIDENCE } });
  }
  for (let k = reused; k < run.length; k++) deltas.push({ word_order: run[k]!.word_order, delete: true });
  if (tokens.length > reused) {
    const extra = tokens.slice(reused).map((token, k) => ({ text: token, ...times[reused + k]!, confidence: TYPED_WORD_CONFIDENCE }));
    deltas.push({ word_order: run[reused - 1]!.word_order, insertAfter: extra });
  }
  return deltas;
}

/** Delete the words at these indices (any order, duplicates ignored). Throws RangeError for an index with no word. */
export function deleteWordsDeltas(indices: readonly number[], words: readonly Word[]): WordDelta[] {
  return [...new Set(indices)]
    .sort((a, b) => a - b)
    .map((i) => {
      const word = words[i];
      if (!word) throw new RangeError(`there is no word ${i} (the transcript has ${words.length} words)`);
      return { word_order: word.word_order, delete: true as const };
    });
}

/**
 * Paste: the clipboard's whitespace-separated words inserted after word afterIndex
 * (-1: before the first word), each with confidence 0.9 and zero length at the end of the word
 * they follow (0 at the very start), since nobody said them. Null for empty or blank text (ignored).
 * Throws RangeError when afterIndex names no word of a non-empty transcript.
 */
export function pasteDeltas(words: readonly Word[], afterIndex: number, clipboardText: string): WordDelta[] | null {
  const tokens = splitWords(clipboardText);
  if (tokens.length === 0) return null;
  const anchor = afterIndex === -1 || words.length === 0 ? undefined : words[afterIndex];
  if (anchor === undefined && afterIndex !== -1 && words.length > 0) {
    throw new RangeError(`there is no word ${afterIndex} to paste after (the transcript has ${words.length} words)`);
  }
  const at = anchor ? anchor.end : 0;
  return [
    {
      word_order: anchor ? anchor.word_order : -1,
      insertAfter: tokens.map((text) => ({ text, start: at, end: at, confidence: INSERTED_WORD_CONFIDENCE })),
    },
  ];
}

/**
 * Apply deltas locally with the server's own function, so the optimistic state shown right away
 * is exactly what the server stores. Throws TranscriptEditError like the server would reject.
 */
export function applyEdit(content: TranscriptContent, deltas: readonly WordDelta[]): TranscriptContent {
  return applyWordDeltas(content, deltas);
}
