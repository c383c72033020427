/** The EDL reader on OpenTimelineIO's CMX3600 sample EDLs (fixtures/README.md), and on the CMX3600 rules it holds files to. */
import { readFileSync } from 'fs';
import { join } from 'path';
import { thrownBy } from '../../../../../tools/testing/thrown';
import { readEdl } from './edl-reader';
import { ReadError, type ReadEvent } from './read-timeline';
import type { Rate } from '../timeline';

const fixture = (name: string): string => readFileSync(join(__dirname, 'fixtures', name), 'utf8');
const cuts = (events: readonly ReadEvent[]) => events.map((e) => [e.srcIn, e.srcOut, e.recIn]);
const NTSC: Rate = { num: 30000, den: 1001 };
const R25: Rate = { num: 25, den: 1 };
const R30: Rate = { num: 30, den: 1 };
const refused = (text: string, rate: Rate = R30): string => thrownBy(() => readEdl(text, rate), ReadError).message;
const edl = (...events: string[]) => ['TITLE: test', ...events].join('\n');
const ev = (tcs: string, head = '001  AX       V     C       ') => `${head} ${tcs}`;

describe('EDL reader on the OpenTimelineIO sample EDLs', () => {
  it('25fps.edl: four cuts from reel SC00.JPG at 25, the clip names from FROM CLIP NAME, record from 00:00:00:00', () => {
    const [tl] = readEdl(fixture('25fps.edl'), R25).timelines;
    expect(tl!.name).toBe('SQ0002_A2');
    expect(tl!.tracks.map((t) => t.name)).toEqual(['V']);
    const events = tl!.tracks[0]!.events;
    // 01:00:00:00 is frame 90000 at 25; 01:00:06:11 is 90161; the last source out 01:00:01:24 is 90049
    expect(cuts(events)).toEqual([[90000, 90161, 0], [90000, 90200, 161], [90000, 90086, 361], [90000, 90049, 447]]);
    expect(events.map((e) => e.sourceName)).toEqual(['sq001_s001', 'sq001_s002', 'sq001_s003', 'sq001_s004']);
  });

  it('screening_example.edl: nine cuts at 24 whose record starts at 00:59:53:11; LOC and effect comments are passed over', () => {
    const [tl] = readEdl(fixture('screening_example.edl'), { num: 24, den: 1 }).timelines;
    expect(tl!.start).toBe(3593 * 24 + 11);
    const events = tl!.tracks[0]!.events;
    expect(events).toHaveLength(9);
    expect(cuts([events[0]!, events[8]!])).toEqual([[(3600 + 4) * 24 + 5, (3600 + 5) * 24 + 12, 0], [(3600 + 4) * 24 + 5, (3600 + 14) * 24 + 22, 792]]);
    expect(events[8]!.sourceName).toBe('ZZ100_510B (LAY1)');
    // each event starts where the last ended: a cut list without holes
    events.slice(1).forEach((e, k) => expect(e.recIn).toBe(events[k]!.recIn + events[k]!.srcOut - events[k]!.srcIn));
  });

  it('premiere_example.edl: no FCM line (non-drop by its colons), fields separated by any white space', () => {
    const events = readEdl(fixture('premiere_example.edl'), { num: 24, den: 1 }).timelines[0]!.tracks[0]!.events;
    expect(events.map((e) => [e.srcOut - e.srcIn, e.recIn, e.sourceName])).toEqual([[31, 0, 'ZZ100_501.take_1.0001.exr'], [50, 31, 'ZZ100_502A.take_2.0101.exr']]);
  });

  it('timecode_mismatch.edl: refused, for event 004 plays 49 source frames over 47 record frames', () => {
    expect(refused(fixture('timecode_mismatch.edl'), R25)).toMatch(/line 13: the source is 49 frames and the record 47/);
  });
});

