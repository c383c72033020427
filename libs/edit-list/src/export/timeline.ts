/**
 * The edit as an editing application's timeline: the kept source ranges in play order, on the
 * source's frames, split where a mute starts or ends (each piece with its gain), laid end to end
 * from frame 0 of the record side. Every exporter (EDL, FCPXML, OTIO, MLT) writes these pieces.
 */
import { assertEditList } from '../schema';
import { MUTE_VOLUME, type EditList } from '../types';

/** A frame rate as a fraction (30000/1001, not 29.97; 25 stays 25/1). */
export interface Rate {
  num: number;
  den: number;
}

/** Rates written as n/1001 when a float rate is within this of one. */
const NTSC_TOLERANCE = 0.002;

/**
 * The exact rate a probed float names: n x 1000/1001 (23.976, 29.97, 59.94…) when it is one,
 * else a whole number, else thousandths. Out-of-range rates (unknown) are 30.
 */
export function rationalRate(fps: number): Rate {
  if (!Number.isFinite(fps) || fps <= 0 || fps > 1000) return { num: 30, den: 1 };
  const ntsc = Math.round((fps * 1001) / 1000);
  if (Math.abs((ntsc * 1000) / 1001 - fps) < NTSC_TOLERANCE && Math.abs(ntsc - fps) > NTSC_TOLERANCE) return { num: ntsc * 1000, den: 1001 };
  if (Math.abs(Math.round(fps) - fps) < NTSC_TOLERANCE) return { num: Math.round(fps), den: 1 };
  return { num: Math.round(fps * 1000), den: 1000 };
}

/** Frames per second as a float (for formats that want one, and for timecode bases). */
export const rateValue = (r: Rate): number => r.num / r.den;

/** The nearest frame of `sec` seconds at `rate`. */
export function frameAt(sec: number, rate: Rate): number {
  return Math.round((sec * rate.num) / rate.den);
}

/** One piece of the timeline: source frames [srcIn, srcOut) at record frame recIn, at `gain`. */
export interface TimelinePiece {
  srcIn: number;
  srcOut: number;
  recIn: number;
  /** 1, or the mute level's volume (0, 0.1, 0.3) */
  gain: number;
}

/**
 * The pieces of `el` at `rate`: each kept segment in play order, cut into frames, split at the
 * mutes that fall inside it; empty pieces (shorter than a frame) are left out and the next piece
 * starts where the last ended, so no gap is left where a cut was.
 */
export function timelinePieces(el: EditList, rate: Rate): TimelinePiece[] {
  assertEditList(el);
  const pieces: TimelinePiece[] = [];
  const mutes = el.mutes.map((m) => ({ start: frameAt(m.start, rate), end: frameAt(m.end, rate), gain: MUTE_VOLUME[m.level] }));
  let rec = 0;
  for (const s of el.segments) {
    const start = frameAt(s.start, rate);
    const end = frameAt(s.end, rate);
    if (end <= start) continue;
    const cuts = new Set([start, end]);
    for (const m of mutes) {
      if (m.start > start && m.start < end) cuts.add(m.start);
      if (m.end > start && m.end < end) cuts.add(m.end);
    }
    const bounds = [...cuts].sort((a, b) => a - b);
    for (let k = 0; k + 1 < bounds.length; k++) {
      const a = bounds[k]!;
      const b = bounds[k + 1]!;
      const mute = mutes.find((m) => m.start <= a && m.end >= b);
      pieces.push({ srcIn: a, srcOut: b, recIn: rec, gain: mute ? mute.gain : 1 });
      rec += b - a;
    }
  }
  return pieces;
}

/** A further timeline an export carries beside the edit (a clip, say), by its name. */
export interface NamedTimeline {
  name: string;
  pieces: readonly TimelinePiece[];
}

/** The record side's length in frames. */
export function timelineFrames(pieces: readonly TimelinePiece[]): number {
  const last = pieces[pieces.length - 1];
  return last ? last.recIn + (last.srcOut - last.srcIn) : 0;
}

/** What every export says of its source: the file, its size and frame rate (a variable rate is described at its nominal one). */
export interface ExportSource {
  /** the original's file name as the user knows it */
  fileName: string;
  /** where an application finds it (a file:// or https:// URL), written escaped */
  url: string;
  title: string;
  rate: Rate;
  variableFrameRate: boolean;
  width: number | null;
  height: number | null;
  /** the source's length in seconds */
  durationSec: number;
  hasAudio: boolean;
  /** full-range (JPEG) levels */
  fullRange: boolean;
}

/** Escapes text for XML attributes and content. */
export function xmlEscape(text: string): string {
  const escaped = text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
  // characters XML 1.0 cannot hold (controls other than tab, line feed, carriage return) are left out
  let out = '';
  for (const ch of escaped) {
    const code = ch.charCodeAt(0);
    if (code >= 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) out += ch;
  }
  return out;
}

/** A file name as a path segment of a URL (spaces and non-ASCII characters percent-encoded). */
export function fileUrl(directory: string, fileName: string): string {
  return `${directory.replace(/\/+$/, '')}/${encodeURIComponent(fileName)}`;
}
