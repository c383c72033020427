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

type CueWord = Pick<Word, 'text' | 'start' | 'end' | 'group_number'>;

/** A caption cue: its words, from the first's start to the last's end. */
interface WordCue {
  words: CueWord[];
  start: number;
  end: number;
}

/**
 * Timed words as caption cues: a cue never crosses a paragraph or a pause over `maxGapSec`, holds
 * at most `maxCueChars` characters, and ends at a sentence end once past half of that.
 */
function wordCues(words: readonly CueWord[], o: Pick<VttExportOptions, 'maxCueChars' | 'maxGapSec'>): WordCue[] {
  const maxChars = o.maxCueChars ?? 80;
  const maxGap = o.maxGapSec ?? 1;
  const cues: WordCue[] = [];
  let cue: CueWord[] = [];
  let chars = 0;
  const flush = (): void => {
    if (cue.length === 0) return;
    const start = cue[0]!.start;
    cues.push({ words: cue, start, end: Math.max(...cue.map((w) => w.end), start + 0.001) });
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
  return cues;
}

/**
 * A WebVTT file of timed words (cues as wordCues makes them); every word after the first carries
 * an inline timestamp, so reading the file back (libs/transcript parseVtt) gives the same word times.
 */
export function wordsToVtt(words: readonly CueWord[], o: VttExportOptions = {}): string {
  const out: string[] = ['WEBVTT'];
  if (o.languageCode) out.push(`Language: ${o.languageCode}`);
  out.push('');
  for (const cue of wordCues(words, o)) {
    const text = cue.words.map((w, i) => (i === 0 ? vttEscape(w.text) : `<${vttTimestamp(w.start)}>${vttEscape(w.text)}`)).join(' ');
    out.push(`${vttTimestamp(cue.start)} --> ${vttTimestamp(cue.end)}`, text, '');
  }
  return out.join('\n');
}

/** `HH:MM:SS,mmm` as SubRip writes times (WebVTT's, with a comma). */
export function srtTimestamp(sec: number): string {
  return vttTimestamp(sec).replace('.', ',');
}

/** SubRip (.srt) of timed words: the same cues as WebVTT, numbered, plain text (no word timing), CRLF line ends. */
export function wordsToSrt(words: readonly CueWord[], o: Pick<VttExportOptions, 'maxCueChars' | 'maxGapSec'> = {}): string {
  const out: string[] = [];
  wordCues(words, o).forEach((cue, k) => {
    out.push(String(k + 1), `${srtTimestamp(cue.start)} --> ${srtTimestamp(cue.end)}`, cue.words.map((w) => w.text.replace(/[\r\n]+/g, ' ').trim()).join(' '), '');
  });
  return out.join('\r\n');
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
