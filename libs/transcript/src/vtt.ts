import { parseCueText, plainText, type Segment } from './cue-text';
import { TranscriptBuildError } from './errors';
import { collectTimestamp, formatTimestamp } from './vtt-timestamp';
import { WarningList, andMore, excerpt, type TranscriptWarning } from './warnings';

/**
 * WebVTT reading, line by line as the W3C WebVTT parser algorithm does ("WebVTT parser algorithm",
 * "collect a WebVTT block", "parse the WebVTT cue timings and settings"): CR LF, CR and LF all end
 * a line and NULL becomes U+FFFD; the file must start with an optional BOM and `WEBVTT` followed by
 * a space, a tab or the end of the line; the header lines right after it are read for
 * `Language:`; blocks are separated by blank lines; a line is a cue timing line only when it
 * contains "-->", and then only as the first line of a block or the second after an identifier;
 * STYLE and REGION blocks count only before the first cue; a cue's text ends at a blank line or
 * at the next line with "-->". Cue settings are read past (a transcript has no use for them).
 *
 * One bad cue never refuses the file: a cue whose timing cannot be read is skipped, a cue that
 * ends before it starts is kept with its start as its end, text outside any cue is skipped, and
 * each of these is a warning with its line. The file is refused only without the signature, or
 * when something was skipped and no cue at all is left. Cue text: cue-text.ts.
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
  /** seconds, >= start (a cue written to end before it starts ends at its start) */
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
  /** cues in time order (by start; at the same start, the longer first; otherwise in file order) */
  cues: VttCue[];
  /** what was skipped or repaired, in file order (at most MAX_TRANSCRIPT_WARNINGS, then a summary) */
  warnings: TranscriptWarning[];
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

/** What readVtt gives the transcript builder. */
export interface ReadVttResult {
  headers: Record<string, string>;
  language?: string;
  cues: ParsedCue[];
  warnings: TranscriptWarning[];
}

/** Parse a WebVTT file into cues; throws TranscriptBuildError (VTT_INVALID, or VTT_EMPTY for an empty file). */
export function parseVtt(text: string): VttCue[] {
  return parseVttDocument(text).cues;
}

/** Parse a WebVTT file into its header, cues and warnings; throws like parseVtt. */
export function parseVttDocument(text: string): VttDocument {
  const { headers, language, cues, warnings } = readVtt(text);
  return {
    headers,
    ...(language !== undefined ? { language } : {}),
    cues: cues.map(({ tokens, timed, ...cue }) => (timed ? { ...cue, words: tokens.map((t) => ({ text: t.text, start: t.start })) } : cue)),
    warnings,
  };
}

/**
 * parseVttDocument plus the word tokens of every cue (what the transcript builder needs).
 * Throws TranscriptBuildError: VTT_EMPTY for an empty file; VTT_INVALID (line 1) without the
 * signature, or when something was skipped and no cue is left (the line of the first problem).
 */
export function readVtt(text: string): ReadVttResult {
  if (typeof text !== 'string' || text.replace(/^\uFEFF/, '').trim() === '') {
    throw new TranscriptBuildError('VTT_EMPTY', 'The subtitle file is empty.');
  }
  const input = text.includes('\0') ? text.replace(/\0/g, '\ufffd') : text;
  const lines = (input.charCodeAt(0) === 0xfeff ? input.slice(1) : input).split(/\r\n|\r|\n/);
  const first = lines[0]!;
  if (!(first.startsWith('WEBVTT') && (first.length === 6 || first[6] === ' ' || first[6] === '\t'))) {
    const looksLikeSrt = /^\d+\s*$/.test(first) && /\d,\d{3}\s*-->/.test(input);
    throw new TranscriptBuildError(
      'VTT_INVALID',
      "The subtitle file is not WebVTT: it must start with 'WEBVTT'." + (looksLikeSrt ? ' It looks like an SRT file; convert it to WebVTT first.' : ''),
      1,
    );
  }
  const reader = new BlockReader(lines);
  const { headers, cues, warnings } = reader.read();
  if (cues.length === 0 && warnings.count > 0) {
    const problem = warnings.first!;
    throw new TranscriptBuildError('VTT_INVALID', `The subtitle file has no usable cue: ${problem.message}${andMore(warnings.count - 1)}.`, problem.line ?? undefined);
  }
  if (!isInTimeOrder(cues)) cues.sort(byTime);
  const languageKey = Object.keys(headers).find((k) => k.toLowerCase() === 'language');
  const language = languageKey !== undefined ? headers[languageKey] : undefined;
  return { headers, ...(language ? { language } : {}), cues, warnings: warnings.toArray() };
}

