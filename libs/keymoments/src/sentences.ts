import winkNLP, { type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { sentenceSignals, type SentenceEntity, type SentenceSignals, type SentenceToken } from './signals';

/** A transcript word with its times in seconds. */
export interface TimedWord {
  text: string;
  start: number;
  end: number;
}

/** A sentence of the transcript: a run of whole words, with its signals. */
export interface Sentence {
  /** index of its first and last word in the transcript */
  first: number;
  last: number;
  /** the first word's start and the last word's end, seconds */
  start: number;
  end: number;
  text: string;
  signals: SentenceSignals;
}

/** Words read by the NLP library at once: a long transcript is read piece by piece, in bounded memory. */
export const NLP_CHUNK_WORDS = 1200;
/** A "sentence" longer than this (a transcript without punctuation) is split at its longest pauses. */
export const MAX_SENTENCE_WORDS = 45;
/** Pieces of a split sentence keep at least this many words. */
const MIN_PIECE_WORDS = 6;

let nlp: WinkMethods | null = null;
/** The NLP pipeline, made once: the model ships inside its npm package, nothing is downloaded. */
function pipeline(): WinkMethods {
  nlp ??= winkNLP(model, ['sbd', 'pos', 'ner', 'negation', 'sentiment']);
  return nlp;
}

/** End of a chunk: the last word at or before `limit` that ends a sentence, else `limit` itself. */
function chunkEnd(words: readonly TimedWord[], from: number, limit: number): number {
  if (limit >= words.length - 1) return words.length - 1;
  for (let i = limit; i > from + NLP_CHUNK_WORDS / 2; i--) if (/[.?!]["')\]]*$/.test(words[i]!.text)) return i;
  return limit;
}

/** Index of the word holding character `at` of a chunk's text (starts[k]: where word k begins). */
function wordAtChar(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

interface RawSentence {
  first: number;
  last: number;
  tokens: SentenceToken[];
  entities: SentenceEntity[];
  sentiment: number;
}

/** Reads words[from..to] with the NLP library: its sentences as runs of whole words, each with its tokens. */
function readChunk(words: readonly TimedWord[], from: number, to: number, asOne: boolean): RawSentence[] {
  const nlpRun = pipeline();
  const its = nlpRun.its;
  const starts: number[] = [];
  let text = '';
  for (let i = from; i <= to; i++) {
    if (i > from) text += ' ';
    starts.push(text.length);
    text += words[i]!.text;
  }
  const doc = nlpRun.readDoc(text);
  const values = doc.tokens().out(its.value) as string[];
  const pos = doc.tokens().out(its.pos) as string[];
  // where each token starts in the text: tokens keep their spelling, only spaces lie between them
  const tokenChar: number[] = [];
  let cursor = 0;
  for (const v of values) {
    const at = text.indexOf(v, cursor);
    const found = at >= 0 && at - cursor <= 8 ? at : cursor;
    tokenChar.push(found);
    cursor = found + (at >= 0 && at - cursor <= 8 ? v.length : 0);
  }
  const spans = doc.sentences().out(its.span) as unknown as number[][];
  const out: RawSentence[] = [];
  doc.sentences().each((s, k) => {
    const span = spans[k]!;
    const firstWord = k === 0 || asOne ? 0 : wordAtChar(starts, tokenChar[span[0]!]!);
    const tokens: SentenceToken[] = [];
    for (let t = span[0]!; t <= span[1]!; t++) tokens.push({ value: values[t]!, pos: pos[t]! });
    const entities = (s.entities().out(its.detail) as unknown as SentenceEntity[]).map((e) => ({ value: e.value, type: e.type }));
    const sentiment = Number(s.out(its.sentiment)) || 0;
    const prev = out[out.length - 1];
    if (prev && (asOne || from + firstWord <= prev.first)) {
      // two sentences in one word (or read as one): they are one sentence here
      prev.tokens.push(...tokens);
      prev.entities.push(...entities);
      prev.sentiment = Math.abs(sentiment) > Math.abs(prev.sentiment) ? sentiment : prev.sentiment;
      return;
    }
    out.push({ first: from + firstWord, last: from + firstWord, tokens, entities, sentiment });
  });
  // a chunk of empty words reads as no sentence: it is still one here
  if (out.length === 0) out.push({ first: from, last: to, tokens: [], entities: [], sentiment: 0 });
  for (let k = 0; k < out.length; k++) out[k]!.last = k + 1 < out.length ? out[k + 1]!.first - 1 : to;
  return out;
}

/** Splits words[first..last] at its longest pauses (else clause ends) until every piece has at most MAX_SENTENCE_WORDS words. */
function splitLong(words: readonly TimedWord[], first: number, last: number): Array<[number, number]> {
  if (last - first + 1 <= MAX_SENTENCE_WORDS) return [[first, last]];
  let cut = -1;
  let widest = -Infinity;
  for (let i = first + MIN_PIECE_WORDS - 1; i <= last - MIN_PIECE_WORDS; i++) {
    const gap = words[i + 1]!.start - words[i]!.end;
    // a pause wins, then the end of a clause (';' over ','); among equal ones the cut nearest the middle
    const clause = /[;:—–]$/.test(words[i]!.text) ? 0.3 : /,$/.test(words[i]!.text) ? 0.15 : 0;
    const score = gap + clause - Math.abs(i - (first + last) / 2) * 1e-3;
    if (score > widest) {
      widest = score;
      cut = i;
    }
  }
  return [...splitLong(words, first, cut), ...splitLong(words, cut + 1, last)];
}

/**
 * The transcript's sentences, in order, covering every word once: sentence boundaries, parts of
 * speech, entities and sentiment from the NLP library, read a chunk at a time; runs without
 * punctuation longer than MAX_SENTENCE_WORDS split at their longest pauses.
 */
export function findSentences(words: readonly TimedWord[]): Sentence[] {
  const sentences: Sentence[] = [];
  let from = 0;
  while (from < words.length) {
    const to = chunkEnd(words, from, from + NLP_CHUNK_WORDS - 1);
    for (const raw of readChunk(words, from, to, false)) {
      const pieces = splitLong(words, raw.first, raw.last);
      const read = pieces.length === 1 ? [raw] : pieces.map(([a, b]) => readChunk(words, a, b, true)[0]!);
      for (const r of read) {
        let text = '';
        for (let i = r.first; i <= r.last; i++) text += (i > r.first ? ' ' : '') + words[i]!.text;
        sentences.push({ first: r.first, last: r.last, start: words[r.first]!.start, end: words[r.last]!.end, text, signals: sentenceSignals(r.tokens, r.entities, r.sentiment) });
      }
    }
    from = to + 1;
  }
  return sentences;
}
