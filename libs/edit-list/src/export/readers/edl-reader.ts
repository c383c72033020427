/**
 * Reads a CMX3600 EDL at the rate the caller names (an EDL does not carry one). The rules it holds
 * a file to: a TITLE line first (at most 70 characters); FCM lines of DROP FRAME or NON-DROP FRAME;
 * each event line has CMX3600's fields in order (a 3-digit event number, a reel of at most 8
 * characters, a channel, a transition, a duration for a dissolve or wipe, four timecodes); a
 * drop-frame timecode (';') only where drop frame is in force, one separator throughout a frame code
 * mode, no frame number drop frame skips; source and record lengths equal; events in record order
 * on each track. Comments ('*') are read for FROM CLIP NAME and TO CLIP NAME; a speed change (M2)
 * or split edit is refused. Record frames count from the first event's record in.
 */
import type { Rate } from '../timeline';
import { parseTimecode, timecodeFrames } from './edl-timecode';
import { ReadError, checkSize, eventCounter, type ReadEvent, type ReadResult, type ReadTrack } from './read-timeline';

const MAX_TITLE = 70;
const MAX_REEL = 8;
const EVENT = /^(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(?:(\d{3})\s+)?(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$/;
const TRANSITION = /^(C|D|W\d{3}|K[BO]?)$/;

const fail = (line: number, message: string): never => {
  throw new ReadError('edl', `line ${line}: ${message}`);
};

/** The tracks a channel field puts an event on: V, A1, A2… ('AA/V' is picture and two audio channels). */
function tracksOf(channel: string, line: number): string[] {
  if (channel === 'NONE') return [];
  if (channel === 'B') return ['V', 'A1'];
  const parts = channel.split('/');
  const tracks = parts.flatMap((p) => {
    if (p === 'V') return ['V'];
    if (p === 'AA') return ['A1', 'A2'];
    const a = /^A(\d{0,2})$/.exec(p);
    if (a && a[1] !== '0' && a[1] !== '00') return [`A${a[1] || '1'}`];
    return fail(line, `the channel '${channel}' is not a CMX3600 channel (V, A, A2, AA, AA/V, B…)`);
  });
  if (new Set(tracks).size !== tracks.length || parts.length > 2) fail(line, `the channel '${channel}' is not a CMX3600 channel`);
  return tracks;
}

interface Pending {
  number: string;
  lines: Array<{ tracks: string[]; event: ReadEvent }>;
}

export function readEdl(text: string, rate: Rate): ReadResult {
  checkSize('edl', text);
  if (!(rate.num > 0 && rate.den > 0)) throw new ReadError('edl', 'the rate is not positive');
  const count = eventCounter('edl');
  const lines = text.split(/\r\n|\n|\r/);
  let title: string | null = null;
  let mode: 'drop' | 'non-drop' | null = null;
  let separator: boolean | null = null;
  const groups: Pending[] = [];
  lines.forEach((raw, k) => {
    const n = k + 1;
    const line = raw.replace(/\s+$/, '');
    if (line.trim() === '') return;
    if (title === null) {
      const m = /^TITLE:\s*(.*)$/.exec(line) ?? fail(n, 'an EDL begins with a TITLE line');
      if (m[1]!.length > MAX_TITLE) fail(n, `the title is longer than ${MAX_TITLE} characters`);
      title = m[1]!;
      return;
    }
    if (line.startsWith('TITLE:')) fail(n, 'a second TITLE line');
    const fcm = /^FCM:\s*(.*)$/.exec(line);
    if (fcm) {
      if (fcm[1] === 'DROP FRAME') mode = 'drop';
      else if (fcm[1] === 'NON-DROP FRAME' || fcm[1] === 'NON DROP FRAME') mode = 'non-drop';
      else fail(n, `FCM '${fcm[1]}' is neither DROP FRAME nor NON-DROP FRAME`);
      separator = null;
      return;
    }
    if (line.startsWith('*')) {
      const last = groups[groups.length - 1];
      const name = /^\*\s*(FROM|TO) CLIP NAME:\s*(.*)$/.exec(line);
      if (last && name) {
        const target = name[1] === 'FROM' ? last.lines[0] : last.lines[last.lines.length - 1];
        if (target) target.event.sourceName = name[2]!.trim();
      }
      return;
    }
    if (/^M2\s/.test(line)) fail(n, 'a speed change (M2) is not read');
    if (/^SPLIT:/.test(line)) fail(n, 'a split edit is not read');
    if (/^EFFECTS NAME IS /.test(line)) return;
    const aud = /^AUD\s+(\d)(?:\s+(\d))?$/.exec(line);
    if (aud) {
      const last = groups[groups.length - 1]?.lines.at(-1) ?? fail(n, 'AUD before any event');
      for (const ch of [aud[1], aud[2]]) if (ch) last.tracks.push(`A${ch}`);
      return;
    }
    if (!/^\d/.test(line)) fail(n, `'${line.slice(0, 20)}' is not a CMX3600 line`);
    const m = EVENT.exec(line) ?? fail(n, 'an event line needs an event number, reel, channel, transition and four timecodes');
    const [number, reel, channel, transition] = [m[1]!, m[2]!, m[3]!, m[4]!];
    const duration = m[5];
    if (number.length !== 3) fail(n, `the event number '${number}' is not 3 digits`);
    if (reel.length > MAX_REEL) fail(n, `the reel '${reel}' is longer than ${MAX_REEL} characters`);
    if (!TRANSITION.test(transition)) fail(n, `the transition '${transition}' is not C, D, Wnnn or K`);
    if ((transition === 'C') !== (duration === undefined)) fail(n, transition === 'C' ? 'a cut has no transition duration' : `the transition ${transition} needs a duration`);
    const frames = m.slice(6, 10).map((text) => {
      const tc = parseTimecode(text!) ?? fail(n, `'${text}' is not a timecode HH:MM:SS:FF or HH:MM:SS;FF`);
      if (tc.drop && mode === 'non-drop') fail(n, `'${text}' is drop frame (';') under FCM: NON-DROP FRAME`);
      if (separator !== null && tc.drop !== separator) fail(n, "timecodes mix ':' and ';' in one frame code mode");
      separator = tc.drop;
      const f = timecodeFrames(tc, rate, mode === 'drop' || tc.drop);
      return typeof f === 'number' ? f : fail(n, `'${text}': ${f}`);
    });
    const [srcIn, srcOut, recIn, recOut] = frames as [number, number, number, number];
    if (srcOut < srcIn || recOut < recIn) fail(n, 'an out point before its in point');
    if (srcOut - srcIn !== recOut - recIn) fail(n, `the source is ${srcOut - srcIn} frames and the record ${recOut - recIn}: a cut plays its source at speed`);
    count();
    const entry = { tracks: tracksOf(channel, n), event: { srcIn, srcOut, recIn, sourceName: reel } };
    const last = groups[groups.length - 1];
    if (last && last.number === number) last.lines.push(entry);
    else groups.push({ number, lines: [entry] });
  });
  if (title === null) throw new ReadError('edl', 'an EDL begins with a TITLE line');
  const entries = groups.flatMap((g) => g.lines);
  const start = entries.length > 0 ? entries.reduce((lo, e) => Math.min(lo, e.event.recIn), Infinity) : 0;
  const tracks = new Map<string, ReadTrack>();
  const reached = new Map<string, number>();
  for (const { tracks: names, event } of entries) {
    for (const name of names) {
      if ((reached.get(name) ?? -Infinity) > event.recIn) throw new ReadError('edl', `track ${name}: an event at record frame ${event.recIn} comes after one at ${reached.get(name)} (events are listed in record order)`);
      reached.set(name, event.recIn);
      const track = tracks.get(name) ?? { name, kind: name === 'V' ? 'video' : 'audio', events: [] };
      track.events.push({ ...event, recIn: event.recIn - start });
      tracks.set(name, track);
    }
  }
  // picture first, then audio channels in number order
  const order = (name: string) => (name === 'V' ? 0 : Number(name.slice(1)));
  const sorted = [...tracks.values()].sort((a, b) => order(a.name) - order(b.name));
  return { format: 'edl', timelines: [{ name: title, rate, start, tracks: sorted }] };
}