function byTime(a: ParsedCue, b: ParsedCue): number {
  return a.start - b.start || b.end - a.end;
}

function isInTimeOrder(cues: readonly ParsedCue[]): boolean {
  for (let i = 1; i < cues.length; i++) if (byTime(cues[i - 1]!, cues[i]!) > 0) return false;
  return true;
}

/** "STYLE" or "REGION" when the line is that word followed only by white space (a STYLE or REGION block's first line). */
function blockKeyword(line: string): 'STYLE' | 'REGION' | undefined {
  const word = line.startsWith('STYLE') ? 'STYLE' : line.startsWith('REGION') ? 'REGION' : undefined;
  if (word === undefined) return undefined;
  for (let i = word.length; i < line.length; i++) if (!isAsciiSpace(line.charCodeAt(i))) return undefined;
  return word;
}

/** A comment block's first line: NOTE, then a space, a tab or nothing. */
function isNote(line: string): boolean {
  return line.startsWith('NOTE') && (line.length === 4 || line[4] === ' ' || line[4] === '\t');
}

/** ASCII white space: tab, LF, FF, CR, space. */
function isAsciiSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 12 || code === 13;
}

function skipSpaces(line: string, from: number): number {
  let i = from;
  while (i < line.length && isAsciiSpace(line.charCodeAt(i))) i++;
  return i;
}

/** The would-be timestamp at `from`: up to white space or "-->", for a message. */
function timestampText(line: string, from: number): string {
  let i = from;
  while (i < line.length && i - from <= 40 && !isAsciiSpace(line.charCodeAt(i)) && !line.startsWith('-->', i)) i++;
  return excerpt(line.slice(from, i));
}

/** A line that starts like cue times ("00:01.000 ->", "00:00:01,000"), for the hint on a skipped block. */
function looksLikeTiming(line: string): boolean {
  const i = skipSpaces(line, 0);
  let j = i;
  while (j < line.length && j - i < 12 && line.charCodeAt(j) >= 48 && line.charCodeAt(j) <= 57) j++;
  return j > i && line[j] === ':';
}

type Timings = { ok: true; start: number; end: number } | { ok: false; problem: string };

/** "Parse the WebVTT cue timings and settings", without the settings. */
function parseTimings(line: string): Timings {
  let p = skipSpaces(line, 0);
  if (line.startsWith('-->', p)) return { ok: false, problem: "there is no start time before '-->'" };
  const start = collectTimestamp(line, p);
  if (!start.ok) return { ok: false, problem: `timestamp '${timestampText(line, p)}' is not valid (${start.reason})` };
  p = skipSpaces(line, start.end);
  if (!line.startsWith('-->', p)) {
    return { ok: false, problem: `'-->' must follow the start time, not '${timestampText(line, p)}'` };
  }
  p = skipSpaces(line, p + 3);
  if (p >= line.length) return { ok: false, problem: "there is no end time after '-->'" };
  const end = collectTimestamp(line, p);
  if (!end.ok) return { ok: false, problem: `timestamp '${timestampText(line, p)}' is not valid (${end.reason})` };
  return { ok: true, start: start.seconds, end: end.seconds };
}

/** The blocks of a file, after its signature line. */
class BlockReader {
  private readonly headers: Record<string, string> = {};
  private readonly cues: ParsedCue[] = [];
  private readonly warnings = new WarningList();
  private seenCue = false;

  constructor(private readonly lines: readonly string[]) {}

