import type { Paragraph, Transcript, Word } from '@wordcut/contracts';
import { wordIndexAt } from '@wordcut/transcript';

/** Pure helpers of the transcript list: text direction, confidence colours, rows and keyboard moves. */

/**
 * Languages shown right to left, by primary subtag. Mirrors RTL_LANGUAGES of
 * @wordcut/contracts; kept here so the render path does not pull in the zod schemas.
 */
export const RTL_PRIMARY_SUBTAGS: ReadonlySet<string> = new Set(['ar', 'fa', 'he', 'ur', 'dv', 'ku', 'ps', 'sd', 'ae']);

/** The primary subtag of a BCP 47 code ('ar-EG' -> 'ar', 'he_IL' -> 'he'), lower case. */
export function primarySubtag(languageCode: string | null | undefined): string {
  return (languageCode ?? '').trim().split(/[-_]/)[0]!.toLowerCase();
}

export function isRtlLanguage(languageCode: string | null | undefined): boolean {
  return RTL_PRIMARY_SUBTAGS.has(primarySubtag(languageCode));
}

export function textDirection(languageCode: string | null | undefined): 'rtl' | 'ltr' {
  return isRtlLanguage(languageCode) ? 'rtl' : 'ltr';
}

export type ConfidenceLevel = 'good' | 'medium' | 'low';

/** A word's confidence colour: at least 0.8 is good, at least 0.5 medium, else low. */
export function confidenceLevel(confidence: number): ConfidenceLevel {
  if (confidence >= 0.8) return 'good';
  if (confidence >= 0.5) return 'medium';
  return 'low';
}

/** One row of the virtualised list. */
export interface ParagraphRow {
  /** index of the row */
  index: number;
  start: number;
  end: number;
  /** indices into the transcript's words, in order */
  wordIndices: readonly number[];
}

/**
 * The rows to list: the transcript's paragraphs (word indices out of range are dropped), or,
 * when it has none, the words grouped by group_number in order of appearance.
 */
export function paragraphRows(transcript: Pick<Transcript, 'words' | 'paragraphs'>): ParagraphRow[] {
  const { words, paragraphs } = transcript;
  const source: Array<Pick<Paragraph, 'start' | 'end' | 'wordIndices'>> =
    paragraphs.length > 0 ? paragraphs : groupWords(words);
  const rows: ParagraphRow[] = [];
  for (const p of source) {
    const wordIndices = p.wordIndices.filter((i) => i >= 0 && i < words.length);
    if (wordIndices.length === 0) continue;
    rows.push({ index: rows.length, start: p.start, end: p.end, wordIndices });
  }
  return rows;
}

function groupWords(words: readonly Word[]): Array<Pick<Paragraph, 'start' | 'end' | 'wordIndices'>> {
  const groups: Array<{ start: number; end: number; wordIndices: number[] }> = [];
  let current: { group: number; start: number; end: number; wordIndices: number[] } | null = null;
  words.forEach((word, i) => {
    if (!current || current.group !== word.group_number) {
      current = { group: word.group_number, start: word.start, end: word.end, wordIndices: [] };
      groups.push(current);
    }
    current.wordIndices.push(i);
    current.end = Math.max(current.end, word.end);
  });
  return groups;
}

/** For each word index, the row that lists it (-1 when no row does). */
export function rowOfWord(rows: readonly ParagraphRow[], wordCount: number): Int32Array {
  const map = new Int32Array(wordCount).fill(-1);
  for (const row of rows) for (const i of row.wordIndices) map[i] = row.index;
  return map;
}

/**
 * The word being spoken at `time`: the last word that starts at or before `time`, while
 * `time` is before its end (gaps between words give -1). Words must be ordered by start.
 */
export function wordAtTime(words: readonly Pick<Word, 'start' | 'end'>[], time: number): number {
  return wordIndexAt(words, time);
}

/** The word index keyboard navigation moves to from `from` (clamped to the transcript). */
export function nextWordIndex(
  key: string,
  from: number,
  rows: readonly ParagraphRow[],
  rowIndexOfWord: Int32Array,
  rtl: boolean,
): number | null {
  const count = rowIndexOfWord.length;
  if (count === 0 || rows.length === 0) return null;
  const forward = rtl ? 'ArrowLeft' : 'ArrowRight';
  const backward = rtl ? 'ArrowRight' : 'ArrowLeft';
  const flat = rows.flatMap((r) => r.wordIndices);
  const pos = Math.max(0, flat.indexOf(from));
  const row = rowIndexOfWord[from] ?? -1;
  switch (key) {
    case forward:
      return flat[Math.min(flat.length - 1, pos + 1)]!;
    case backward:
      return flat[Math.max(0, pos - 1)]!;
    case 'ArrowDown':
      return rows[Math.min(rows.length - 1, Math.max(0, row + 1))]!.wordIndices[0]!;
    case 'ArrowUp':
      return rows[Math.max(0, row - 1)]!.wordIndices[0]!;
    case 'Home':
      return flat[0]!;
    case 'End':
      return flat[flat.length - 1]!;
    default:
      return null;
  }
}
