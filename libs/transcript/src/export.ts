import type { Paragraph, Word, WordByWordFile } from '@wordcut/contracts';
import { isSentenceEnd } from './text';

/** `HH:MM:SS.mmm` as WebVTT wants it. */
export function vttTimestamp(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;
}

/** Cue text safe in WebVTT: `&`, `<` and `>` escaped, no line breaks, no `-->`. */
export function vttEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/[\r\n]+/g, ' ');
}

export interface VttExportOptions {
  /** Characters per cue before a new cue starts. Default 80. */
  maxCueChars?: number;
  /** A pause this long starts a new cue. Default 1 s. */
  maxGapSec?: number;
  /** Language written in the header (`Language: xx`). */
  languageCode?: string;
}

/**
 * A WebVTT file of timed words: cues never cross a paragraph or a long pause and end at sentence
 * ends when long enough; every word after the first carries an inline timestamp, so reading the
 * file back (libs/transcript parseVtt) gives the same word times.
 */
export function wordsToVtt(words: readonly Pick<Word, 'text' | 'start' | 'end' | 'group_number'>[], o: VttExportOptions = {}): string {
  const maxChars = o.maxCueChars ?? 80;
  const maxGap = o.maxGapSec ?? 1;
  const out: string[] = ['WEBVTT'];
  if (o.languageCode) out.push(`Language: ${o.languageCode}`);
  out.push('');
  let cue: Array<Pick<Word, 'text' | 'start' | 'end' | 'group_number'>> = [];
  let chars = 0;
  const flush = (): void => {
    if (cue.length === 0) return;
    const start = cue[0]!.start;
    const end = Math.max(...cue.map((w) => w.end), start + 0.001);
    const text = cue.map((w, i) => (i === 0 ? vttEscape(w.text) : `<${vttTimestamp(w.start)}>${vttEscape(w.text)}`)).join(' ');
    out.push(`${vttTimestamp(start)} --> ${vttTimestamp(end)}`, text, '');
    cue = [];
    chars = 0;
  };
  for (const w of words) {
    if (!w.text.trim()) continue;
    const prev = cue[cue.length - 1];
    if (prev && (prev.group_number !== w.group_number || w.start - prev.end > maxGap || chars + w.text.length + 1 > maxChars)) flush();
    cue.push(w);
    chars += w.text.length + 1;
    if (isSentenceEnd(w.text) && chars > maxChars / 2) flush();
  }
  flush();
  return out.join('\n');
}

/** The provider's word-by-word JSON for timed words. */
export function wordsToWordByWord(words: readonly Pick<Word, 'text' | 'start' | 'end' | 'confidence'>[], languageCode: string): WordByWordFile {
  return { languageCode, words: words.map((w) => ({ text: w.text, start: w.start, end: w.end, confidence: w.confidence })) };
}

/**
 * Paragraphs from the words' group numbers (runs of one group form a paragraph), with groups
 * renumbered 0..n-1 in play order: what a transcript looks like after words were removed or moved.
 */
export function regroupWords<W extends Pick<Word, 'start' | 'end' | 'group_number'>>(words: readonly W[]): { words: W[]; paragraphs: Paragraph[] } {
  const out: W[] = [];
  const paragraphs: Paragraph[] = [];
  let lastGroup: number | null = null;
  for (const w of words) {
    if (lastGroup === null || w.group_number !== lastGroup) {
      paragraphs.push({ start: w.start, end: w.end, wordIndices: [], groupNumber: paragraphs.length });
      lastGroup = w.group_number;
    }
    const p = paragraphs[paragraphs.length - 1]!;
    const i = out.length;
    out.push({ ...w, group_number: p.groupNumber!, word_order: i });
    p.wordIndices.push(i);
    p.end = Math.max(p.end, w.end);
  }
  return { words: out, paragraphs };
}