  read(): { headers: Record<string, string>; cues: ParsedCue[]; warnings: WarningList } {
    const lines = this.lines;
    let i = 1;
    // the header: the lines right after the signature line, up to a blank line or a line with "-->"
    while (i < lines.length && lines[i] !== '' && !lines[i]!.includes('-->')) this.header(lines[i++]!);
    while (i < lines.length) {
      if (lines[i] === '') i++;
      else i = this.block(i);
    }
    return { headers: this.headers, cues: this.cues, warnings: this.warnings };
  }

  private header(line: string): void {
    const colon = line.indexOf(':');
    if (colon <= 0) return;
    const key = line.slice(0, colon).trim();
    if (key !== '') this.headers[key] = line.slice(colon + 1).trim();
  }

  /** "Collect a WebVTT block" from line index `from` (not blank); returns the index of the line after it. */
  private block(from: number): number {
    const lines = this.lines;
    let i = from;
    let count = 0;
    let seenArrow = false;
    /** the cue's text lines are lines[textFrom, i) */
    let textFrom = from;
    let cue: { id: string; start: number; end: number } | undefined;
    let keyword: 'STYLE' | 'REGION' | undefined;
    const seenCueBefore = this.seenCue;
    while (i < lines.length) {
      const line = lines[i]!;
      count++;
      if (line.includes('-->')) {
        // a timing line only as the block's first line, or its second after an identifier
        if (!(count === 1 || (count === 2 && !seenArrow))) break;
        seenArrow = true;
        i++;
        const timings = parseTimings(line);
        if (timings.ok) {
          cue = { id: count === 2 ? lines[from]! : '', start: timings.start, end: timings.end };
          if (timings.end < timings.start) {
            this.warnings.add(
              i,
              `cue at line ${i} ends (${formatTimestamp(timings.end)}) before it starts (${formatTimestamp(timings.start)}): kept with its start as its end`,
            );
            cue.end = timings.start;
          }
          this.seenCue = true;
        } else {
          cue = undefined;
          this.warnings.add(i, `cue at line ${i} skipped: ${timings.problem}`);
        }
        textFrom = i;
        continue;
      }
      if (line === '') break;
      if (count === 2 && !seenArrow && !this.seenCue) {
        keyword = blockKeyword(lines[from]!);
        if (keyword) textFrom = i;
      }
      i++;
    }
    if (cue) {
      const text = i - textFrom === 1 ? lines[textFrom]! : lines.slice(textFrom, i).join('\n');
      this.cues.push(toParsedCue(cue, text));
    } else if (!seenArrow && !keyword) {
      this.skippedBlock(from, i, seenCueBefore);
    }
    return i;
  }

  /** A block with no cue timing line: a comment, a STYLE or REGION block, or text outside any cue. */
  private skippedBlock(from: number, to: number, afterCue: boolean): void {
    const first = this.lines[from]!;
    const line = from + 1;
    if (isNote(first)) return;
    const keyword = blockKeyword(first);
    if (keyword) {
      if (afterCue) this.warnings.add(line, `line ${line}: a ${keyword} block after the first cue is ignored`);
      return;
    }
    const timingLike = looksLikeTiming(first) ? from : to - from > 1 && looksLikeTiming(this.lines[from + 1]!) ? from + 1 : -1;
    if (timingLike !== -1) {
      this.warnings.add(
        timingLike + 1,
        `cue at line ${timingLike + 1} skipped: '${excerpt(this.lines[timingLike]!)}' is not a cue timing line (the start and end times are separated by '-->')`,
      );
      return;
    }
    const size = to - from > 1 ? ` (${to - from} lines)` : '';
    this.warnings.add(line, `text at line ${line} skipped${size}: it is not in a cue (a blank line ends a cue's text): '${excerpt(first)}'`);
  }
}

function toParsedCue(cue: { id: string; start: number; end: number }, text: string): ParsedCue {
  const { segments, voice } = parseCueText(text);
  const parsed: ParsedCue = {
    start: cue.start,
    end: cue.end,
    text: plainText(segments),
    tokens: tokenize(segments, cue.start),
    timed: segments.length > 1,
  };
  if (cue.id) parsed.id = cue.id;
  if (voice) parsed.voice = voice;
  return parsed;
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
