/**
 * Phone-like sources cut frame-exact: every frame right, A/V within one AAC frame (before the first
 * cut too), and the properties that make the picture (rotation, bit depth, colour tags) kept, with
 * the path each took. Sources are timecode media (tools/media) generated per kind.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { displayDimensions, probe, readRenderMediaInfo, renderEdit, streamRotation, type RenderResult } from '@wordcut/ffmpeg';
import { nearestBoundary } from '@wordcut/edit-list';
import { checkSync, expectedFramesForSegments, generateTimecodeMedia, generateVfrTimecodeMedia, readBurstOnsets, readFrameNumbers, VFR_TIMESCALE, type TimecodeMediaOptions } from '../../../../tools/media/timecode-media';

interface VideoProps {
  codecTag: string;
  pixFmt: string;
  rotation: number;
  colors: string;
  audioRate: number | null;
  audioChannels: number | null;
}

function videoProps(path: string): VideoProps {
  const json = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', path]).toString()) as {
    streams: Array<Parameters<typeof streamRotation>[0] & { codec_type: string; codec_tag_string: string; pix_fmt?: string; color_space?: string; color_primaries?: string; color_transfer?: string; sample_rate?: string; channels?: number }>;
  };
  const v = json.streams.find((s) => s.codec_type === 'video')!;
  const a = json.streams.find((s) => s.codec_type === 'audio');
  return {
    codecTag: v.codec_tag_string,
    pixFmt: v.pix_fmt ?? '',
    rotation: streamRotation(v),
    colors: [v.color_space, v.color_primaries, v.color_transfer].join('/'),
    audioRate: a ? Number(a.sample_rate) : null,
    audioChannels: a?.channels ?? null,
  };
}

const AAC_FRAME_SEC = (rate: number) => 1024 / rate;

/** When each frame of a file is shown (seconds, display order). */
function frameTimes(path: string): number[] {
  const json = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'frame=best_effort_timestamp_time', '-of', 'json', path], { maxBuffer: 64 << 20 }).toString()) as {
    frames: Array<{ best_effort_timestamp_time: string }>;
  };
  return json.frames.map((f) => Number(f.best_effort_timestamp_time));
}

