/**
 * Shared test helpers: small transcripts and fast-check arbitraries of transcripts and edit
 * chains. Excluded from the build (see tsconfig.json); only specs import it.
 */
import fc from 'fast-check';
import type { Word, WordDelta } from '@wordcut/contracts';
import { applyWordDeltas, attachParagraphs, detectFillerWords, type TranscriptContent } from '@wordcut/transcript';

/**
 * A transcript of the given paragraphs (each a space-separated string), words 0.5 s apart and
 * 0.4 s long, confidence 0.95, fillers detected as the server does.
 */
export function transcript(...paragraphs: string[]): TranscriptContent {
  const words: Word[] = [];
  const groups: { wordIndices: number[] }[] = [];
  for (const paragraph of paragraphs) {
    const wordIndices: number[] = [];
    for (const text of paragraph.split(' ').filter(Boolean)) {
      const k = words.length;
      wordIndices.push(k);
      words.push({ text, start: k / 2, end: k / 2 + 0.4, confidence: 0.95, group_number: 0, word_order: k });
    }
    groups.push({ wordIndices });
  }
  return consistent(words, groups);
}

/** Consistent content as the server stores a full replacement: numbered, paragraph times, fillers detected. */
function consistent(words: readonly Word[], paragraphs: readonly { wordIndices: number[] }[]): TranscriptContent {
  const attached = attachParagraphs(words, paragraphs);
  return { ...attached, fillerWords: detectFillerWords(attached.words) };
}

export const texts = (c: { words: readonly Pick<Word, 'text'>[] }): string[] => c.words.map((w) => w.text);

/** What a save compares: words, paragraph membership, fillers. */
export function essence(c: TranscriptContent) {
  return {
    words: c.words.map(({ text, start, end, confidence }) => ({ text, start, end, confidence })),
    paragraphs: c.paragraphs.map((p) => p.wordIndices),
    fillerWords: c.fillerWords,
  };
}

const TEXTS = ['um', 'the', 'like', 'so', 'I', 'mean', 'hello', 'world.', 'kind', 'of', 'yes!', 'Colour,', 'don’t'];

/** Valid transcripts: time-ordered words (at least 10 ms long), random consecutive paragraphs. */
export const contentArb: fc.Arbitrary<TranscriptContent> = fc
  .array(
    fc.record({
      text: fc.constantFrom(...TEXTS),
      gapMs: fc.integer({ min: 0, max: 2500 }),
      lengthMs: fc.integer({ min: 10, max: 900 }),
      confidence: fc.constantFrom(0.5, 0.79, 0.9, 1),
      breakBefore: fc.boolean(),
    }),
    { maxLength: 40 },
  )
  .map((raw) => {
    const words: Word[] = [];
    const groups: { wordIndices: number[] }[] = [];
    let ms = 0;
    raw.forEach((r, k) => {
      const start = (ms + r.gapMs) / 1000;
      ms += r.gapMs + r.lengthMs;
      words.push({ text: r.text, start, end: ms / 1000, confidence: r.confidence, group_number: 0, word_order: k });
      if (k === 0 || r.breakBefore) groups.push({ wordIndices: [] });
      groups[groups.length - 1]!.wordIndices.push(k);
    });
    return consistent(words, groups);
  });

/** One edit, interpreted against whatever state it meets (positions wrap around the word count). */
export interface EditStep {
  kind: 'change' | 'retime' | 'delete' | 'insert' | 'fillers' | 'same';
  at: number;
  size: number;
  text: string;
}

export const editStepArb: fc.Arbitrary<EditStep> = fc.record({
  kind: fc.constantFrom<EditStep['kind']>('change', 'retime', 'delete', 'insert', 'insert', 'fillers', 'same'),
  at: fc.nat({ max: 1000 }),
  size: fc.integer({ min: 1, max: 4 }),
  text: fc.constantFrom(...TEXTS),
});

function stepDeltas(c: TranscriptContent, s: EditStep): WordDelta[] {
  const n = c.words.length;
  const i = s.at % Math.max(1, n);
  const word = c.words[i];
  if (s.kind === 'change' && word) return [{ word_order: i, changes: { text: s.text } }];
  if (s.kind === 'retime' && word) return [{ word_order: i, changes: { start: word.start + 0.001, end: word.end + 0.002 } }];
  if (s.kind === 'delete' && word) {
    return Array.from({ length: Math.min(s.size, n - i) }, (_, k) => ({ word_order: i + k, delete: true as const }));
  }
  if (s.kind === 'insert') {
    const after = (s.at % (n + 1)) - 1;
    const t = after >= 0 ? c.words[after]!.end : 0;
    const inserted = Array.from({ length: s.size }, (_, k) => ({ text: `${s.text}${k}`, start: t, end: t, confidence: 0.9 }));
    return [{ word_order: after, insertAfter: inserted }];
  }
  return [];
}

/**
 * The state after one step: word deltas through the server's applyWordDeltas, or filler indices
 * set by hand ('fillers'), or the same content ('same', and edits of an empty transcript).
 */
export function applyStep(c: TranscriptContent, s: EditStep): TranscriptContent {
  if (s.kind === 'fillers') {
    return { ...c, fillerWords: c.words.flatMap((_, k) => ((k * 7 + s.at) % 3 === 0 ? [k] : [])) };
  }
  const deltas = stepDeltas(c, s);
  return deltas.length ? applyWordDeltas(c, deltas) : c;
}

/** The states a start state goes through along the steps (start included). */
export function statesAlong(start: TranscriptContent, steps: readonly EditStep[]): TranscriptContent[] {
  const states = [start];
  for (const s of steps) states.push(applyStep(states[states.length - 1]!, s));
  return states;
}

/** Words of a long talk: `count` words, 0.3 s each, paragraphs of 20 (the 30,000-word case). */
export function longTranscript(count: number): TranscriptContent {
  const pool = ['so', 'we', 'built', 'the', 'editor', 'um', 'for', 'long', 'talks', 'today.'];
  const words: Word[] = Array.from({ length: count }, (_, k) => ({
    text: pool[k % pool.length]!,
    start: k * 0.3,
    end: k * 0.3 + 0.25,
    confidence: 0.9,
    group_number: 0,
    word_order: k,
  }));
  const groups = Array.from({ length: Math.ceil(count / 20) }, (_, g) => ({
    wordIndices: Array.from({ length: Math.min(20, count - g * 20) }, (_, k) => g * 20 + k),
  }));
  return consistent(words, groups);
}
