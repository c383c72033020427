import { WebVTTParser, type Cue, type TreeNode, type TreeNodeObjectTagNameWithRt } from 'webvtt-parser';
import { TranscriptBuildError } from './errors';

/**
 * WebVTT reading, on top of the W3C validator's parser (`webvtt-parser`): it gives each cue's
 * text as a node tree (tags, voice spans, inline timestamps) and reports problems with line
 * numbers. This module adds the header (`Language:`), turns the tree into plain text and words,
 * and decides which problems make the file unusable (a cue-timing line that cannot be read)
 * and which are harmless (spec nits, unknown tags), so real-world files still import.
 */

/** A word of a cue with the time it starts (inline timestamps; words before the first timestamp start at the cue start). */
export interface VttTimedWord {
  text: string;
  start: number;
}

export interface VttCue {
  /** cue identifier, when the file names one */
  id?: string;
  /** seconds */
  start: number;
  /** seconds, >= start */
  end: number;
  /**
   * the cue text without markup: tags and voice spans removed, entities decoded, one line per
   * non-blank caption line, whitespace (no-break spaces included) collapsed to single spaces
   */
  text: string;
  /** the speaker of the first voice span (`<v Bob>` -> "Bob"), when there is one */
  voice?: string;
  /** present when the cue carries inline timestamps (`<00:00:01.560>`, YouTube auto-captions): all its words */
  words?: VttTimedWord[];
}

export interface VttDocument {
  /** header lines between `WEBVTT` and the first blank line, as "Key: value" pairs (e.g. Kind, Language) */
  headers: Record<string, string>;
  /** the `Language:` header, as written, when present */
  language?: string;
  /** cues in time order */
  cues: VttCue[];
}

/** A word of a cue, with its caption line; internal to the transcript builder. */
export interface CueToken {
  text: string;
  /** start of the inline-timestamp segment the word begins in; the cue start before the first timestamp */
  start: number;
  /** 0-based caption line of the cue */
  line: number;
}

/** A cue plus the word tokens the transcript builder works on (`words` is left to parseVttDocument). */
export interface ParsedCue extends Omit<VttCue, 'words'> {
  tokens: CueToken[];
  /** true when the cue text has inline timestamps */
  timed: boolean;
}

/**
 * Named character references decoded in cue text, with and without the final ';'.
 * (The parser's own default table only matches the forms without ';' and turns "&amp;" into "&;".)
 */
const ENTITIES: Record<string, string> = (() => {
  const named: Record<string, string> = {
    amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', quot: '"', apos: "'", lrm: '\u200e', rlm: '\u200f',
    hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”',
    laquo: '«', raquo: '»', copy: '©', reg: '®', trade: '™', deg: '°', euro: '€', pound: '£',
    yen: '¥', cent: '¢', times: '×', divide: '÷', iexcl: '¡', iquest: '¿', shy: '\u00ad',
    eacute: 'é', egrave: 'è', aacute: 'á', agrave: 'à', iacute: 'í', oacute: 'ó', uacute: 'ú',
    ntilde: 'ñ', ccedil: 'ç', auml: 'ä', ouml: 'ö', uuml: 'ü', szlig: 'ß',
  };
  const table: Record<string, string> = {};
  for (const [name, value] of Object.entries(named)) {
    table[`&${name};`] = value;
    table[`&${name}`] = value;
  }
  return table;
})();

/** Parser messages about a cue-timing line that mean the cue could not be read (it is dropped by the parser). */
const TIMING_ERRORS = new Set([
  'No timestamp found.',
  'Timestamp must start with a character in the range 0-9.',
  'No time unit separator found.',
  'Must be exactly two digits.',
  'No seconds found or minutes is greater than 59.',
  'No decimal separator (".") found.',
  'Milliseconds must be given in three digits.',
  'You cannot have more than 59 minutes.',
  'You cannot have more than 59 seconds.',
  'No valid timestamp separator found.',
]);

const SIGNATURE = /^\uFEFF?WEBVTT(?:[ \t]|$)/;

/** Parse a WebVTT file into cues; throws TranscriptBuildError (VTT_INVALID, or VTT_EMPTY for an empty file). */
export function parseVtt(text: string): VttCue[] {
  return parseVttDocument(text).cues;
}

