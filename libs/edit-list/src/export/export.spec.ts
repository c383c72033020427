import { applyCuts, applyMute, applyReorder, identityEditList } from '../index';
import { EDL_REEL, fcpTime, gainDb, rationalRate, timecode, timelineFrames, timelinePieces, writeEdl, writeFcpxml, writeMlt, writeOtio, type ExportSource, type Rate } from './index';

const NTSC: Rate = { num: 30000, den: 1001 };
const source = (rate: Rate, over: Partial<ExportSource> = {}): ExportSource => ({
  fileName: 'My talk é.mp4',
  url: 'file:///media/My%20talk%20%C3%A9.mp4',
  title: 'My <talk> & "notes"',
  rate,
  variableFrameRate: false,
  width: 1920,
  height: 1080,
  durationSec: 60,
  hasAudio: true,
  fullRange: false,
  ...over,
});

describe('rates', () => {
  it('names the exact rate a probed float stands for', () => {
    expect([29.97, 29.97002997, 23.976, 59.94, 25, 30, 24, 50, 12.5, 0, Number.NaN].map(rationalRate)).toEqual([
      NTSC, NTSC, { num: 24000, den: 1001 }, { num: 60000, den: 1001 }, { num: 25, den: 1 }, { num: 30, den: 1 }, { num: 24, den: 1 }, { num: 50, den: 1 }, { num: 12500, den: 1000 }, { num: 30, den: 1 }, { num: 30, den: 1 },
    ]);
  });
});

describe('timecode', () => {
  it('counts whole frames at a whole rate, and drops frame numbers at 29.97 and 59.94', () => {
    expect(timecode(25 * 3661 + 7, { num: 25, den: 1 })).toBe('01:01:01:07');
    // drop frame: the minute after 00:00:59;29 is 00:01:00;02; every tenth minute keeps 00 and 01
    expect([1799, 1800, 17982, 17981, 107892].map((f) => timecode(f, NTSC))).toEqual(['00:00:59;29', '00:01:00;02', '00:10:00;00', '00:09:59;29', '01:00:00;00']);
    expect(timecode(3600, { num: 60000, den: 1001 })).toBe('00:01:00;04');
  });
});

describe('timeline pieces', () => {
  const el = applyMute(applyCuts(identityEditList(60), [{ start: 10, end: 20 }]), [{ start: 30, end: 31 }], 'whisper');

  it('are the kept ranges on frames, end to end, split at mutes with their gains', () => {
    const pieces = timelinePieces(el, { num: 25, den: 1 });
    // 0-10 s kept, 10-20 cut; the mute at 30-31 output is 40-41 source
    expect(pieces).toEqual([
      { srcIn: 0, srcOut: 250, recIn: 0, gain: 1 },
      { srcIn: 500, srcOut: 1000, recIn: 250, gain: 1 },
      { srcIn: 1000, srcOut: 1025, recIn: 750, gain: 0.1 },
      { srcIn: 1025, srcOut: 1500, recIn: 775, gain: 1 },
    ]);
    expect(timelineFrames(pieces)).toBe(1250);
  });

  it('follow a reorder in play order', () => {
    const reordered = applyReorder(identityEditList(10), [{ start: 5, end: 10 }, { start: 0, end: 5 }]);
    expect(timelinePieces(reordered, { num: 10, den: 1 }).map((p) => [p.srcIn, p.srcOut, p.recIn])).toEqual([[50, 100, 0], [0, 50, 50]]);
  });
});

