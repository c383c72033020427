/** Small text helpers shared by the builders, the filler rules and the caption de-duplication. */

const NON_WORD = /[^\p{L}\p{N}]+/gu;

/**
 * The comparable form of a word: lower case, punctuation and symbols removed
 * ("Um," -> "um", "I'm" -> "im", "Right?" -> "right"). Empty for pure punctuation ("--", "♪").
 */
export function normalizeWord(text: string): string {
  // fast path: plain ASCII letters and digits (most words of most transcripts)
  let plain = true;
  for (let i = 0; i < text.length && plain; i++) {
    const c = text.charCodeAt(i);
    plain = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
  }
  if (plain) return text.toLowerCase();
  return text.toLowerCase().replace(NON_WORD, '');
}

/** Split text into words on any whitespace (incl. no-break space), dropping empty pieces. */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.split(/\s+/)) if (piece !== '') out.push(piece);
  return out;
}

/** Sentence-final punctuation, Latin and CJK / full-width forms. */
const SENTENCE_FINAL = new Set(['.', '!', '?', '…', '。', '！', '？', '｡', '‼', '⁇', '⁈', '⁉']);
/** Closing quotes and brackets that may follow the sentence-final mark ("end.)" 'said."'). */
const CLOSERS = new Set(['"', "'", '”', '’', '»', ')', ']', '}', '」', '』', '）', '》', '】']);

/** Abbreviations whose final dot does not end a sentence. */
const ABBREVIATIONS = new Set(['mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'vs', 'eg', 'ie', 'approx']);

/** True when the word ends a sentence ("done." "really?!" "好。" "end.)"), not for "Mr." or "e.g.". */
export function isSentenceEnd(text: string): boolean {
  let i = text.length - 1;
  while (i >= 0 && (CLOSERS.has(text[i]!) || text.charCodeAt(i) <= 32)) i--;
  if (i < 0) return false;
  const mark = text[i]!;
  if (!SENTENCE_FINAL.has(mark)) return false;
  return mark !== '.' || !ABBREVIATIONS.has(normalizeWord(text));
}

/** Times are kept to the millisecond, as in WebVTT timestamps (also removes float noise). */
export function roundTime(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
