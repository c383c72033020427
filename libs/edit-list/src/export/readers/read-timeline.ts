/**
 * What every reader returns: a neutral description of the timelines in an OTIO, FCPXML or EDL
 * file, in whole frames of each timeline's rate, so tests can compare cut points to the edit
 * list's to the frame. Readers are strict where the format is: a file that breaks a rule throws
 * a ReadError naming the rule and where it broke.
 */
import type { Rate } from '../timeline';

/** One event: source frames [srcIn, srcOut) at record frame recIn (from the timeline's start). */
export interface ReadEvent {
  srcIn: number;
  srcOut: number;
  recIn: number;
  /** the media's name (asset, media reference, FROM CLIP NAME), else the clip's or the reel's */
  sourceName: string;
  /** a constant gain (1 = unchanged) when the format carries one */
  gain?: number;
  /** a nested composition (a stack or track in a track, a compound clip) rather than media */
  nested?: true;
  disabled?: true;
}

export type ReadTrackKind = 'video' | 'audio' | 'audio+video';

export interface ReadTrack {
  name: string;
  kind: ReadTrackKind;
  events: ReadEvent[];
}

export interface ReadTimeline {
  name: string;
  rate: Rate;
  /** the record side's first frame (timecode start), which every recIn counts from */
  start: number;
  tracks: ReadTrack[];
}

export interface ReadResult {
  format: 'otio' | 'fcpxml' | 'edl';
  /** the FCPXML version attribute */
  version?: string;
  timelines: ReadTimeline[];
}

export class ReadError extends Error {
  constructor(
    readonly format: ReadResult['format'],
    message: string,
  ) {
    super(`${format}: ${message}`);
    this.name = 'ReadError';
  }
}

/** Inputs past this many characters are refused before parsing. */
export const READER_MAX_CHARS = 4_000_000;
/** Events (clips, gaps, transitions) past this many in one file are refused. */
export const READER_MAX_EVENTS = 20_000;

export function checkSize(format: ReadResult['format'], text: string): void {
  if (typeof text !== 'string') throw new ReadError(format, 'the input is not text');
  if (text.length > READER_MAX_CHARS) throw new ReadError(format, `the input is ${text.length} characters, over the cap of ${READER_MAX_CHARS}`);
}

/** Counts items against READER_MAX_EVENTS; throws once the file holds more. */
export function eventCounter(format: ReadResult['format']): () => void {
  let n = 0;
  return () => {
    n += 1;
    if (n > READER_MAX_EVENTS) throw new ReadError(format, `more than ${READER_MAX_EVENTS} events`);
  };
}

/** The reduced fraction of a rate. */
export function reduceRate(num: number, den: number): Rate {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const g = gcd(num, den);
  return { num: num / g, den: den / g };
}
