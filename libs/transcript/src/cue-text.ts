import { collectTimestamp } from './vtt-timestamp';

/**
 * WebVTT cue text (W3C WebVTT, "cue text parsing rules" and its tokenizer), reduced to what a
 * transcript needs: the text, where inline timestamps start new timed segments, and the first
 * voice. Tags c, i, b, u, ruby, rt, v and lang are opened and closed as the rules say (an end tag
 * closes only the element it names when that element is the current one; </ruby> also closes an
 * open <rt>); other tags are ignored; the text inside <rt> (ruby annotations) is dropped; character
 * references are decoded. One pass over the text with a stack of open elements, no tree and no
 * recursion, so 50,000 nested tags cost no more than 50,000 words.
 */

/** A run of cue text and the time it starts being spoken (undefined: before the first inline timestamp). */
export interface Segment {
  text: string;
  start: number | undefined;
}

export interface CueText {
  /** at least one; a new one at each inline timestamp */
  segments: Segment[];
  /** the annotation of the first <v> with one (`<v Bob>` -> "Bob"), whitespace collapsed */
  voice?: string;
}

/** The cue text elements (tag names are case-sensitive); the tokenizer keeps their names on its stack. */
const ELEMENTS = new Set(['c', 'i', 'b', 'u', 'ruby', 'rt', 'v', 'lang']);
const RUBY = 'ruby';
const RT = 'rt';
const V = 'v';

/** Character codes the tokenizer looks for. */
const LT = '<'.charCodeAt(0);
const GT = '>'.charCodeAt(0);
const AMP = '&'.charCodeAt(0);
const SLASH = '/'.charCodeAt(0);
const DOT = '.'.charCodeAt(0);
const HASH = '#'.charCodeAt(0);
const SEMICOLON = ';'.charCodeAt(0);

