import type { Paragraph, Word, WordDelta } from '@wordcut/contracts';
import { TranscriptEditError } from './errors';
import { detectFillerWords } from './fillers';
import { attachParagraphs, buildParagraphs } from './paragraphs';

/** Confidence of an inserted word that names none (e.g. pasted words). */
export const INSERTED_WORD_CONFIDENCE = 0.9;

/** The editable content of a transcript, consistent: word_order 0..n-1, every word in one paragraph. */
export interface TranscriptContent {
  words: Word[];
  paragraphs: Paragraph[];
  /** indices into words, ascending */
  fillerWords: number[];
}

type NewWord = { text: string; start: number; end: number; confidence?: number };

/**
 * Apply word deltas (PATCH wordDeltas) to a transcript. Every delta addresses a word by its
 * word_order in the INPUT transcript, whatever earlier deltas did:
 * - `changes` updates text / start / end / confidence;
 * - `delete` removes the word;
 * - `insertAfter` places new words after the word (-1: before the first word); several inserts
 *   after the same word keep the order of the deltas; inserting after a word that is deleted in
 *   the same request is allowed (the new words take its place).
 * Words keep their paragraph, inserted words join the paragraph of the word they follow (the first
 * paragraph for -1), paragraphs left without words drop out. The result is renumbered (word_order,
 * group_number, wordIndices, groupNumber), paragraph start/end and fillerWords are recomputed.
 * A transcript without paragraphs gets them built. Throws TranscriptEditError (nothing applied):
 * UNKNOWN_WORD, INVALID_TIMING, INVALID_WORD, CONFLICTING_DELTAS.
 */
export function applyWordDeltas(
  t: { words: readonly Word[]; paragraphs: readonly Paragraph[] },
  deltas: readonly WordDelta[],
): TranscriptContent {
  const { words } = t;
  const n = words.length;
  const positionOf = positionLookup(words);

  const replaced = new Map<number, Word>();
  const deleted = new Uint8Array(n);
  const touchedBy = new Int32Array(n);
  const inserts = new Map<number, Word[]>();

  deltas.forEach((delta, d) => {
    const label = `delta ${d + 1}`;
    if ('insertAfter' in delta) {
      const at = delta.word_order === -1 ? -1 : position(positionOf, delta.word_order, n, label);
      const list = inserts.get(at) ?? [];
      delta.insertAfter.forEach((w, k) => list.push(newWord(w, `${label}, new word ${k + 1}`)));
      inserts.set(at, list);
      return;
    }
    const index = position(positionOf, delta.word_order, n, label);
    if (touchedBy[index]) {
      throw new TranscriptEditError(
        'CONFLICTING_DELTAS',
        `${label}: word ${delta.word_order} ('${words[index]!.text}') is already ${deleted[index] ? 'deleted' : 'changed'} by delta ${touchedBy[index]}; send one change per word.`,
      );
    }
    touchedBy[index] = d + 1;
    if ('delete' in delta) {
      deleted[index] = 1;
    } else {
      const changed = { ...words[index]! };
      const { text, start, end, confidence } = delta.changes;
      if (text !== undefined) changed.text = text;
      if (start !== undefined) changed.start = start;
      if (end !== undefined) changed.end = end;
      if (confidence !== undefined) changed.confidence = confidence;
      replaced.set(index, checkWord(changed, `${label} (word ${delta.word_order})`));
    }
  });

  const groupOf = membership(words, t.paragraphs);
  const out: Word[] = [];
  const outGroup: number[] = [];
  const emitInserts = (at: number, group: number) => {
    for (const w of inserts.get(at) ?? []) {
      out.push(w);
      outGroup.push(group);
    }
  };
  emitInserts(-1, n > 0 ? groupOf[0]! : 0);
  for (let i = 0; i < n; i++) {
    if (!deleted[i]) {
      out.push(replaced.get(i) ?? words[i]!);
      outGroup.push(groupOf[i]!);
    }
    emitInserts(i, groupOf[i]!);
  }

  if (t.paragraphs.length === 0) return finish(attachParagraphs(out, buildParagraphs(out)));
  const buckets: number[][] = Array.from({ length: Math.max(1, t.paragraphs.length) }, () => []);
  outGroup.forEach((g, i) => buckets[g]!.push(i));
  return finish(attachParagraphs(out, buckets.map((wordIndices) => ({ wordIndices }))));
}

/**
 * Validate and complete a full replacement (PATCH words, paragraphs?, fillerWords?). Words are
 * taken in array order and renumbered; every word needs a non-blank text, finite times with
 * end >= start and a confidence in 0..1. Paragraphs, when given (a non-empty list), must put every
 * word in exactly one paragraph (indices into words); they keep their order and are renumbered,
 * empty ones drop out. Missing (or empty) paragraphs are built from sentences and pauses; missing
 * fillerWords are detected. Throws TranscriptEditError: INVALID_TIMING, INVALID_WORD, UNKNOWN_WORD,
 * INVALID_PARAGRAPHS.
 */
