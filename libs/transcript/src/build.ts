import { MAX_TRANSCRIPT_WORDS, type Paragraph, type Word, type WordByWordFile } from '@wordcut/contracts';
import { TranscriptBuildError } from './errors';
import { detectFillerWords } from './fillers';
import { pickLanguage } from './language';
import { buildParagraphs } from './paragraphs';
import { RollingDeduplicator } from './rolling';
import { normalizeWord, roundTime } from './text';
import { readVtt, type CueToken, type ParsedCue } from './vtt';
import { WarningList, andMore, excerpt, type TranscriptWarning } from './warnings';

/**
 * Confidence of words read from a subtitle file. A caption carries no recognition score: its words
 * are what the captioner wrote, so they are fully trusted (1.0), whether their timing came from
 * inline timestamps or was spread over the cue. (Confidence speaks about the text, not the timing;
 * 0.9 is kept for words typed or pasted in the editor.)
 */
export const VTT_WORD_CONFIDENCE = 1;
/** Confidence of a provider word that has none. */
export const WORD_BY_WORD_DEFAULT_CONFIDENCE = 1;

export interface BuildOptions {
  /** language to use when the file does not name one (e.g. the provider token's languageCode) */
  languageHint?: string;
  /** language to use when neither the file nor the hint does (deployment default); 'en' otherwise */
  defaultLanguage?: string;
}

export interface BuiltTranscript {
  /** normalized BCP 47 tag, e.g. 'en-US' */
  languageCode: string;
  words: Word[];
  paragraphs: Paragraph[];
  /** indices into words */
  fillerWords: number[];
  /**
   * what the import skipped or repaired (a cue whose timing cannot be read, a malformed word, ...),
   * in file order; at most MAX_TRANSCRIPT_WARNINGS of them, then one "… and N more"
   */
  warnings: TranscriptWarning[];
}

type RawWord = Pick<Word, 'text' | 'start' | 'end' | 'confidence'>;

/**
 * Build a transcript from a WebVTT file: words from the cue text (inline timestamps honoured,
 * otherwise the cue's time spread over its words in proportion to their length), rolling
 * duplicate caption lines dropped, paragraphs from sentence ends and pauses, fillers detected.
 * Cues that cannot be read are skipped and listed in `warnings` (see readVtt).
 * Throws TranscriptBuildError: VTT_INVALID (not WebVTT, or nothing readable left) or VTT_EMPTY.
 */
export function buildTranscriptFromVtt(text: string, opts: BuildOptions = {}): BuiltTranscript {
  const vtt = readVtt(text);
  if (vtt.cues.length === 0) {
    throw new TranscriptBuildError(
      'VTT_EMPTY',
      "The subtitle file has no cues: add cues like '00:00:01.000 --> 00:00:04.000' followed by their text.",
    );
  }
  const words = wordsFromCues(vtt.cues);
  if (words.length === 0) {
    throw new TranscriptBuildError('VTT_EMPTY', `The subtitle file has ${vtt.cues.length} cue(s) but none of them has any text.`);
  }
  return assemble(words, pickLanguage(vtt.language, opts.languageHint, opts.defaultLanguage), vtt.warnings);
}

/**
 * Build a transcript from the provider's word-by-word JSON (already parsed). Words keep their
 * times and confidence (default 1.0) and are put in time order; words with blank text are left out.
 * A malformed entry (not an object, text not a string, a start or end that is missing, not a
 * number or negative, an end before the start) is skipped with a warning naming its index in
 * `words` (from 0); a confidence outside 0..1 is replaced by the default, with a warning.
 * Throws TranscriptBuildError: WORDS_INVALID when the file has no `words` array or no usable word,
 * TOO_MANY_WORDS over MAX_TRANSCRIPT_WORDS.
 */
export function buildTranscriptFromWordByWord(file: WordByWordFile, opts: BuildOptions = {}): BuiltTranscript {
  const data: unknown = file;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new TranscriptBuildError('WORDS_INVALID', "The word-by-word file is invalid at file: it must be a JSON object with a 'words' array.");
  }
  const { words: entries, languageCode } = data as { words?: unknown; languageCode?: unknown };
  if (!Array.isArray(entries)) {
    throw new TranscriptBuildError('WORDS_INVALID', `The word-by-word file is invalid at words: ${entries === undefined ? 'it is missing' : 'it must be an array'}.`);
  }
  if (entries.length > MAX_TRANSCRIPT_WORDS) throw tooManyWords(entries.length);
  const warnings = new WarningList();
  if (languageCode !== undefined && languageCode !== null && typeof languageCode !== 'string') {
    warnings.add(null, 'languageCode ignored: it is not a string');
  }
  const words: RawWord[] = [];
  let skipped = 0;
  let firstSkip = '';
  for (let i = 0; i < entries.length; i++) {
    const problem = checkWord(entries[i], i);
    if (problem !== undefined) {
      if (skipped++ === 0) firstSkip = problem;
      warnings.add(null, problem);
      continue;
    }
    const w = entries[i] as { text: string; start: number; end: number; confidence?: unknown };
    const text = w.text.trim();
    if (text === '') continue;
    const confidence = confidenceOf(w.confidence);
    if (w.confidence !== undefined && w.confidence !== null && confidence !== w.confidence) {
      warnings.add(null, `word ${i} ('${excerpt(w.text)}'): its confidence ${excerpt(String(w.confidence))} is not a number from 0 to 1; ${confidence} used`);
    }
    words.push({ text, start: w.start, end: w.end, confidence });
  }
  if (words.length === 0) {
    if (skipped > 0) {
      throw new TranscriptBuildError('WORDS_INVALID', `The word-by-word file has no usable word: ${firstSkip}${andMore(skipped - 1)}.`);
    }
    throw new TranscriptBuildError('WORDS_INVALID', 'The word-by-word file has no words.');
  }
  const language = typeof languageCode === 'string' ? languageCode : undefined;
  return assemble(words, pickLanguage(language, opts.languageHint, opts.defaultLanguage), warnings.toArray());
}

