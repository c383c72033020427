/**
 * SMPTE timecode as CMX3600 writes it: HH:MM:SS:FF, or HH:MM:SS;FF for drop frame, where at
 * 29.97 (59.94) frame numbers 00 and 01 (00 to 03) do not exist at the start of each minute
 * except every tenth.
 */
import { isDropFrame } from '../edl';
import type { Rate } from '../timeline';

export interface Timecode {
  hh: number;
  mm: number;
  ss: number;
  ff: number;
  drop: boolean;
}

const TC = /^(\d\d):(\d\d):(\d\d)([:;])(\d\d)$/;

/** The fields of `text`, or null when it is not of the form HH:MM:SS:FF or HH:MM:SS;FF. */
export function parseTimecode(text: string): Timecode | null {
  const m = TC.exec(text);
  if (!m) return null;
  return { hh: Number(m[1]), mm: Number(m[2]), ss: Number(m[3]), ff: Number(m[5]), drop: m[4] === ';' };
}

/** Frames dropped at each minute's start: 2 at 29.97, 4 at 59.94. */
const dropPerMinute = (base: number) => (base === 60 ? 4 : 2);

/**
 * The frame `tc` counts at `rate`, counting drop frame when `drop`; a string saying what is
 * wrong when a field is out of range or names a frame number drop frame skips.
 */
export function timecodeFrames(tc: Timecode, rate: Rate, drop: boolean): number | string {
  const base = Math.round(rate.num / rate.den);
  if (tc.hh > 23 || tc.mm > 59 || tc.ss > 59) return 'hours, minutes or seconds out of range';
  if (tc.ff >= base) return `frame ${tc.ff} does not exist at ${base} frames a second`;
  const seconds = (tc.hh * 60 + tc.mm) * 60 + tc.ss;
  if (!drop) return seconds * base + tc.ff;
  if (!isDropFrame(rate)) return `drop frame at ${rate.num}/${rate.den}, a rate that has none`;
  const skip = dropPerMinute(base);
  if (tc.ss === 0 && tc.mm % 10 !== 0 && tc.ff < skip) return `frame ${tc.ff} is skipped at the start of minute ${tc.mm} in drop frame`;
  const minutes = tc.hh * 60 + tc.mm;
  return seconds * base + tc.ff - skip * (minutes - Math.floor(minutes / 10));
}
