/** The OTIO reader on OpenTimelineIO's own sample files (fixtures/README.md), and on the rules it holds files to. */
import { readFileSync } from 'fs';
import { join } from 'path';
import { thrownBy } from '../../../../../tools/testing/thrown';
import { readOtio } from './otio-reader';
import { READER_MAX_CHARS, READER_MAX_EVENTS, ReadError, type ReadEvent } from './read-timeline';

const fixture = (name: string): string => readFileSync(join(__dirname, 'fixtures', name), 'utf8');
const cuts = (events: readonly ReadEvent[]) => events.map((e) => [e.srcIn, e.srcOut, e.recIn]);
const refused = (text: string): string => thrownBy(() => readOtio(text), ReadError).message;

const rt = (value: number, rate = 24) => ({ OTIO_SCHEMA: 'RationalTime.1', rate, value });
const range = (start: number, duration: number, rate = 24) => ({ OTIO_SCHEMA: 'TimeRange.1', start_time: rt(start, rate), duration: rt(duration, rate) });
const clip = (start: number, duration: number, extra: Record<string, unknown> = {}) => ({ OTIO_SCHEMA: 'Clip.1', name: 'c', media_reference: null, source_range: range(start, duration), ...extra });
const timeline = (children: unknown[], track: Record<string, unknown> = {}) =>
  JSON.stringify({ OTIO_SCHEMA: 'Timeline.1', name: 't', tracks: { OTIO_SCHEMA: 'Stack.1', children: [{ OTIO_SCHEMA: 'Track.1', kind: 'Video', children, ...track }] } });

describe('OTIO reader on the OpenTimelineIO sample files', () => {
  it('simple_cut.otio: four clips end to end at 24; a clip without source_range plays its media available_range', () => {
    const [tl] = readOtio(fixture('simple_cut.otio')).timelines;
    expect(tl!.name).toBe('Figure 1 - Simple Cut List');
    expect(tl!.rate).toEqual({ num: 24, den: 1 });
    expect(tl!.tracks.map((t) => [t.name, t.kind])).toEqual([['Track-001', 'video']]);
    expect(cuts(tl!.tracks[0]!.events)).toEqual([[3, 6, 0], [2, 8, 3], [0, 4, 9], [100, 106, 13]]);
    expect(tl!.tracks[0]!.events.map((e) => e.sourceName)).toEqual(['Media-001', 'Media-002', 'Media-003', 'Media-004']);
  });

  it('multiple_track.otio: a gap takes its time; a track trimmed by its own source_range (start -7) shows its clip 7 frames in', () => {
    const [tl] = readOtio(fixture('multiple_track.otio')).timelines;
    expect(tl!.start).toBe(0);
    expect(tl!.tracks.map((t) => cuts(t.events))).toEqual([
      [[3, 6, 0], [2, 8, 3], [100, 106, 13]],
      [[100, 109, 7]],
      [[100, 109, 7]],
    ]);
  });

  it('nested_example.otio: nested stacks and tracks are one item each, as long as their trimmed range, effects and all', () => {
    const events = readOtio(fixture('nested_example.otio')).timelines[0]!.tracks[0]!.events;
    expect(events).toHaveLength(7);
    expect(events.map((e) => [e.sourceName, e.recIn, e.srcOut - e.srcIn, e.nested ?? false])).toEqual([
      ['Normal Clip 1', 0, 238, false],
      ['Nested Stack 1', 238, 31, true],
      ['Normal Clip 2', 269, 33, false],
      ['Nested Stack 2 (with effects)', 302, 29, true],
      ['Normal Clip 3', 331, 63, false],
      ['Nested Track', 394, 4, true],
      ['Normal Clip 4', 398, 238, false],
    ]);
    expect(events[6]!.srcIn).toBe(135);
  });

  it('clip_example.otio: the clip after an 8-frame gap; the transition after it takes no time', () => {
    const events = readOtio(fixture('clip_example.otio')).timelines[0]!.tracks[0]!.events;
    expect(events).toEqual([{ srcIn: 3, srcOut: 6, recIn: 8, sourceName: 'Clip-001' }]);
  });
});

