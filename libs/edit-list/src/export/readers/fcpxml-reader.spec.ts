/** The FCPXML reader on published FCPXML files (fixtures/README.md), and on the rules of Apple's DTD it holds files to. */
import { readFileSync } from 'fs';
import { join } from 'path';
import { thrownBy } from '../../../../../tools/testing/thrown';
import { readFcpxml } from './fcpxml-reader';
import { ReadError, type ReadEvent } from './read-timeline';

const fixture = (name: string): string => readFileSync(join(__dirname, 'fixtures', name), 'utf8');
const cuts = (events: readonly ReadEvent[]) => events.map((e) => [e.srcIn, e.srcOut, e.recIn]);
const refused = (text: string): string => thrownBy(() => readFcpxml(text), ReadError).message;

/** A one-project document at 25 fps with `spine` as its primary storyline. */
const doc = (spine: string, { version = '1.10', resources = '', sequence = 'format="r1"' } = {}) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE fcpxml>
<fcpxml version="${version}">
  <resources><format id="r1" frameDuration="1/25s"/><asset id="r2" name="a.mov" start="0s" duration="100s" format="r1"><media-rep kind="original-media" src="file:///a.mov"/></asset>${resources}</resources>
  <library><event name="e"><project name="p"><sequence ${sequence}><spine>${spine}</spine></sequence></project></event></library>
