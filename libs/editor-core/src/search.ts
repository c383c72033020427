import type { Word, WordDelta } from '@wordcut/contracts';
import { lowerBound } from '@wordcut/transcript';
import { replaceRunDeltas } from './deltas';

/** Search runs this long after typing stops. */
export const SEARCH_DEBOUNCE_MS = 300;
/** After jumping to a result, follow-playback scrolling stays off this long. */
export const SEARCH_SCROLL_SUPPRESS_MS = 3000;

/**
 * A search result covering words first..last: it starts at character startOffset of
 * words[first].text and ends before character endOffset of words[last].text.
 */
export interface SearchMatch {
  first: number;
  last: number;
  startOffset: number;
  endOffset: number;
}

/**
 * Lower case that never changes a string's length, so offsets in the folded text are offsets in
 * the original ('İ' lower-cases to two code units and is kept as is, as is any such character).
 */
function foldCase(text: string): string {
  const lower = text.toLocaleLowerCase();
  if (lower.length === text.length) return lower;
  let out = '';
  for (const ch of text) {
    const l = ch.toLocaleLowerCase();
    out += l.length === ch.length ? l : ch;
  }
  return out;
}

/** The words joined by single spaces, case-folded, and where each word starts in it. */
function searchText(words: readonly Pick<Word, 'text'>[]): { text: string; starts: Int32Array } {
  const starts = new Int32Array(words.length);
  let offset = 0;
  const parts = words.map((w, i) => {
    starts[i] = offset;
    offset += w.text.length + 1;
    return w.text;
  });
  const joined = parts.join(' ');
  const folded = joined.toLocaleLowerCase();
  // one call for the whole text; lower-casing only ever lengthens characters, so an unchanged
  // total length means every offset is kept (otherwise fold word by word, keeping lengths)
  return { text: folded.length === joined.length ? folded : parts.map(foldCase).join(' '), starts };
}

/** Index of the word holding character `offset` (the separating space counts as the word before it). */
function wordAt(starts: Int32Array, offset: number): number {
  return Math.max(0, lowerBound(starts, (start) => start > offset) - 1);
}

/**
 * Case-insensitive substring search over the words joined by single spaces, so a
 * query may span words. The query is trimmed and its whitespace runs collapsed; an empty query
 * finds nothing. Matches are in order and do not overlap. One pass over one string: fast enough
 * for 30,000 words on every keystroke after the debounce.
 */
export function findMatches(words: readonly Pick<Word, 'text'>[], query: string): SearchMatch[] {
  const needle = foldCase(query.trim().replace(/\s+/g, ' '));
  if (needle === '' || words.length === 0) return [];
  const { text, starts } = searchText(words);
  const matches: SearchMatch[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    const first = wordAt(starts, at);
    const last = wordAt(starts, at + needle.length - 1);
    matches.push({ first, last, startOffset: at - starts[first]!, endOffset: at + needle.length - starts[last]! });
  }
  return matches;
}

/** The toolbar counter: '3 of 12' for the third (index 2) of twelve results, '0 of 0' when none. */
export function matchCounter(index: number, count: number): string {
  return count > 0 ? `${index + 1} of ${count}` : '0 of 0';
}

/** The next (1) or previous (-1) result index, wrapping around at both ends; 0 when there are none. */
export function stepMatch(index: number, count: number, dir: 1 | -1): number {
  if (count <= 0) return 0;
  return (((index + dir) % count) + count) % count;
}

/**
 * Replace the current result only: the words first..last become what precedes the
 * match in the first word, the replacement as typed, and what follows the match in the last word
 * ('Colour,' with 'colour' replaced by 'color' gives 'color,'), saved as a run replacement
 * (replaceRunDeltas). Throws RangeError when the match names words that do not exist.
 */
export function replaceMatchDeltas(words: readonly Word[], match: SearchMatch, replacement: string): WordDelta[] {
  const prefix = words[match.first]?.text.slice(0, match.startOffset) ?? '';
  const suffix = words[match.last]?.text.slice(match.endOffset) ?? '';
  return replaceRunDeltas(words, match.first, match.last, prefix + replacement + suffix);
}