describe('OTIO reader rules', () => {
  it('reads a minimal timeline built here, and its record times count gaps', () => {
    const gap = { OTIO_SCHEMA: 'Gap.1', source_range: range(0, 5) };
    expect(cuts(readOtio(timeline([clip(10, 4), gap, clip(0, 2)])).timelines[0]!.tracks[0]!.events)).toEqual([[10, 14, 0], [0, 2, 9]]);
  });

  it('refuses what is not an OTIO timeline or collection', () => {
    expect(refused('{')).toMatch(/not JSON/);
    expect(refused('[1, 2]')).toMatch(/top-level value is not an object/);
    expect(refused(JSON.stringify({ OTIO_SCHEMA: 'Clip.1' }))).toMatch(/Clip\.1, not Timeline\.1 or SerializableCollection\.1/);
    expect(refused(JSON.stringify({ OTIO_SCHEMA: 'Timeline.2', tracks: {} }))).toMatch(/Timeline\.2, not/);
    expect(refused(JSON.stringify({ OTIO_SCHEMA: 'SerializableCollection.1', children: [{ OTIO_SCHEMA: 'Clip.1' }] }))).toMatch(/timeline 1 is Clip\.1, not Timeline\.1/);
    expect(refused(JSON.stringify({ name: 'x' }))).toMatch(/no OTIO_SCHEMA/);
  });

  it('holds items to their schemas and versions', () => {
    expect(refused(timeline([{ ...clip(0, 1), OTIO_SCHEMA: 'Clip.3' }]))).toMatch(/Clip\.3, not Clip\.1 or Clip\.2/);
    expect(refused(timeline([clip(0, 1)], { kind: 'Subtitle' }))).toMatch(/kind .* "Subtitle", not "Video" or "Audio"/);
    expect(refused(timeline([{ OTIO_SCHEMA: 'Gap.1' }]))).toMatch(/a gap\) has no source_range/);
    expect(refused(timeline([clip(0, 1, { source_range: { OTIO_SCHEMA: 'TimeRange.1', start_time: rt(0), duration: rt(1, 0) } })]))).toMatch(/rate .* is not a positive number/);
    expect(refused(timeline([clip(0, -3)]))).toMatch(/negative duration/);
    expect(refused(timeline([clip(0, 1, { OTIO_SCHEMA: 'Clip.2', media_references: {}, active_media_reference_key: 'DEFAULT_MEDIA' })]))).toMatch(/names no media reference/);
    expect(refused(timeline([clip(0, 1, { media_reference: { OTIO_SCHEMA: 'ExternalReference.1' } })]))).toMatch(/has no target_url/);
    expect(refused(timeline([clip(0, 1, { source_range: null })]))).toMatch(/no source_range and its media no available_range/);
  });

  it('keeps cut points exact: times between frames and time effects on clips are refused', () => {
    expect(refused(timeline([clip(0, 2.5)]))).toMatch(/not a whole number of frames at 24/);
    expect(refused(timeline([clip(0, 1, { effects: [{ OTIO_SCHEMA: 'LinearTimeWarp.1', time_scalar: 2 }] })]))).toMatch(/a time effect on a clip is not read/);
    // another rate is fine while it lands on frames: 48 at 48 is 24 at 24
    expect(cuts(readOtio(timeline([clip(0, 2), { ...clip(0, 1), source_range: range(0, 48, 48) }])).timelines[0]!.tracks[0]!.events)).toEqual([[0, 2, 0], [0, 24, 2]]);
  });

  it('is bounded: inputs over the size cap and files over the event cap are refused', () => {
    expect(refused(' '.repeat(READER_MAX_CHARS + 1))).toMatch(/over the cap/);
    const gaps = Array.from({ length: READER_MAX_EVENTS + 1 }, () => ({ OTIO_SCHEMA: 'Gap.1', source_range: range(0, 1) }));
    expect(refused(timeline(gaps))).toMatch(/more than 20000 events/);
  });
});