</fcpxml>`;

describe('FCPXML reader on published files', () => {
  it('fcpx_project.fcpxml (FCP 1.8, from OpenTimelineIO): the primary storyline at 30 fps, gaps and a transition taking no time, compound clips nested, connected clips left out', () => {
    const result = readFcpxml(fixture('fcpx_project.fcpxml'));
    expect(result.version).toBe('1.8');
    expect(result.timelines).toHaveLength(1);
    const [tl] = result.timelines;
    expect(tl!.name).toBe('OpenTimeline_Project');
    expect(tl!.rate).toEqual({ num: 30, den: 1 });
    const events = tl!.tracks[0]!.events;
    expect(events.map((e) => e.sourceName)).toEqual(['IMG_0715', 'compound_clip_1', 'IMG_0233', 'IMG_0687', 'IMG_0268', 'compound_clip_1']);
    // offsets 0, 80, 110, 120, 130, 140 s; starts 0, 10900/3000, 0, 37600/3000, 23200/3000, 5700/3000 s
    expect(cuts(events)).toEqual([[0, 300, 0], [109, 1009, 2400], [0, 300, 3300], [376, 676, 3600], [232, 532, 3900], [57, 357, 4200]]);
    expect(events.filter((e) => e.nested).map((e) => e.recIn)).toEqual([2400, 4200]);
  });

  it('fcpx_version_1_14.fcpxml (1.14): clips map their local start through their video to the asset, at 24000/1001; a disabled clip says so', () => {
    const [tl] = readFcpxml(fixture('fcpx_version_1_14.fcpxml')).timelines;
    expect(tl!.rate).toEqual({ num: 24000, den: 1001 });
    // 978249272/24000 s is 977272 frames of 1001/24000 s; 4007003/24000 s is 4003
    expect(tl!.tracks[0]!.events).toEqual([
      { srcIn: 977272, srcOut: 977272 + 4003, recIn: 0, sourceName: 'TestClip_A' },
      { srcIn: 0, srcOut: 240, recIn: 4003, sourceName: 'TestClip_B', disabled: true },
    ]);
  });

  it('1920x1080.fcpxml (an FCP 1.13 library): one empty project at 100/2400 s, that is 24 fps', () => {
    const result = readFcpxml(fixture('1920x1080.fcpxml'));
    expect(result.timelines).toEqual([{ name: '1920x1080', rate: { num: 24, den: 1 }, start: 0, tracks: [{ name: 'spine', kind: 'audio+video', events: [] }] }]);
  });
});

describe('FCPXML reader rules', () => {
  const clip = (offset: string, duration: string, start = '0s', body = '') => `<asset-clip ref="r2" offset="${offset}" start="${start}" duration="${duration}"${body ? `>${body}</asset-clip>` : '/>'}`;

  it('reads a storyline built here, counting from tcStart', () => {
    const [tl] = readFcpxml(doc(`${clip('3600s', '2s', '10s')}<gap offset="3602s" duration="1s"/>${clip('3603s', '1/25s')}`, { sequence: 'format="r1" tcStart="3600s"' })).timelines;
    expect(tl!.start).toBe(90000);
    expect(cuts(tl!.tracks[0]!.events)).toEqual([[250, 300, 0], [0, 1, 75]]);
  });

  it('refuses what is not a known FCPXML version', () => {
    expect(refused('<xmeml version="4"/>')).toMatch(/root element is <xmeml>/);
    expect(refused('<fcpxml/>')).toMatch(/has no version/);
    expect(refused(doc('', { version: '1.4' }))).toMatch(/version "1.4" is not one this reader knows/);
    expect(refused(doc('', { version: '2.0' }))).toMatch(/version "2.0"/);
    expect(refused('<fcpxml version="1.10"><unclosed></fcpxml>')).toMatch(/XML: <\/fcpxml> closes <unclosed>/);
  });

  it('holds every storyline time to a rational number of seconds and a whole number of frames', () => {
    expect(refused(doc(clip('0s', '1.5s')))).toMatch(/duration="1.5s" .* is not a time/);
    expect(refused(doc(clip('0s', '2/50s').replace('0s', '1/50s')))).toMatch(/offset of spine item 1 .* not a whole number of frames of 1\/25s/);
    expect(refused(doc(clip('0s', '1s', '3/100s')))).toMatch(/start of spine item 1/);
    expect(refused(doc('', { sequence: 'format="r9"' }))).toMatch(/names format r9, which has no frameDuration/);
  });

  it('holds the spine to items that follow one another: no hole, no overlap', () => {
    expect(refused(doc(`${clip('0s', '1s')}${clip('2s', '1s')}`))).toMatch(/spine item 2 \(asset-clip\) starts at frame 50, not at frame 25/);
    expect(refused(doc(`${clip('0s', '2s')}${clip('1s', '1s')}`))).toMatch(/starts at frame 25, not at frame 50/);
    expect(refused(doc(`<audition offset="0s">${clip('0s', '1s')}</audition>`))).toMatch(/not a storyline item this reader takes/);
    expect(refused(doc('<asset-clip ref="r7" offset="0s" duration="1s"/>'))).toMatch(/ref="r7" names no resource/);
  });

  it('reads a constant adjust-volume, and keyframes in the clip local time; refuses keyframes outside it', () => {
    const kf = (a: string, b: string, value = '-20dB') => `<adjust-volume><param name="amount"><keyframeAnimation><keyframe time="${a}" value="${value}"/><keyframe time="${b}" value="${value}"/></keyframeAnimation></param></adjust-volume>`;
    const gains = (body: string) => readFcpxml(doc(clip('0s', '1s', '10s', body))).timelines[0]!.tracks[0]!.events.map((e) => e.gain);
    expect(gains('<adjust-volume amount="-96dB"/>')).toEqual([0]);
    expect(gains(kf('10s', '11s'))).toEqual([0.1]);
    expect(gains(kf('10s', '11s').replace('value="-20dB"/></keyframeAnimation>', 'value="0dB"/></keyframeAnimation>'))).toEqual([undefined]);
    expect(refused(doc(clip('0s', '1s', '10s', kf('0s', '1s'))))).toMatch(/keyframe at 0s lies outside the clip's local time 10s to 11s/);
    expect(refused(doc(clip('0s', '1s', '0s', '<adjust-volume amount="loud"/>')))).toMatch(/not in dB/);
  });
});