/** Parse a WebVTT file into its header and cues; throws like parseVtt. */
export function parseVttDocument(text: string): VttDocument {
  const { headers, language, cues } = readVtt(text);
  return {
    headers,
    ...(language !== undefined ? { language } : {}),
    cues: cues.map(({ tokens, timed, ...cue }) => (timed ? { ...cue, words: tokens.map((t) => ({ text: t.text, start: t.start })) } : cue)),
  };
}

/** parseVttDocument plus the word tokens of every cue (what the transcript builder needs). */
export function readVtt(text: string): { headers: Record<string, string>; language?: string; cues: ParsedCue[] } {
  if (typeof text !== 'string' || text.replace(/^\uFEFF/, '').trim() === '') {
    throw new TranscriptBuildError('VTT_EMPTY', 'The subtitle file is empty.');
  }
  const lines = text.split(/\r\n|\r|\n/);
  if (!SIGNATURE.test(lines[0]!)) {
    const looksLikeSrt = /^\d+\s*$/.test(lines[0]!.replace(/^\uFEFF/, '')) && /\d,\d{3}\s*-->/.test(text);
    throw new TranscriptBuildError(
      'VTT_INVALID',
      "The subtitle file is not WebVTT: it must start with 'WEBVTT'." +
        (looksLikeSrt ? ' It looks like an SRT file; convert it to WebVTT first.' : ''),
      1,
    );
  }
  const headers = readHeaders(lines);
  const parsed = new WebVTTParser(ENTITIES).parse(text, 'subtitles');
  throwOnUnreadableTimings(parsed.errors, lines);

  const cues: ParsedCue[] = [];
  for (const cue of parsed.cues) {
    // safety net: the timing check above reports these with their line
    if (!(cue.endTime >= cue.startTime)) {
      throw new TranscriptBuildError('VTT_INVALID', `A cue ends (${formatTime(cue.endTime)}) before it starts (${formatTime(cue.startTime)}).`);
    }
    cues.push(toParsedCue(cue));
  }
  const languageKey = Object.keys(headers).find((k) => k.toLowerCase() === 'language');
  const language = languageKey !== undefined ? headers[languageKey] : undefined;
  return { headers, ...(language ? { language } : {}), cues };
}

/** "Key: value" lines after the signature, up to the first blank line (or a cue-timing line). */
function readHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '' || line.includes('-->')) break;
    const match = /^([^:]+):(.*)$/.exec(line);
    if (match) headers[match[1]!.trim()] = match[2]!.trim();
  }
  return headers;
}

function throwOnUnreadableTimings(errors: ReadonlyArray<{ message: string; line: number }>, lines: string[]): void {
  const fatal: Array<{ line: number; message: string }> = [];
  for (const e of errors) {
    if (e.message === ID_WITHOUT_TIMING || e.message === STANDALONE_ID) {
      // the parser took the line for a cue identifier: a timing line without a proper '-->'
      const idLine = (lines[e.line - 2] ?? '').trim();
      if (LOOKS_LIKE_TIMING.test(idLine)) {
        fatal.push({
          line: e.line - 1,
          message: `line ${e.line - 1}: invalid timestamp '${idLine}': the start and end times must be separated by ' --> '.`,
        });
      }
      continue;
    }
    const source = (lines[e.line - 1] ?? '').trim();
    if (!source.includes('-->')) continue;
    if (TIMING_ERRORS.has(e.message)) {
      fatal.push({
        line: e.line,
        message: `line ${e.line}: invalid timestamp '${source}': ${e.message} Cue timings look like '00:01:02.500 --> 00:01:04.000'.`,
      });
    } else if (e.message === END_BEFORE_START) {
      const [start, end] = [...source.matchAll(TIMESTAMP)].map((m) => toSeconds(m[0]));
      if (start !== undefined && end !== undefined && end < start) {
        fatal.push({ line: e.line, message: `line ${e.line}: the cue ends (${formatTime(end)}) before it starts (${formatTime(start)}).` });
      }
    }
  }
  fatal.sort((a, b) => a.line - b.line);
  const first = fatal[0];
  if (!first) return;
  const more = fatal.length > 1 ? ` (and ${fatal.length - 1} more bad cue timing line${fatal.length > 2 ? 's' : ''})` : '';
  throw new TranscriptBuildError('VTT_INVALID', first.message + more, first.line);
}