describe('EDL reader rules', () => {
  it('counts drop-frame timecode as SMPTE does (29.97 and 59.94)', () => {
    const df = (tc: string, rate = NTSC) => readEdl(edl('FCM: DROP FRAME', ev(`00:00:00;00 ${tc} 00:00:00;00 ${tc}`)), rate).timelines[0]!.tracks[0]!.events[0]!.srcOut;
    expect([df('00:00:59;29'), df('00:01:00;02'), df('00:10:00;00'), df('01:00:00;00')]).toEqual([1799, 1800, 17982, 107892]);
    expect(df('00:01:00;04', { num: 60000, den: 1001 })).toBe(3600);
    // CMX3600's own convention: FCM alone says drop frame, the timecodes keep their colons
    expect(readEdl(edl('FCM: DROP FRAME', ev('00:00:00:00 00:10:00:00 00:00:00:00 00:10:00:00')), NTSC).timelines[0]!.tracks[0]!.events[0]!.srcOut).toBe(17982);
  });

  it('refuses drop frame where it is not in force, skipped frame numbers and mixed separators', () => {
    expect(refused(edl('FCM: NON-DROP FRAME', ev('00:00:00;00 00:00:01;00 00:00:00;00 00:00:01;00')), NTSC)).toMatch(/is drop frame \(';'\) under FCM: NON-DROP FRAME/);
    expect(refused(edl(ev('00:00:59;29 00:01:00;00 00:00:00;00 00:00:00;01')), NTSC)).toMatch(/frame 0 is skipped at the start of minute 1/);
    expect(refused(edl(ev('00:00:00;00 00:00:01:00 00:00:00;00 00:00:01;00')), NTSC)).toMatch(/mix ':' and ';'/);
    expect(refused(edl('FCM: DROP FRAME', ev('00:00:00;00 00:00:01;00 00:00:00;00 00:00:01;00')), R25)).toMatch(/drop frame at 25\/1, a rate that has none/);
    expect(refused(edl('FCM: HALF FRAME'))).toMatch(/neither DROP FRAME nor NON-DROP FRAME/);
  });

  it('holds event lines to the CMX3600 fields', () => {
    expect(refused('001  AX V C 00:00:00:00 00:00:01:00 00:00:00:00 00:00:01:00')).toMatch(/line 1: an EDL begins with a TITLE line/);
    expect(refused(edl(ev('00:00:00:00 00:00:01:00 00:00:00:00 00:00:01:00', '001  NINECHARS V     C       ')))).toMatch(/the reel 'NINECHARS' is longer than 8 characters/);
    expect(refused(edl(ev('00:00:00:00 00:00:01:00 00:00:00:00 00:00:01:00', '0001  AX      V     C       ')))).toMatch(/event number '0001' is not 3 digits/);
    expect(refused(edl(ev('00:00:00:00 00:00:01:00 00:00:00:00 00:00:01:00', '001  AX       Q     C       ')))).toMatch(/'Q' is not a CMX3600 channel/);
    expect(refused(edl(ev('00:00:00:00 00:00:01:00 00:00:00:00 00:00:01:00', '001  AX       V     X       ')))).toMatch(/the transition 'X'/);
    expect(refused(edl(ev('00:00:00:00 00:00:01:00 00:00:00:00', '001  AX       V     C       ')))).toMatch(/four timecodes/);
    expect(refused(edl(ev('00:00:00:00 00:00:01:30 00:00:00:00 00:00:02:00')))).toMatch(/frame 30 does not exist at 30 frames a second/);
    expect(refused(edl(ev('00:00:00:00 00:00:01:00 00:00:00:00 00:00:01:00'), 'M2   AX       060.0                      00:00:00:00'))).toMatch(/speed change \(M2\) is not read/);
    expect(refused(edl(ev('00:00:00:00 00:00:01:00 00:00:00:00 00:00:01:00'), 'FROM CLIP NAME: x'))).toMatch(/is not a CMX3600 line/);
    expect(refused(edl(ev('00:00:00:00 00:00:01:00 00:00:05:00 00:00:06:00'), ev('00:00:00:00 00:00:01:00 00:00:00:00 00:00:01:00', '002  AX       V     C       ')))).toMatch(/track V: .* comes after .* record order/);
  });

  it('puts AA/V on the picture and two audio tracks, and a dissolve on the event it brings in', () => {
    const [tl] = readEdl(edl(
      ev('00:00:00:00 00:00:01:00 00:00:00:00 00:00:01:00', '001  AX       AA/V  C       '),
      ev('00:00:05:00 00:00:05:00 00:00:01:00 00:00:01:00', '002  AX       V     C       '),
      ev('00:00:09:00 00:00:09:10 00:00:01:00 00:00:01:10', '002  BX       V     D    010'),
      '* FROM CLIP NAME: out.mov',
      '* TO CLIP NAME: in.mov',
    ), R30).timelines;
    expect(tl!.tracks.map((t) => [t.name, t.kind, t.events.length])).toEqual([['V', 'video', 3], ['A1', 'audio', 1], ['A2', 'audio', 1]]);
    expect(tl!.tracks[0]!.events.map((e) => e.sourceName)).toEqual(['AX', 'out.mov', 'in.mov']);
  });
});
