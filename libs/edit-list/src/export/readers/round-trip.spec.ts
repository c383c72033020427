/**
 * Our writers read back by our readers: the cut points each format holds equal the edit list's
 * timeline pieces to the frame, on every track, at whole and NTSC rates; gains come back where
 * the format carries them (OTIO metadata, FCPXML adjust-volume); further timelines come back as
 * timelines of their own.
 */
import fc from 'fast-check';
import { applyCuts, applyMutes, applyReorder, identityEditList, type EditList } from '../../index';
import { editListArb } from '../../arbitraries.spec-helpers';
import { fcpTime, readEdl, readFcpxml, readOtio, timelinePieces, writeEdl, writeFcpxml, writeOtio, type ExportSource, type Rate, type ReadEvent, type ReadTimeline, type TimelinePiece } from '../index';

const R30: Rate = { num: 30, den: 1 };
const R25: Rate = { num: 25, den: 1 };
const NTSC: Rate = { num: 30000, den: 1001 };
const NTSC60: Rate = { num: 60000, den: 1001 };

const source = (rate: Rate, durationSec: number, hasAudio = true): ExportSource => ({
  fileName: 'Interview take 3.mov',
  url: 'file:///Interview%20take%203.mov',
  title: 'Interview & notes',
  rate,
  variableFrameRate: false,
  width: 1920,
  height: 1080,
  durationSec,
  hasAudio,
  fullRange: false,
});

const cutsOf = (events: readonly ReadEvent[]) => events.map(({ srcIn, srcOut, recIn }) => ({ srcIn, srcOut, recIn }));
const cutsOfPieces = (pieces: readonly TimelinePiece[]) => pieces.map(({ srcIn, srcOut, recIn }) => ({ srcIn, srcOut, recIn }));

/** The events are the pieces to the frame; with `gains`, muted pieces' gains come back (to 0.01 dB) and the others carry none. */
function expectPieces(events: readonly ReadEvent[], pieces: readonly TimelinePiece[], gains: boolean): void {
  expect(cutsOf(events)).toEqual(cutsOfPieces(pieces));
  events.forEach((e, k) => {
    const want = pieces[k]!.gain;
    if (gains && want < 1) expect(e.gain).toBeCloseTo(want, 3);
    else expect(e.gain === undefined || e.gain === 1).toBe(true);
  });
}

function checkOtio(timeline: ReadTimeline, pieces: readonly TimelinePiece[], rate: Rate, hasAudio = true): void {
  expect(timeline.rate).toEqual(rate);
  expect(timeline.tracks.map((t) => t.kind)).toEqual(hasAudio ? ['video', 'audio'] : ['video']);
  expectPieces(timeline.tracks[0]!.events, pieces, false);
  if (hasAudio) expectPieces(timeline.tracks[1]!.events, pieces, true);
}

function checkFcpxml(timeline: ReadTimeline, pieces: readonly TimelinePiece[], rate: Rate): void {
  expect(timeline.rate).toEqual(rate);
  expect(timeline.start).toBe(0);
  expectPieces(timeline.tracks[0]!.events, pieces, true);
}

/** Every round trip of one edit list at one rate. */
function roundTrip(el: EditList, rate: Rate): TimelinePiece[] {
  const pieces = timelinePieces(el, rate);
  const src = source(rate, el.sourceDuration);
  const otio = readOtio(writeOtio(src, pieces)).timelines;
  expect(otio).toHaveLength(1);
  checkOtio(otio[0]!, pieces, rate);
  const fcpxml = readFcpxml(writeFcpxml(src, pieces));
  expect(fcpxml.version).toBe('1.10');
  expect(fcpxml.timelines).toHaveLength(1);
  checkFcpxml(fcpxml.timelines[0]!, pieces, rate);
  const [edl] = readEdl(writeEdl(src, pieces), rate).timelines;
  if (pieces.length > 0) {
    // the record side starts at one hour: 01:00:00;00 is frame 107892 in drop frame
    const base = Math.round(rate.num / rate.den);
    expect(edl!.start).toBe(3600 * base - (rate.den === 1001 ? (base === 60 ? 216 : 108) : 0));
    expect(edl!.tracks.map((t) => t.name)).toEqual(['V', 'A1', 'A2']);
    for (const track of edl!.tracks) expectPieces(track.events, pieces, false);
    expect(edl!.tracks[0]!.events.every((e) => e.sourceName === src.fileName)).toBe(true);
  }
  return pieces;
}