/** Why entry i of `words` cannot be a word (undefined: it can). */
function checkWord(entry: unknown, i: number): string | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return `word ${i} skipped: it is not an object`;
  const w = entry as { text?: unknown; start?: unknown; end?: unknown; confidence?: unknown };
  if (typeof w.text !== 'string') return `word ${i} skipped: its text is ${w.text === undefined ? 'missing' : 'not a string'}`;
  const name = `word ${i} ('${excerpt(w.text)}')`;
  for (const key of ['start', 'end'] as const) {
    const value = w[key];
    if (value === undefined || value === null) return `${name} skipped: it has no ${key} time`;
    if (typeof value !== 'number' || !Number.isFinite(value)) return `${name} skipped: its ${key} time is not a number`;
    if (value < 0) return `${name} skipped: its ${key} time (${value} s) is negative`;
  }
  const start = w.start as number;
  const end = w.end as number;
  if (end < start) return `${name} skipped: it ends (${end} s) before it starts (${start} s)`;
  return undefined;
}

/** A provider confidence, or the default when it has none or it is not a number from 0 to 1. */
function confidenceOf(value: unknown): number {
  return typeof value === 'number' && value >= 0 && value <= 1 ? value : WORD_BY_WORD_DEFAULT_CONFIDENCE;
}

function tooManyWords(count: number): TranscriptBuildError {
  return new TranscriptBuildError(
    'TOO_MANY_WORDS',
    `The captions have ${count.toLocaleString('en-US')} words; WordCut edits transcripts of up to ${MAX_TRANSCRIPT_WORDS.toLocaleString('en-US')} words.`,
  );
}

/** Time order (stable), paragraphs, numbering and fillers. */
function assemble(raw: RawWord[], languageCode: string, warnings: TranscriptWarning[]): BuiltTranscript {
  if (raw.length > MAX_TRANSCRIPT_WORDS) throw tooManyWords(raw.length);
  const ordered = isSortedByStart(raw) ? raw : [...raw].sort((a, b) => a.start - b.start);
  const paragraphs = buildParagraphs(ordered);
  const words: Word[] = new Array<Word>(ordered.length);
  paragraphs.forEach((p, group) => {
    for (const i of p.wordIndices) {
      const w = ordered[i]!;
      words[i] = { text: w.text, start: w.start, end: w.end, confidence: w.confidence, group_number: group, word_order: i };
    }
  });
  return { languageCode, words, paragraphs, fillerWords: detectFillerWords(words), warnings };
}

function isSortedByStart(words: readonly RawWord[]): boolean {
  for (let i = 1; i < words.length; i++) if (words[i]!.start < words[i - 1]!.start) return false;
  return true;
}

/** Words of all cues (in cue order), without rolling repeats. */
function wordsFromCues(cues: readonly ParsedCue[]): RawWord[] {
  const dedupe = new RollingDeduplicator();
  const words: RawWord[] = [];
  for (const cue of cues) {
    if (cue.tokens.length === 0) continue;
    const norms = cue.tokens.map((t) => normalizeWord(t.text));
    const skip = dedupe.overlap(cue.start, norms, cue.tokens);
    const fresh = skip === 0 ? cue.tokens : cue.tokens.slice(skip);
    timeWords(fresh, cue, words);
    dedupe.record(skip === 0 ? norms : norms.slice(skip), cue.end);
  }
  return words;
}

/**
 * Times of a cue's words. Words that share a start (the same inline-timestamp segment, or the
 * whole cue when it has no timestamps) share the time from that start to the next segment's start
 * (the cue end for the last one), in proportion to their length in characters.
 */
function timeWords(tokens: readonly CueToken[], cue: ParsedCue, out: RawWord[]): void {
  let i = 0;
  let floor = cue.start;
  while (i < tokens.length) {
    let j = i + 1;
    while (j < tokens.length && tokens[j]!.start === tokens[i]!.start) j++;
    const start = clamp(Math.max(tokens[i]!.start, floor), cue.start, cue.end);
    const end = j < tokens.length ? clamp(Math.max(tokens[j]!.start, start), cue.start, cue.end) : cue.end;
    spread(tokens, i, j, start, end, out);
    floor = end;
    i = j;
  }
}

/** Spread tokens[from..to) over start..end in proportion to their length. */
function spread(tokens: readonly CueToken[], from: number, to: number, start: number, end: number, out: RawWord[]): void {
  let total = 0;
  for (let k = from; k < to; k++) total += weight(tokens[k]!.text);
  let done = 0;
  for (let k = from; k < to; k++) {
    const t = tokens[k]!;
    const wordStart = start + ((end - start) * done) / total;
    done += weight(t.text);
    const wordEnd = start + ((end - start) * done) / total;
    out.push({ text: t.text, start: roundTime(wordStart), end: roundTime(wordEnd), confidence: VTT_WORD_CONFIDENCE });
  }
}

function weight(text: string): number {
  return Math.max(1, text.length);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}