describe('writers', () => {
  const el = applyMute(applyCuts(identityEditList(60), [{ start: 10, end: 20 }]), [{ start: 30, end: 31 }], 'silence');

  it('EDL: CMX3600 columns, reels of at most 8 characters, the file in FROM CLIP NAME, FCM and timecode agreeing', () => {
    const edl = writeEdl(source(NTSC), timelinePieces(el, NTSC));
    const lines = edl.split('\n');
    expect(lines.slice(0, 2)).toEqual(['TITLE: My <talk> & "notes"', 'FCM: DROP FRAME']);
    expect(lines[3]).toBe('001  AX       AA/V  C        00:00:00;00 00:00:10;00 01:00:00;00 01:00:10;00');
    expect(lines[4]).toBe('* FROM CLIP NAME: My talk é.mp4');
    expect(EDL_REEL.length).toBeLessThanOrEqual(8);
    const events = lines.filter((l) => /^\d{3} {2}/.test(l));
    expect(events).toHaveLength(4);
    for (const e of events) expect(e).toMatch(/^\d{3} {2}.{8} .{5} C {8}(\d\d:\d\d:\d\d;\d\d ){3}\d\d:\d\d:\d\d;\d\d$/);
    expect(edl).toContain('* WORDCUT MUTE: audio at 0%');
    expect(writeEdl(source({ num: 25, den: 1 }), timelinePieces(el, { num: 25, den: 1 }))).toContain('FCM: NON-DROP FRAME\n\n001  AX       AA/V  C        00:00:00:00 00:00:10:00 01:00:00:00 01:00:10:00');
  });

  it('FCPXML 1.10: every time a whole number of frames as a fraction, mutes as adjust-volume keyframes, names escaped', () => {
    const xml = writeFcpxml(source(NTSC), timelinePieces(el, NTSC));
    expect(xml).toContain('<fcpxml version="1.10">');
    expect(xml).toContain('frameDuration="1001/30000s"');
    expect(xml).toContain('<project name="My &lt;talk&gt; &amp; &quot;notes&quot;">');
    expect(xml).toContain('src="file:///media/My%20talk%20%C3%A9.mp4"');
    // the muted second (40-41 s source) holds -96 dB from its first frame to its end, in source time
    expect(xml).toMatch(/<adjust-volume amount="-96dB">\s*<param name="amount">\s*<keyframeAnimation>\s*<keyframe time="1200199\/30000s" value="-96dB"\/>\s*<keyframe time="1230229\/30000s" value="-96dB"\/>/);
    for (const [, value] of xml.matchAll(/(?:offset|start|duration|time)="([^"]+)"/g)) {
      if (value === '0s') continue;
      const m = /^(\d+)\/(\d+)s$/.exec(value!);
      expect(m).not.toBeNull();
      expect(Number(m![2])).toBe(30000);
      expect(Number(m![1]) % 1001).toBe(0);
    }
    expect([fcpTime(0, NTSC), fcpTime(2, { num: 25, den: 1 }), gainDb(0.1), gainDb(0.3)]).toEqual(['0s', '2/25s', '-20dB', '-10.46dB']);
  });

  it('OTIO: a timeline with a video and an audio track of clips on the source, at its rate; gain in metadata', () => {
    const otio = JSON.parse(writeOtio(source(NTSC), timelinePieces(el, NTSC))) as {
      OTIO_SCHEMA: string;
      metadata: { wordcut: { frameRate: string } };
      tracks: { children: Array<{ kind: string; children: Array<{ OTIO_SCHEMA: string; source_range: { start_time: { rate: number; value: number } }; metadata: { wordcut?: { gain: number } }; media_references: { DEFAULT_MEDIA: { target_url: string } } }> }> };
    };
    expect(otio.OTIO_SCHEMA).toBe('Timeline.1');
    expect(otio.metadata.wordcut.frameRate).toBe('30000/1001');
    expect(otio.tracks.children.map((t) => t.kind)).toEqual(['Video', 'Audio']);
    const audio = otio.tracks.children[1]!.children;
    expect(audio.map((c) => c.OTIO_SCHEMA)).toEqual(['Clip.2', 'Clip.2', 'Clip.2', 'Clip.2']);
    expect(audio[0]!.source_range.start_time).toEqual({ OTIO_SCHEMA: 'RationalTime.1', rate: 30000 / 1001, value: 0 });
    expect(audio.filter((c) => c.metadata.wordcut).map((c) => c.metadata.wordcut!.gain)).toEqual([0]);
    expect(audio[0]!.media_references.DEFAULT_MEDIA.target_url).toBe('file:///media/My%20talk%20%C3%A9.mp4');
  });

  it('MLT: a profile of the size and exact rate, out points inclusive, full range said, a volume filter on muted pieces', () => {
    const pieces = timelinePieces(el, { num: 25, den: 1 });
    const xml = writeMlt(source({ num: 25, den: 1 }, { fullRange: true }), pieces);
    expect(xml).toContain('width="1920" height="1080" progressive="1" sample_aspect_num="1" sample_aspect_den="1" display_aspect_num="16" display_aspect_den="9" frame_rate_num="25" frame_rate_den="1"');
    expect(xml).toContain('<entry producer="producer0" in="0" out="249"/>');
    expect(xml).toContain('<entry producer="producer0" in="500" out="999"/>');
    expect(xml).toContain('<property name="set.force_full_luma">1</property>');
    expect(xml).toMatch(/<entry producer="producer0" in="1000" out="1024">\s*<filter>\s*<property name="mlt_service">volume<\/property>\s*<property name="level">-96<\/property>/);
    expect(xml).toContain('title="My &lt;talk&gt; &amp; &quot;notes&quot;"');
    expect(xml).toContain('<property name="resource">My talk é.mp4</property>');
  });
});
