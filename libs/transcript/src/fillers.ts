import type { Word } from '@wordcut/contracts';
import { normalizeWord, roundTime } from './text';

/**
 * Filler-word detection. Words are compared case-insensitively with punctuation
 * removed ("Um," is "um"), and only whole words match: 'run' never matches 'running'.
 * Results are positions in the given words array, ascending, without duplicates.
 */

/** Hesitation sounds that are always fillers. */
export const FILLER_SOUNDS: readonly string[] = ['um', 'uh', 'er', 'ah', 'mmm', 'hmm'];

/**
 * Hesitation patterns: mm+, oo+, ah+, uh+, um+, plus hmm+ so that a drawn-out
 * "hmmm" is treated like the listed "hmm".
 */
export const FILLER_PATTERNS: readonly RegExp[] = [/^mm+$/, /^oo+$/, /^ah+$/, /^uh+$/, /^um+$/, /^hmm+$/];

/** Discourse markers: fillers only when quick (< 0.5 s) or uncertain (confidence < 0.8). */
export const DISCOURSE_FILLERS: readonly string[] = [
  'like', 'you know', 'so', 'well', 'actually', 'basically', 'literally', 'right', 'okay', 'yeah',
];
/** A discourse marker spoken in less than this many seconds is a filler. */
export const DISCOURSE_MAX_DURATION_SECONDS = 0.5;
/** A discourse marker recognised with confidence below this is a filler. */
export const DISCOURSE_MIN_CONFIDENCE = 0.8;

/** Hedge phrases: their first word is flagged, always. */
export const FILLER_PHRASES: readonly string[] = ['i mean', 'you see', 'kind of', 'sort of', 'i guess', 'i think'];

/** An immediately repeated word ("the the") is a filler when it is longer than this many characters. */
export const REPEAT_MIN_LENGTH = 3;

/** What Ctrl/Cmd+M flags, regardless of timing. */
export const KEYBOARD_FILLERS: readonly string[] = [
  'um', 'uh', 'er', 'ah', 'like', 'you know', 'i mean', 'basically', 'actually', 'literally',
];

type Scored = Pick<Word, 'text' | 'start' | 'end' | 'confidence'>;

/** Phrases split into words, grouped by first word, longest first. */
interface PhraseTable {
  single: Set<string>;
  multi: Map<string, string[][]>;
}

function phraseTable(phrases: readonly string[]): PhraseTable {
  const single = new Set<string>();
  const multi = new Map<string, string[][]>();
  for (const phrase of phrases) {
    const parts = phrase.split(' ');
    if (parts.length === 1) {
      single.add(parts[0]!);
    } else {
      const list = multi.get(parts[0]!) ?? [];
      list.push(parts);
      list.sort((a, b) => b.length - a.length);
      multi.set(parts[0]!, list);
    }
  }
  return { single, multi };
}

const DISCOURSE = phraseTable(DISCOURSE_FILLERS);
const HEDGES = phraseTable(FILLER_PHRASES);
const KEYBOARD = phraseTable(KEYBOARD_FILLERS);
const SOUNDS = new Set(FILLER_SOUNDS);
/** first letters of FILLER_PATTERNS (a cheap pre-check) */
const PATTERN_INITIALS = new Set(['m', 'o', 'a', 'u', 'h']);

/** Number of words of the phrase from `table` starting at i (0 when none does). */
function matchAt(table: PhraseTable, norms: readonly string[], i: number): number {
  const first = norms[i]!;
  const candidates = table.multi.get(first);
  if (candidates) {
    for (const parts of candidates) {
      let k = 1;
      while (k < parts.length && norms[i + k] === parts[k]) k++;
      if (k === parts.length) return k;
    }
  }
  return table.single.has(first) ? 1 : 0;
}

/**
 * The automatic rules:
 * - um, uh, er, ah, mmm, hmm, and words matching mm+, oo+, ah+, uh+, um+ (and hmm+);
 * - a word repeated immediately, longer than 2 characters: the repeat is flagged ("the *the*");
 * - discourse markers (like, you know, so, well, actually, basically, literally, right, okay, yeah)
 *   only when shorter than 0.5 s or with confidence below 0.8 (for "you know": the whole phrase's
 *   duration and its lowest confidence; both words are flagged);
 * - hedge phrases (i mean, you see, kind of, sort of, i guess, i think): the first word is flagged.
 */
export function detectFillerWords(words: readonly Scored[]): number[] {
  const norms = words.map((w) => normalizeWord(w.text));
  const flagged = new Uint8Array(words.length);
  for (let i = 0; i < words.length; i++) {
    const norm = norms[i]!;
    if (norm === '') continue;
    if (SOUNDS.has(norm) || (PATTERN_INITIALS.has(norm[0]!) && FILLER_PATTERNS.some((p) => p.test(norm)))) flagged[i] = 1;
    if (i > 0 && norm === norms[i - 1] && [...norm].length >= REPEAT_MIN_LENGTH) flagged[i] = 1;
    if (matchAt(HEDGES, norms, i) > 0) flagged[i] = 1;
    const discourse = matchAt(DISCOURSE, norms, i);
    if (discourse > 0 && isQuickOrUncertain(words, i, discourse)) flagged.fill(1, i, i + discourse);
  }
  return indicesOf(flagged);
}

function isQuickOrUncertain(words: readonly Scored[], first: number, count: number): boolean {
  const last = words[first + count - 1]!;
  let confidence = 1;
  for (let k = first; k < first + count; k++) confidence = Math.min(confidence, words[k]!.confidence);
  // duration in whole milliseconds: 1.7 - 1.2 is 0.49999... in floating point
  return roundTime(last.end - words[first]!.start) < DISCOURSE_MAX_DURATION_SECONDS || confidence < DISCOURSE_MIN_CONFIDENCE;
}

/** Ctrl/Cmd+M: every occurrence of KEYBOARD_FILLERS, whatever its timing; all words of a phrase are flagged. */
export function detectKeyboardFillers(words: readonly Pick<Word, 'text'>[]): number[] {
  const norms = words.map((w) => normalizeWord(w.text));
  const flagged = new Uint8Array(words.length);
  for (let i = 0; i < words.length; i++) {
    if (norms[i] === '') continue;
    const length = matchAt(KEYBOARD, norms, i);
    if (length > 0) flagged.fill(1, i, i + length);
  }
  return indicesOf(flagged);
}

function indicesOf(flags: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < flags.length; i++) if (flags[i]) out.push(i);
  return out;
}