describe('phone-like sources: exact cuts through the smart path', () => {
  let dir: string;
  let n = 0;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wordcut-sources-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // from the first frame: A/V is checked before the first cut too
  const segments = [
    { start: 0, end: 1.9 },
    { start: 2.55, end: 4.3 },
  ];

  async function cut(source: TimecodeMediaOptions & { name: string }, fps: number, delaySec = 0): Promise<{ r: RenderResult; out: string; input: string; frames: number[] }> {
    const input = join(dir, source.name);
    await generateTimecodeMedia(input, source);
    const out = join(dir, `out-${n++}.mp4`);
    const r = await renderEdit({ input, output: out, workDir: await mkdtemp(join(dir, 'w-')), segments });
    const frames = await readFrameNumbers(out, { asStored: true });
    expect(frames).toEqual(expectedFramesForSegments(segments, fps));
    // each at its time: output frame k at k / fps
    expect(Math.max(...frameTimes(out).map((t, k) => Math.abs(t - k / fps)))).toBeLessThan(0.001);
    const rate = source.sampleRate ?? 48000;
    const sync = checkSync(frames, await readBurstOnsets(out, { minQuietSec: 0.015 }), fps, delaySec);
    expect(sync.matched).toBeGreaterThan(10);
    expect({ offset: sync.interiorMaxOffsetSec <= AAC_FRAME_SEC(rate) ? 'within one AAC frame' : sync.interiorMaxOffsetSec }).toEqual({ offset: 'within one AAC frame' });
    return { r, out, input, frames };
  }

  it('a portrait phone (90° display matrix): smart, the matrix copied, pictures as stored', async () => {
    const { r, out, input } = await cut({ name: 'rotated.mp4', durationSec: 5, gopFrames: 30, rotation: 90 }, 30);
    expect([r.path, r.fallbackReason]).toEqual(['smart', null]);
    const rotation = videoProps(input).rotation;
    expect(rotation).not.toBe(0);
    expect(videoProps(out).rotation).toBe(rotation);
    // shown turned as the source is: the display size is the source's
    const shown = async (path: string) => displayDimensions((await probe(path)).streams.find((s) => s.codecType === 'video'));
    expect(await shown(out)).toEqual(await shown(input));
  }, 120000);

  it('HEVC 10-bit HLG: smart, pieces in Main 10 with the same colour tags; hev1 as its pieces carry their own parameter sets', async () => {
    const { r, out, input } = await cut({ name: 'hlg.mp4', durationSec: 5, gopFrames: 30, codec: 'hevc', hdr: 'hlg' }, 30);
    expect([r.path, r.fallbackReason]).toEqual(['smart', null]);
    const src = videoProps(input);
    const got = videoProps(out);
    expect(src).toMatchObject({ pixFmt: 'yuv420p10le', colors: 'bt2020nc/bt2020/arib-std-b67' });
    expect({ pixFmt: got.pixFmt, colors: got.colors }).toEqual({ pixFmt: src.pixFmt, colors: src.colors });
    expect(got.codecTag).toBe('hev1');
  }, 120000);

  it('HEVC 10-bit HLG through the full re-encode stays 10-bit with its tags (never 8-bit tagged HDR)', async () => {
    const input = join(dir, 'hlg-full.mp4');
    await generateTimecodeMedia(input, { durationSec: 3, gopFrames: 30, codec: 'hevc', hdr: 'hlg' });
    const out = join(dir, 'hlg-full-out.mp4');
    const segs = [{ start: 0.5, end: 2.5 }];
    const r = await renderEdit({ input, output: out, workDir: await mkdtemp(join(dir, 'w-')), segments: segs, forceReencode: true });
    expect(r.path).toBe('reencode');
    expect(await readFrameNumbers(out)).toEqual(expectedFramesForSegments(segs, 30));
    expect(videoProps(out)).toMatchObject({ codecTag: 'hvc1', pixFmt: 'yuv420p10le', colors: 'bt2020nc/bt2020/arib-std-b67' });
  }, 120000);

  it('HEVC 8-bit at 29.97 fps with 44.1 kHz audio: smart', async () => {
    const fps = 30000 / 1001;
    const { r, out } = await cut({ name: 'hevc-2997.mp4', durationSec: 5, frameRate: '30000/1001', gopFrames: 30, codec: 'hevc', sampleRate: 44100 }, fps);
    expect([r.path, r.fallbackReason]).toEqual(['smart', null]);
    expect(videoProps(out)).toMatchObject({ codecTag: 'hev1', audioRate: 44100 });
  }, 120000);

  it('a 60 fps MOV: smart', async () => {
    const { r } = await cut({ name: 'sixty.mov', durationSec: 5, fps: 60, gopFrames: 60 }, 60);
    expect([r.path, r.fallbackReason]).toEqual(['smart', null]);
  }, 120000);

  it('mono 48 kHz audio starting 0.25 s after the video: smart, as late in the output', async () => {
    const { r, out } = await cut({ name: 'late-mono.mp4', durationSec: 5, gopFrames: 30, channels: 1, audioDelaySec: 0.25 }, 30, 0.25);
    expect([r.path, r.fallbackReason]).toEqual(['smart', null]);
    expect(videoProps(out).audioChannels).toBe(1);
  }, 120000);

  it.each(['h264', 'hevc'] as const)('%s with open GOPs, a keyframe every 250 frames (a screen recorder): smart, leading pictures exact', async (codec) => {
    const input = join(dir, `open-${codec}.mp4`);
    await generateTimecodeMedia(input, { durationSec: 10, gopFrames: 250, codec, openGop: true });
    const v = (await readRenderMediaInfo(input)).video!;
    expect({ keyframes: v.keyframes, closed: v.closedGops, leadingAt250: (v.leading?.[1] ?? 0) > 0 }).toEqual({ keyframes: [0, 250], closed: false, leadingAt250: true });
    // across the open keyframe at frame 250: the GOP before it copied up to its leading pictures;
    // then from that keyframe (its leading pictures left out), and a range inside the last GOP
    const segs = [
      { start: 0, end: 8.9 },
      { start: 9.3, end: 9.9 },
      { start: 8.2, end: 8.5 },
    ];
    const out = join(dir, `open-${codec}-out.mp4`);
    const r = await renderEdit({ input, output: out, workDir: await mkdtemp(join(dir, 'w-')), segments: segs });
    expect([r.path, r.fallbackReason]).toEqual(['smart', null]);
    expect(r.encodedShare).toBeLessThan(0.3);
    const frames = await readFrameNumbers(out);
    expect(frames).toEqual(expectedFramesForSegments(segs, 30));
    const sync = checkSync(frames, await readBurstOnsets(out, { minQuietSec: 0.015 }), 30);
    expect(sync.interiorMaxOffsetSec).toBeLessThanOrEqual(AAC_FRAME_SEC(48000));
  }, 120000);

  describe('a variable frame rate (30 then 20 fps, jittered, a dropped frame)', () => {
    let input: string;
    let timeline: Awaited<ReturnType<typeof generateVfrTimecodeMedia>>;
    beforeAll(async () => {
      input = join(dir, 'vfr.mp4');
      timeline = await generateVfrTimecodeMedia(input, { durationSec: 6 });
    }, 60000);

    const vfrSegments = [
      { start: 0.5, end: 1.8 },
      { start: 2.2, end: 4.4 },
      { start: 4.9, end: 5.8 },
    ];

    it.each([
      ['smart', false],
      ['reencode', true],
    ] as const)('%s: every frame kept at its own source time (cuts on the source\'s timestamps), in sync', async (path, forceReencode) => {
      const grid = { starts: timeline.ticks.map((t) => t / VFR_TIMESCALE), end: timeline.endTicks / VFR_TIMESCALE };
      const sec = (i: number) => (i < grid.starts.length ? grid.starts[i]! : grid.end);
      // what the output must show: the frames between the nearest boundaries, each range after the last
      const expectedNumbers: number[] = [];
      const expectedTimes: number[] = [];
      let at = 0;
      for (const s of vfrSegments) {
        const [a, b] = [nearestBoundary(grid, s.start), nearestBoundary(grid, s.end)];
        for (let i = a; i < b; i++) {
          expectedNumbers.push(timeline.numbers[i]!);
          expectedTimes.push(at + sec(i) - sec(a));
        }
        at += sec(b) - sec(a);
      }
      const out = join(dir, `vfr-${path}.mp4`);
      const r = await renderEdit({ input, output: out, workDir: await mkdtemp(join(dir, 'w-')), segments: vfrSegments, forceReencode });
      expect([r.path, r.fallbackReason]).toEqual([path, forceReencode ? 'full re-encode requested' : null]);
      const frames = await readFrameNumbers(out);
      expect(frames).toEqual(expectedNumbers);
      const times = frameTimes(out);
      expect(times).toHaveLength(expectedTimes.length);
      const worst = Math.max(...times.map((t, k) => Math.abs(t - expectedTimes[k]!)));
      expect(worst).toBeLessThan(0.0005);
      expect(r.outputDurationSec).toBeCloseTo(at, 6);
      // the bursts of frames numbered 5k play at those frames' output times
      const sync = checkSync(frames, await readBurstOnsets(out, { minQuietSec: 0.015 }), 30, 0, times);
      expect(sync.matched).toBeGreaterThan(10);
      expect({ offset: sync.interiorMaxOffsetSec <= AAC_FRAME_SEC(48000) ? 'within one AAC frame' : sync.interiorMaxOffsetSec }).toEqual({ offset: 'within one AAC frame' });
    }, 120000);
  });
});
