import { MAX_TRANSCRIPT_WORDS, wordByWordFileSchema, type Paragraph, type Word, type WordByWordFile } from '@wordcut/contracts';
import { TranscriptBuildError } from './errors';
import { detectFillerWords } from './fillers';
import { pickLanguage } from './language';
import { buildParagraphs } from './paragraphs';
import { RollingDeduplicator } from './rolling';
import { normalizeWord, roundTime } from './text';
import { readVtt, type CueToken, type ParsedCue } from './vtt';

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
}

type RawWord = Pick<Word, 'text' | 'start' | 'end' | 'confidence'>;

/**
 * Build a transcript from a WebVTT file: words from the cue text (inline timestamps honoured,
 * otherwise the cue's time spread over its words in proportion to their length), rolling
 * duplicate caption lines dropped, paragraphs from sentence ends and pauses, fillers detected.
 * Throws TranscriptBuildError: VTT_INVALID (not WebVTT, unreadable cue timing) or VTT_EMPTY.
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
  return assemble(words, pickLanguage(vtt.language, opts.languageHint, opts.defaultLanguage));
}

/**
 * Build a transcript from the provider's word-by-word JSON (already parsed). Words keep their
 * times and confidence (default 1.0), are put in time order; words with blank text are skipped.
 * Throws TranscriptBuildError WORDS_INVALID for a malformed file, end < start, or no words.
 */
export function buildTranscriptFromWordByWord(file: WordByWordFile, opts: BuildOptions = {}): BuiltTranscript {
  const parsed = wordByWordFileSchema.safeParse(file);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : 'file';
    throw new TranscriptBuildError('WORDS_INVALID', `The word-by-word file is invalid at ${where}: ${issue.message}`);
  }
  const words: RawWord[] = [];
  parsed.data.words.forEach((w, i) => {
    if (w.end < w.start) {
      throw new TranscriptBuildError(
        'WORDS_INVALID',
        `The word-by-word file is invalid at words.${i} ('${w.text}'): it ends (${w.end} s) before it starts (${w.start} s).`,
      );
    }
    const text = w.text.trim();
    if (text !== '') words.push({ text, start: w.start, end: w.end, confidence: w.confidence ?? WORD_BY_WORD_DEFAULT_CONFIDENCE });
  });
  if (words.length === 0) throw new TranscriptBuildError('WORDS_INVALID', 'The word-by-word file has no words.');
  return assemble(words, pickLanguage(parsed.data.languageCode, opts.languageHint, opts.defaultLanguage));
}

/** Time order (stable), paragraphs, numbering and fillers. */
function assemble(raw: RawWord[], languageCode: string): BuiltTranscript {
  if (raw.length > MAX_TRANSCRIPT_WORDS) {
    throw new TranscriptBuildError(
      'TOO_MANY_WORDS',
      `The captions have ${raw.length.toLocaleString('en-US')} words; WordCut edits transcripts of up to ${MAX_TRANSCRIPT_WORDS.toLocaleString('en-US')} words.`,
    );
  }
  const ordered = isSortedByStart(raw) ? raw : [...raw].sort((a, b) => a.start - b.start);
  const paragraphs = buildParagraphs(ordered);
  const words: Word[] = new Array<Word>(ordered.length);
  paragraphs.forEach((p, group) => {
    for (const i of p.wordIndices) {
      const w = ordered[i]!;
      words[i] = { text: w.text, start: w.start, end: w.end, confidence: w.confidence, group_number: group, word_order: i };
    }
  });
  return { languageCode, words, paragraphs, fillerWords: detectFillerWords(words) };
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
