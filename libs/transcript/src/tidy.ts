import type { Word } from '@wordcut/contracts';
import { detectFillerWords, detectKeyboardFillers } from './fillers';
import { isSentenceEnd } from './text';

/**
 * Tidy text after an edit removed words (docs/EDITING-TEXT.md). Words carry their punctuation
 * ("Um," "WordCut." "today"), so removing a word can leave a sentence without its capital, a
 * comma framing nothing, or a sentence without its final mark. Only the text of a kept word next
 * to a removal changes (besides spacing); times, order and the number of words never do.
 */

/** A word an edit kept, with its position in the words before the edit. */
export interface KeptWord<W> {
  index: number;
  word: W;
}

type Before = Pick<Word, 'text' | 'start' | 'end' | 'confidence'>;

/** Commas, Latin and CJK. */
const COMMA = /[,，、]$/u;
/** What a sentence-final mark replaces at the end of the word it moves to. */
const CLAUSE_TAIL = /[\s,，、;；:：\-–—]+$/u;
/** The sentence-final marks at the end of a word, before any closing quote or bracket ("end." "really?!" 'said."'). */
const FINAL_MARKS = /([.!?…。！？｡‼⁇⁈⁉]+)[\s"'”’»)\]}」』）》】]*$/u;
const FIRST_ALNUM = /[\p{L}\p{N}]/u;

/**
 * The kept words (in play order, as given) with their text tidied for the words that were removed
 * around them: `before` is every word before the edit, `kept[i].index` a position in it. Removed
 * words are the positions of `before` not kept; each run of them, between the kept word before it
 * (P) and the one after it (N) in the order before the edit, is tidied by these rules:
 * 1. A sentence end the run carried moves to P when P does not end a sentence ("the" + removed
 *    "end." → "the."); a comma, colon, semicolon or dash ending P gives way to it.
 * 2. P's trailing comma goes when the run was framed by commas as one aside ("also," + removed
 *    "um," → "also"): the run ends with a comma and holds no other comma, or is all filler words.
 *    A run holding several comma-separated parts ("and then, after lunch,") leaves P's comma, the
 *    one clause break that is left. P's comma also goes when nothing is kept after the run.
 * 3. N gets a capital first letter when the run held the start of N's sentence, that start was
 *    capitalised, and N now starts a sentence (no P, or P ends one): "WordCut." + removed "Um," +
 *    "today" → "Today". N is left as it is when it has a capital already, starts with a digit, or
 *    has a capital after its first letter ("iPhone"); nothing is ever lowercased.
 * Every kept text is also trimmed and has runs of spaces made one. Idempotent: tidying the result
 * again (same removal) changes nothing. Positions outside `before` are ignored.
 */
export function tidyKeptWords<W extends { text: string }>(before: readonly Before[], kept: readonly KeptWord<W>[]): W[] {
  const isKept = new Uint8Array(before.length);
  for (const k of kept) if (Number.isInteger(k.index) && k.index >= 0 && k.index < before.length) isKept[k.index] = 1;
  const texts = new Map<number, string>();
  for (const k of kept) if (isKept[k.index]) texts.set(k.index, normalizeSpaces(k.word.text));
  let fillers: Set<number> | undefined;
  const isFiller = (i: number): boolean => {
    fillers ??= new Set([...detectFillerWords(before), ...detectKeyboardFillers(before)]);
    return fillers.has(i);
  };

  let i = 0;
  while (i < before.length) {
    if (isKept[i]) {
      i++;
      continue;
    }
    const first = i;
    while (i < before.length && !isKept[i]) i++;
    const last = i - 1;
    const p = first > 0 ? first - 1 : null;
    const n = i < before.length ? i : null;
    tidyAroundRun(before, texts, { first, last, p, n }, isFiller);
  }
  return kept.map((k) => {
    const text = isKept[k.index] ? texts.get(k.index)! : normalizeSpaces(k.word.text);
    return text === k.word.text ? k.word : { ...k.word, text };
  });
}

interface Run {
  first: number;
  last: number;
  /** The kept word just before the run, in the order before the edit. */
  p: number | null;
  /** The kept word just after it. */
  n: number | null;
}

function tidyAroundRun(before: readonly Before[], texts: Map<number, string>, run: Run, isFiller: (i: number) => boolean): void {
  const { first, last, p, n } = run;
  const pEndedSentence = p !== null && isSentenceEnd(before[p]!.text);
  let lastEnd = -1;
  for (let j = first; j <= last; j++) if (isSentenceEnd(before[j]!.text)) lastEnd = j;

  if (p !== null) {
    let pText = texts.get(p)!;
    if (lastEnd >= 0 && !isSentenceEnd(pText)) {
      // rule 1: the sentence end travels to the word that now ends the sentence
      const mark = FINAL_MARKS.exec(before[lastEnd]!.text.trim())?.[1] ?? '.';
      pText = pText.replace(CLAUSE_TAIL, '') + mark;
    } else if (COMMA.test(pText) && (n === null || (lastEnd < 0 && isAside(before, first, last, isFiller)))) {
      // rule 2: a comma that framed the removed words (or ends the text) goes with them
      pText = pText.replace(COMMA, '').trimEnd();
    }
    texts.set(p, pText);
  }

  if (n !== null && !isSentenceEnd(before[last]!.text)) {
    // rule 3: the word that started N's sentence was removed: its capital passes to N
    const start = lastEnd >= 0 ? lastEnd + 1 : p === null || pEndedSentence ? first : null;
    const pText = p === null ? null : texts.get(p)!;
    if (start !== null && startsUpper(before[start]!.text) && (pText === null || isSentenceEnd(pText))) {
      texts.set(n, capitalise(texts.get(n)!));
    }
  }
}

/** The run ends with a comma and is one aside: no other comma inside, or nothing but filler words. */
function isAside(before: readonly Before[], first: number, last: number, isFiller: (i: number) => boolean): boolean {
  if (!COMMA.test(before[last]!.text.trim())) return false;
  let inner = true;
  let allFillers = true;
  for (let j = first; j <= last; j++) {
    if (j < last && /[,，、]/u.test(before[j]!.text)) inner = false;
    if (!isFiller(j)) allFillers = false;
  }
  return inner || allFillers;
}

function normalizeSpaces(text: string): string {
  return text.replace(/\s{2,}/gu, ' ').trim();
}

function startsUpper(text: string): boolean {
  const c = FIRST_ALNUM.exec(text)?.[0];
  return c !== undefined && c !== c.toLowerCase() && c === c.toUpperCase();
}

/** First letter upper-cased when it is lower case and no capital follows it ("iPhone" stays). */
function capitalise(text: string): string {
  const m = FIRST_ALNUM.exec(text);
  if (!m) return text;
  const c = m[0];
  const upper = c.toUpperCase();
  if (c === upper || c !== c.toLowerCase() || upper.length !== c.length) return text;
  const rest = text.slice(m.index + c.length);
  if (rest !== rest.toLowerCase()) return text;
  return text.slice(0, m.index) + upper + rest;
}
