/**
 * Phone-like sources cut frame-exact: every frame right, A/V within one AAC frame (before the first
 * cut too), and the properties that make the picture (rotation, bit depth, colour tags) kept, with
 * the path each took. Sources are timecode media (tools/media) generated per kind.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { displayDimensions, probe, renderEdit, streamRotation, type RenderResult } from '@wordcut/ffmpeg';
import { checkSync, expectedFramesForSegments, generateTimecodeMedia, readBurstOnsets, readFrameNumbers, type TimecodeMediaOptions } from '../../../../tools/media/timecode-media';

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

describe('phone-like sources: exact cuts through the smart path', () => {
  let dir: string;
  let n = 0;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wordcut-sources-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const segments = [
    { start: 0.4, end: 1.9 },
    { start: 2.55, end: 4.3 },
  ];

  async function cut(source: TimecodeMediaOptions & { name: string }, fps: number, delaySec = 0): Promise<{ r: RenderResult; out: string; input: string; frames: number[] }> {
    const input = join(dir, source.name);
    await generateTimecodeMedia(input, source);
    const out = join(dir, `out-${n++}.mp4`);
    const r = await renderEdit({ input, output: out, workDir: await mkdtemp(join(dir, 'w-')), segments });
    const frames = await readFrameNumbers(out, { asStored: true });
    expect(frames).toEqual(expectedFramesForSegments(segments, fps));
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
});