/** Tab, LF, FF, space: what ends a tag name in the cue text tokenizer. */
function isTagSpace(code: number): boolean {
  return code === 9 || code === 10 || code === 12 || code === 32;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isAlnum(code: number): boolean {
  return isDigit(code) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Parse cue text into timed segments and its voice. */
export function parseCueText(input: string): CueText {
  const segments: Segment[] = [{ text: '', start: undefined }];
  let segment = segments[0]!;
  /** open elements, innermost last */
  const open: string[] = [];
  /** open <rt> elements: their text is not spoken */
  let inRt = 0;
  let voice: string | undefined;
  const n = input.length;
  let pos = 0;

  while (pos < n) {
    if (input.charCodeAt(pos) !== LT) {
      let end = input.indexOf('<', pos);
      if (end === -1) end = n;
      if (inRt === 0) segment.text += decodeReferences(input, pos, end);
      pos = end;
      continue;
    }
    pos++;
    if (pos >= n) break; // a '<' at the end: a start tag without a name, ignored
    const first = input.charCodeAt(pos);
    if (first === SLASH) {
      // end tag: everything up to '>' is its name
      const gt = input.indexOf('>', pos + 1);
      const end = gt === -1 ? n : gt;
      const name = input.slice(pos + 1, end);
      pos = gt === -1 ? n : gt + 1;
      const kind = ELEMENTS.has(name) ? name : undefined;
      const current = open[open.length - 1];
      if (kind !== undefined && kind === current) {
        open.pop();
        if (kind === RT) inRt--;
      } else if (kind === RUBY && current === RT) {
        open.pop();
        open.pop();
        inRt--;
      }
      continue;
    }
    if (isDigit(first)) {
      // timestamp tag: '<00:00:01.500>'; kept only when all of it is a timestamp
      const gt = input.indexOf('>', pos);
      const end = gt === -1 ? n : gt;
      const value = input.slice(pos, end);
      pos = gt === -1 ? n : gt + 1;
      const time = collectTimestamp(value, 0);
      if (time.ok && time.end === value.length && inRt === 0) {
        segment = { text: '', start: time.seconds };
        segments.push(segment);
      }
      continue;
    }
    // start tag: name, then classes ('.a.b'), then an annotation after white space, up to '>'
    let p = pos;
    while (p < n) {
      const c = input.charCodeAt(p);
      if (c === GT || c === DOT || isTagSpace(c)) break;
      p++;
    }
    const name = input.slice(pos, p);
    if (input.charCodeAt(p) === DOT) {
      while (p < n) {
        const c = input.charCodeAt(p);
        if (c === GT || isTagSpace(c)) break;
        p++;
      }
    }
    let annotation = '';
    if (p < n && input.charCodeAt(p) !== GT) {
      const gt = input.indexOf('>', p);
      const end = gt === -1 ? n : gt;
      annotation = collapseSpaces(decodeReferences(input, p + 1, end));
      p = end;
    }
    pos = p < n ? p + 1 : n;
    if (!ELEMENTS.has(name)) continue;
    const kind = name;
    if (kind === RT) {
      if (open[open.length - 1] !== RUBY) continue;
      inRt++;
    } else if (kind === V && voice === undefined && inRt === 0 && annotation !== '') {
      voice = annotation;
    }
    open.push(kind);
  }
  return voice === undefined ? { segments } : { segments, voice };
}

/** Annotation white space: trimmed, runs of tab, LF, FF, CR and space made one space. */
function collapseSpaces(text: string): string {
  return text.replace(/[\t\n\f\r ]+/g, ' ').trim();
}

/**
 * Named character references decoded in cue text, with or without the final ';' (a subset of HTML's:
 * the ones captions use).
 */
const NAMED = new Map<string, string>(
  Object.entries({
    amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', quot: '"', apos: "'", lrm: '\u200e', rlm: '\u200f',
    hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”',
    laquo: '«', raquo: '»', copy: '©', reg: '®', trade: '™', deg: '°', euro: '€', pound: '£',
    yen: '¥', cent: '¢', times: '×', divide: '÷', iexcl: '¡', iquest: '¿', shy: '\u00ad',
    eacute: 'é', egrave: 'è', aacute: 'á', agrave: 'à', iacute: 'í', oacute: 'ó', uacute: 'ú',
    ntilde: 'ñ', ccedil: 'ç', auml: 'ä', ouml: 'ö', uuml: 'ü', szlig: 'ß',
  }),
);
const LONGEST_NAME = Math.max(...[...NAMED.keys()].map((k) => k.length));

/** HTML's replacements for numeric references to C1 controls (Windows-1252). */
const C1: Record<number, number> = {
  0x80: 0x20ac, 0x82: 0x201a, 0x83: 0x0192, 0x84: 0x201e, 0x85: 0x2026, 0x86: 0x2020, 0x87: 0x2021,
  0x88: 0x02c6, 0x89: 0x2030, 0x8a: 0x0160, 0x8b: 0x2039, 0x8c: 0x0152, 0x8e: 0x017d, 0x91: 0x2018,
  0x92: 0x2019, 0x93: 0x201c, 0x94: 0x201d, 0x95: 0x2022, 0x96: 0x2013, 0x97: 0x2014, 0x98: 0x02dc,
  0x99: 0x2122, 0x9a: 0x0161, 0x9b: 0x203a, 0x9c: 0x0153, 0x9e: 0x017e, 0x9f: 0x0178,
};

/** input[from, to) with its character references decoded. A reference never contains '<' or '>'. */
function decodeReferences(input: string, from: number, to: number): string {
  let out = '';
  let last = from;
  for (let i = from; i < to; i++) {
    if (input.charCodeAt(i) !== AMP) continue;
    const ref = readReference(input, i, to);
    if (ref === undefined) continue;
    out += input.slice(last, i) + ref.value;
    last = ref.next;
    i = ref.next - 1;
  }
  return last === from ? input.slice(from, to) : out + input.slice(last, to);
}

/** The reference at input[amp] ('&'), or undefined when the '&' is just a character. */
function readReference(input: string, amp: number, to: number): { value: string; next: number } | undefined {
  let p = amp + 1;
  if (p < to && input.charCodeAt(p) === HASH) {
    p++;
    const hex = p < to && (input[p] === 'x' || input[p] === 'X');
    if (hex) p++;
    const digitsFrom = p;
    let code = 0;
    for (; p < to; p++) {
      const c = input.charCodeAt(p);
      const digit = isDigit(c) ? c - 48 : hex && c >= 97 && c <= 102 ? c - 87 : hex && c >= 65 && c <= 70 ? c - 55 : -1;
      if (digit === -1) break;
      if (code <= 0x10ffff) code = code * (hex ? 16 : 10) + digit;
    }
    if (p === digitsFrom) return undefined;
    if (p < to && input.charCodeAt(p) === SEMICOLON) p++;
    return { value: codePoint(code), next: p };
  }
  while (p < to && p - amp <= LONGEST_NAME && isAlnum(input.charCodeAt(p))) p++;
  if (p === amp + 1) return undefined;
  const run = input.slice(amp + 1, p);
  if (p < to && input.charCodeAt(p) === SEMICOLON) {
    const value = NAMED.get(run);
    if (value !== undefined) return { value, next: p + 1 };
  }
  // without ';': the longest name the run starts with ("&ampx" -> "&x")
  for (let length = run.length; length > 0; length--) {
    const value = NAMED.get(run.slice(0, length));
    if (value !== undefined) return { value, next: amp + 1 + length };
  }
  return undefined;
}

function codePoint(code: number): string {
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(C1[code] ?? code);
}

/** The cue text without markup, one trimmed line per non-blank caption line, white space collapsed. */
export function plainText(segments: readonly Segment[]): string {
  let text = '';
  for (const segment of segments) text += segment.text;
  if (!/\s\s|^\s|\s$|[^\S \n]/.test(text)) return text;
  return text
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l !== '')
    .join('\n');
}
