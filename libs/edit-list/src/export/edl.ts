/**
 * CMX3600 EDL: one video track with its audio on A1/A2 (channel AA/V), one event per piece,
 * source and record timecode on the source's rate (drop-frame for 29.97 and 59.94, declared by
 * the FCM line and used in every timecode), reels of at most 8 characters with the file in a
 * FROM CLIP NAME comment. Gains cannot be carried: muted pieces get a comment saying so. An EDL
 * is one timeline: clips exported as timelines of their own go to OTIO and FCPXML only.
 */
import { type ExportSource, type Rate, type TimelinePiece } from './timeline';

/** The record side starts at one hour, as editing systems expect. */
const RECORD_START_HOURS = 1;
/** The reel every event names (AX: an auxiliary source, the file named in the comment). */
export const EDL_REEL = 'AX';

/** Drop-frame timecode applies to the NTSC rates 30000/1001 and 60000/1001. */
export function isDropFrame(rate: Rate): boolean {
  return rate.den === 1001 && (rate.num === 30000 || rate.num === 60000);
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Frame `frame` as timecode at `rate`: HH:MM:SS:FF counted in the rate's whole frames per second,
 * or drop-frame (HH:MM:SS;FF, frame numbers 0 and 1 (0-3 at 59.94) skipped each minute except
 * every tenth) for the NTSC rates.
 */
export function timecode(frame: number, rate: Rate): string {
  const base = Math.round(rate.num / rate.den);
  let f = Math.max(0, Math.round(frame));
  let sep = ':';
  if (isDropFrame(rate)) {
    sep = ';';
    const drop = base === 60 ? 4 : 2;
    const perMinute = base * 60 - drop;
    const perTen = perMinute * 10 + drop;
    const tens = Math.floor(f / perTen);
    const rest = f % perTen;
    f += drop * 9 * tens + (rest > drop ? drop * Math.floor((rest - drop) / perMinute) : 0);
  }
  const ff = f % base;
  const totalSec = Math.floor(f / base);
  return `${pad(Math.floor(totalSec / 3600) % 24)}:${pad(Math.floor(totalSec / 60) % 60)}:${pad(totalSec % 60)}${sep}${pad(ff)}`;
}

/** The EDL of the pieces; the title and file names lose line breaks (one field per line). */
export function writeEdl(source: ExportSource, pieces: readonly TimelinePiece[]): string {
  const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').trim();
  const base = Math.round(source.rate.num / source.rate.den);
  const recordStart = RECORD_START_HOURS * 3600 * base - (isDropFrame(source.rate) ? RECORD_START_HOURS * 6 * (base === 60 ? 36 : 18) : 0);
  const lines = [`TITLE: ${oneLine(source.title).slice(0, 70)}`, `FCM: ${isDropFrame(source.rate) ? 'DROP FRAME' : 'NON-DROP FRAME'}`, ''];
  pieces.forEach((p, k) => {
    const event = String(k + 1).padStart(3, '0');
    const length = p.srcOut - p.srcIn;
    lines.push(
      `${event}  ${EDL_REEL.padEnd(8)} ${'AA/V'.padEnd(5)} C        ${timecode(p.srcIn, source.rate)} ${timecode(p.srcOut, source.rate)} ${timecode(recordStart + p.recIn, source.rate)} ${timecode(recordStart + p.recIn + length, source.rate)}`,
    );
    lines.push(`* FROM CLIP NAME: ${oneLine(source.fileName)}`);
    if (p.gain < 1) lines.push(`* WORDCUT MUTE: audio at ${Math.round(p.gain * 100)}% (an EDL cannot carry gain)`);
    lines.push('');
  });
  return lines.join('\n');
}