describe('round trips: writer, then reader, equal the edit list to the frame', () => {
  it('cuts at 30/1', () => {
    const pieces = roundTrip(applyCuts(identityEditList(120), [{ start: 5, end: 12.5 }, { start: 40, end: 41.2 }, { start: 90, end: 100 }]), R30);
    expect(pieces).toHaveLength(4);
  });

  it('a reorder at 30000/1001 (drop frame in the EDL)', () => {
    const el = applyReorder(applyCuts(identityEditList(90), [{ start: 30, end: 35 }]), [{ start: 50, end: 85 }, { start: 0, end: 20 }, { start: 20, end: 50 }]);
    const pieces = roundTrip(el, NTSC);
    expect(pieces[0]!.srcIn).toBeGreaterThan(pieces[1]!.srcIn);
  });

  it('mutes of every level at 25/1, their gains back from OTIO metadata and FCPXML keyframes', () => {
    const el = applyMutes(applyCuts(identityEditList(60), [{ start: 10, end: 20 }]), [
      { start: 3, end: 4, level: 'silence' },
      { start: 15, end: 18.5, level: 'whisper' },
      { start: 30, end: 31, level: 'background' },
    ]);
    const pieces = roundTrip(el, R25);
    expect(pieces.map((p) => p.gain).filter((g) => g < 1)).toEqual([0, 0.1, 0.3]);
  });

  it('a mute at 60000/1001', () => {
    roundTrip(applyMutes(identityEditList(130), [{ start: 59.5, end: 61, level: 'silence' }]), NTSC60);
  });

  it('a long edit: two hours of source, 400 cuts and 60 mutes at 30000/1001', () => {
    const cuts = Array.from({ length: 400 }, (_, k) => ({ start: k * 18 + 2, end: k * 18 + 3.3 }));
    const cut = applyCuts(identityEditList(7200), cuts);
    const mutes = Array.from({ length: 60 }, (_, k) => ({ start: k * 100 + 7, end: k * 100 + 8.25, level: (['silence', 'whisper', 'background'] as const)[k % 3]! }));
    const pieces = roundTrip(applyMutes(cut, mutes), NTSC);
    expect(pieces.length).toBeGreaterThan(500);
  });

  it('no audio: the OTIO has a video track only', () => {
    const pieces = timelinePieces(applyCuts(identityEditList(20), [{ start: 2, end: 3 }]), R30);
    checkOtio(readOtio(writeOtio(source(R30, 20, false), pieces)).timelines[0]!, pieces, R30, false);
  });

  it('any valid edit list, at any of the rates', () => {
    fc.assert(
      fc.property(editListArb({ maxSeconds: 300 }), fc.constantFrom(R30, R25, NTSC), (el, rate) => {
        roundTrip(el, rate);
      }),
      { numRuns: 40 },
    );
  });
});

describe('FCPXML mutes as adjust-volume keyframes', () => {
  const el = applyMutes(applyCuts(identityEditList(60), [{ start: 10, end: 20 }]), [{ start: 30, end: 31, level: 'whisper' }]);
  const pieces = timelinePieces(el, NTSC);
  const xml = writeFcpxml(source(NTSC, 60), pieces);
  const muted = pieces.find((p) => p.gain < 1)!;

  it('holds the level from the clip first frame to its end, in its local (source) time', () => {
    expect(xml).toContain(
      [
        '<adjust-volume amount="-20dB">',
        '  <param name="amount">',
        '    <keyframeAnimation>',
        `      <keyframe time="${fcpTime(muted.srcIn, NTSC)}" value="-20dB"/>`,
        `      <keyframe time="${fcpTime(muted.srcOut, NTSC)}" value="-20dB"/>`,
        '    </keyframeAnimation>',
        '  </param>',
        '</adjust-volume>',
      ].join(`\n${' '.repeat(14)}`),
    );
    expect(xml.match(/<adjust-volume/g)).toHaveLength(1);
  });

  it('reads back from the keyframes alone', () => {
    const gains = readFcpxml(xml.replace(' amount="-20dB"', '')).timelines[0]!.tracks[0]!.events.map((e) => e.gain);
    expect(gains).toEqual(pieces.map((p) => (p.gain < 1 ? 0.1 : undefined)));
  });
});

describe('clips as separate timelines', () => {
  const rate = R25;
  const main = timelinePieces(applyCuts(identityEditList(60), [{ start: 10, end: 20 }]), rate);
  const clip1 = timelinePieces(applyMutes(applyCuts(identityEditList(60), [{ start: 0, end: 30 }, { start: 40, end: 60 }]), [{ start: 2, end: 3, level: 'silence' }]), rate);
  const clip2 = timelinePieces(applyReorder(applyCuts(identityEditList(60), [{ start: 0, end: 50 }]), [{ start: 5, end: 10 }, { start: 0, end: 5 }]), rate);
  const extra = [{ name: 'Clip: the opening', pieces: clip1 }, { name: 'Clip 2', pieces: clip2 }];
  const src = source(rate, 60);

  it('OTIO: a SerializableCollection.1 of Timeline.1s, the edit first', () => {
    const text = writeOtio(src, main, extra);
    expect((JSON.parse(text) as { OTIO_SCHEMA: string }).OTIO_SCHEMA).toBe('SerializableCollection.1');
    const timelines = readOtio(text).timelines;
    expect(timelines.map((t) => t.name)).toEqual(['Interview & notes', 'Clip: the opening', 'Clip 2']);
    [main, clip1, clip2].forEach((pieces, k) => checkOtio(timelines[k]!, pieces, rate));
    expect((JSON.parse(writeOtio(src, main, [])) as { OTIO_SCHEMA: string }).OTIO_SCHEMA).toBe('Timeline.1');
  });

  it('FCPXML: one project per timeline in the event', () => {
    const xml = writeFcpxml(src, main, extra);
    expect(xml.match(/<project /g)).toHaveLength(3);
    const timelines = readFcpxml(xml).timelines;
    expect(timelines.map((t) => t.name)).toEqual(['Interview & notes', 'Clip: the opening', 'Clip 2']);
    [main, clip1, clip2].forEach((pieces, k) => checkFcpxml(timelines[k]!, pieces, rate));
  });

  it('the single-timeline calls are unchanged', () => {
    expect(writeOtio(src, main)).toBe(writeOtio(src, main, []));
    expect(writeFcpxml(src, main)).toBe(writeFcpxml(src, main, []));
    expect(readFcpxml(writeFcpxml(src, main)).timelines).toHaveLength(1);
  });
});