export function normalizeReplacement(input: {
  words: readonly Word[];
  paragraphs?: readonly Paragraph[] | undefined;
  fillerWords?: readonly number[] | undefined;
}): TranscriptContent {
  const words = input.words.map((w, i) => checkWord({ ...w }, `word ${i}`));
  const n = words.length;
  let fillers: number[] | undefined;
  if (input.fillerWords) {
    for (const index of input.fillerWords) checkIndex(index, n, 'fillerWords');
    fillers = [...new Set(input.fillerWords)].sort((a, b) => a - b);
  }
  const paragraphs = input.paragraphs?.length ? input.paragraphs : undefined;
  if (!paragraphs) {
    const built = attachParagraphs(words, buildParagraphs(words));
    return { ...built, fillerWords: fillers ?? detectFillerWords(built.words) };
  }
  const owner = new Int32Array(n).fill(-1);
  paragraphs.forEach((p, pi) => {
    for (const index of p.wordIndices) {
      checkIndex(index, n, `paragraph ${pi}`);
      if (owner[index] !== -1) {
        throw new TranscriptEditError('INVALID_PARAGRAPHS', `word ${index} ('${words[index]!.text}') is in paragraph ${owner[index]} and in paragraph ${pi}; a word belongs to exactly one paragraph.`);
      }
      owner[index] = pi;
    }
  });
  const orphan = owner.indexOf(-1);
  if (orphan !== -1) {
    throw new TranscriptEditError('INVALID_PARAGRAPHS', `word ${orphan} ('${words[orphan]!.text}') is in no paragraph; every word belongs to exactly one paragraph.`);
  }
  const attached = attachParagraphs(words, paragraphs);
  return { ...attached, fillerWords: fillers ?? detectFillerWords(attached.words) };
}

function finish(content: { words: Word[]; paragraphs: Paragraph[] }): TranscriptContent {
  return { ...content, fillerWords: detectFillerWords(content.words) };
}

/** word_order -> position; identity when the transcript is numbered 0..n-1 (the normal case). */
function positionLookup(words: readonly Word[]): Map<number, number> | undefined {
  if (words.every((w, i) => w.word_order === i)) return undefined;
  const map = new Map<number, number>();
  words.forEach((w, i) => map.set(w.word_order, i));
  return map;
}

function position(lookup: Map<number, number> | undefined, wordOrder: number, n: number, label: string): number {
  const index = lookup ? lookup.get(wordOrder) : Number.isInteger(wordOrder) && wordOrder >= 0 && wordOrder < n ? wordOrder : undefined;
  if (index === undefined) {
    const range = n === 0 ? 'the transcript has no words' : `word_order goes from 0 to ${n - 1}`;
    throw new TranscriptEditError('UNKNOWN_WORD', `${label}: there is no word with word_order ${wordOrder} (${range}).`);
  }
  return index;
}

/** Paragraph (input index) of every word; a word no paragraph lists takes its predecessor's. */
function membership(words: readonly Word[], paragraphs: readonly Paragraph[]): Int32Array {
  const groupOf = new Int32Array(words.length).fill(-1);
  paragraphs.forEach((p, pi) => {
    for (const index of p.wordIndices) if (index >= 0 && index < words.length && groupOf[index] === -1) groupOf[index] = pi;
  });
  for (let i = 0; i < groupOf.length; i++) if (groupOf[i] === -1) groupOf[i] = i > 0 ? groupOf[i - 1]! : 0;
  return groupOf;
}

function newWord(w: NewWord, label: string): Word {
  return checkWord(
    { text: w.text, start: w.start, end: w.end, confidence: w.confidence ?? INSERTED_WORD_CONFIDENCE, group_number: 0, word_order: 0 },
    label,
  );
}

/** Throws unless the word has text, finite non-negative times with end >= start, and a confidence in 0..1. */
function checkWord(word: Word, label: string): Word {
  if (typeof word.text !== 'string' || word.text.trim() === '') {
    throw new TranscriptEditError('INVALID_WORD', `${label}: the word text is empty.`);
  }
  if (!isTime(word.start) || !isTime(word.end)) {
    throw new TranscriptEditError('INVALID_TIMING', `${label} ('${word.text}'): start and end must be finite numbers of seconds >= 0 (got ${word.start} and ${word.end}).`);
  }
  if (word.end < word.start) {
    throw new TranscriptEditError('INVALID_TIMING', `${label} ('${word.text}'): it ends (${word.end} s) before it starts (${word.start} s).`);
  }
  if (!(typeof word.confidence === 'number' && word.confidence >= 0 && word.confidence <= 1)) {
    throw new TranscriptEditError('INVALID_WORD', `${label} ('${word.text}'): confidence must be between 0 and 1 (got ${word.confidence}).`);
  }
  return word;
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function checkIndex(index: number, n: number, where: string): void {
  if (!(Number.isInteger(index) && index >= 0 && index < n)) {
    throw new TranscriptEditError('UNKNOWN_WORD', `${where}: word index ${index} does not exist (the transcript has ${n} words).`);
  }
}