const END_BEFORE_START = 'End timestamp is not greater than start timestamp.';
const ID_WITHOUT_TIMING = 'Cue identifier needs to be followed by timestamp.';
const STANDALONE_ID = 'Cue identifier cannot be standalone.';
/** a line that starts like a cue timing ("00:01.000 ->", "00:00:01,000") */
const LOOKS_LIKE_TIMING = /^(\d+:)?\d{2}:\d{2}[.,]\d+\s*(-|$)/;
const TIMESTAMP = /(?:(\d+):)?(\d{2}):(\d{2})\.(\d{3})/g;

function toSeconds(timestamp: string): number {
  const [h, m, s, ms] = /^(?:(\d+):)?(\d{2}):(\d{2})\.(\d{3})$/.exec(timestamp)!.slice(1);
  return Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s) + Number(ms) / 1000;
}

/** hh:mm:ss.mmm */
function formatTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/** A run of cue text and the time it starts being spoken (undefined: before the first inline timestamp). */
interface Segment {
  text: string;
  start: number | undefined;
}

function toParsedCue(cue: Cue): ParsedCue {
  const segments: Segment[] = [{ text: '', start: undefined }];
  const voice = { name: undefined as string | undefined };
  flatten(cue.tree.children, segments, voice);
  const parsed: ParsedCue = {
    start: cue.startTime,
    end: cue.endTime,
    text: plainText(segments),
    tokens: tokenize(segments, cue.startTime),
    timed: segments.length > 1,
  };
  if (cue.id) parsed.id = cue.id;
  if (voice.name) parsed.voice = voice.name;
  return parsed;
}

/** The cue text without markup, one trimmed line per non-blank caption line. */
function plainText(segments: readonly Segment[]): string {
  let text = '';
  for (const segment of segments) text += segment.text;
  if (!/\s\s|^\s|\s$|[^\S \n]/.test(text)) return text;
  return text
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter((l) => l !== '')
    .join('\n');
}

/** Walk the cue-text tree: text goes to the current segment, a timestamp opens a new one; ruby annotations (<rt>) are dropped. */
function flatten(nodes: ReadonlyArray<TreeNode<TreeNodeObjectTagNameWithRt>>, segments: Segment[], voice: { name: string | undefined }): void {
  for (const node of nodes) {
    if (node.type === 'text') {
      segments[segments.length - 1]!.text += decodeLeftovers(node.value);
    } else if (node.type === 'timestamp') {
      segments.push({ text: '', start: node.value });
    } else {
      const object = node as { name: string; value: string; children: ReadonlyArray<TreeNode<TreeNodeObjectTagNameWithRt>> };
      if (object.name === 'rt') continue;
      if (object.name === 'v' && voice.name === undefined && object.value) voice.name = object.value.trim();
      flatten(object.children, segments, voice);
    }
  }
}

/** Hex character references the parser leaves as they are ("&#x2F;"). */
function decodeLeftovers(value: string): string {
  if (!value.includes('&#')) return value;
  return value.replace(/&#x([0-9a-f]{1,6});/gi, (whole, hex: string) => {
    const code = parseInt(hex, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** Split the segments into words; a word takes the start of the segment its first character is in. */
function tokenize(segments: readonly Segment[], cueStart: number): CueToken[] {
  const tokens: CueToken[] = [];
  let line = 0;
  let current: CueToken | undefined;
  for (const segment of segments) {
    const text = segment.text;
    const start = segment.start ?? cueStart;
    let from = -1;
    for (let i = 0; i <= text.length; i++) {
      const code = i < text.length ? text.charCodeAt(i) : -1;
      const space = code !== -1 && isSpace(code);
      if (code !== -1 && !space) {
        if (from === -1) from = i;
        continue;
      }
      if (from !== -1) {
        const piece = text.slice(from, i);
        if (current && from === 0) current.text += piece;
        else tokens.push((current = { text: piece, start, line }));
        from = -1;
      }
      if (space) {
        current = undefined;
        if (code === 10) line++;
      }
    }
  }
  return tokens;
}

function isSpace(code: number): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  return code > 127 && /\s/.test(String.fromCharCode(code));
}
