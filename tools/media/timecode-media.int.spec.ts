import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { probe, runFfmpeg } from '@wordcut/ffmpeg';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkSync,
  detectToneLevel,
  expectedFramesForSegments,
  generateTimecodeMedia,
  readBurstOnsets,
  readFrameNumbers,
} from './timecode-media';

const FPS = 30;
const RATE = 48_000;
const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

/** Re-encodes the source segments (frame-exact trim + sample-exact atrim) one after another with concat. */
async function renderSegments(src: string, out: string, segments: Array<{ start: number; end: number }>): Promise<void> {
  const parts = segments.map(({ start, end }, i) => [
    `[0:v]trim=start_frame=${Math.round(start * FPS)}:end_frame=${Math.round(end * FPS)},setpts=PTS-STARTPTS[v${i}]`,
    `[0:a]atrim=start_sample=${Math.round(start * RATE)}:end_sample=${Math.round(end * RATE)},asetpts=PTS-STARTPTS[a${i}]`,
  ]);
  const inputs = segments.map((_, i) => `[v${i}][a${i}]`).join('');
  const graph = [...parts.flat(), `${inputs}concat=n=${segments.length}:v=1:a=1[v][a]`].join(';');
  await runFfmpeg({
    timeoutMs: 60_000,
    args: [
      '-i', src, '-filter_complex', graph, '-map', '[v]', '-map', '[a]',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k', out,
    ],
  });
}

describe('timecode media (real ffmpeg)', () => {
  let dir: string;
  let src: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wordcut-timecode-spec-'));
    src = join(dir, 'src.mp4');
    await generateTimecodeMedia(src, { durationSec: 6 });
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('generates a 320x180 H.264 + AAC clip whose frames read back as 0..179', async () => {
    const info = await probe(src);
    expect(info.streams.find((s) => s.codecType === 'video')).toMatchObject({ codecName: 'h264', width: 320, height: 180, frameRate: 30 });
    expect(info.streams.find((s) => s.codecType === 'audio')).toMatchObject({ codecName: 'aac', sampleRate: 48_000, channels: 2 });
    expect(await readFrameNumbers(src)).toEqual(range(0, 180));
  });

  it('puts a burst onset at every 5th frame start (multiples of 1/6 s) within 2 ms', async () => {
    const onsets = await readBurstOnsets(src);
    expect(onsets).toHaveLength(36);
    onsets.forEach((t, i) => expect(Math.abs(t - i / 6)).toBeLessThan(0.002));
  });

  it('reports the untouched file in sync', async () => {
    const report = checkSync(await readFrameNumbers(src), await readBurstOnsets(src), FPS);
    expect(report.maxOffsetSec).toBeLessThan(0.005);
    expect(report).toMatchObject({ matched: 36, unmatched: 0 });
  });

  it('sees exactly which frames a cut removed, and the cut stays in sync', async () => {
    // 27 frames removed: not a whole number of burst periods (5 frames), so a slip would show.
    const kept = [{ start: 0, end: 40 / FPS }, { start: 67 / FPS, end: 6 }];
    const cut = join(dir, 'cut.mp4');
    await renderSegments(src, cut, kept);
    const frames = await readFrameNumbers(cut);
    expect(expectedFramesForSegments(kept, FPS)).toEqual([...range(0, 40), ...range(67, 180)]);
    expect(frames).toEqual(expectedFramesForSegments(kept, FPS));
    const report = checkSync(frames, await readBurstOnsets(cut), FPS);
    expect(report.maxOffsetSec).toBeLessThan(0.005);
    // Frames 40, 45 ... 65 were cut away: 6 of the 36 bursts are not expected any more.
    expect(report).toMatchObject({ matched: 30, unmatched: 0 });
    // The same frames over the uncut audio: the bursts after the cut are 27 frames (0.9 s) late, which is
    // 2 frames (67 ms) from the nearest burst. (A slip of a whole number of burst periods is invisible.)
    expect(checkSync(frames, await readBurstOnsets(src), FPS).maxOffsetSec).toBeCloseTo(2 / FPS, 2);
  });

  it('sees a reorder in play order', async () => {
    const order = [{ start: 4, end: 6 }, { start: 0.5, end: 2 }];
    const reordered = join(dir, 'reordered.mp4');
    await renderSegments(src, reordered, order);
    const frames = await readFrameNumbers(reordered);
    expect(frames).toEqual([...range(120, 180), ...range(15, 60)]);
    const report = checkSync(frames, await readBurstOnsets(reordered), FPS);
    expect(report.maxOffsetSec).toBeLessThan(0.005);
    expect(report.matched).toBe(12 + 9);
  });

  it('reports audio delayed by 30 ms as a 30 ms offset', async () => {
    const shifted = join(dir, 'shifted.mp4');
    await runFfmpeg({
      timeoutMs: 60_000,
      args: [
        '-i', src, '-map', '0:v', '-map', '0:a', '-c:v', 'copy',
        '-af', 'adelay=delays=30:all=1', '-c:a', 'aac', '-b:a', '128k', shifted,
      ],
    });
    const report = checkSync(await readFrameNumbers(shifted), await readBurstOnsets(shifted), FPS);
    expect(Math.abs(report.maxOffsetSec - 0.03)).toBeLessThan(0.002);
    expect(report).toMatchObject({ matched: 36, unmatched: 0 });
  });

  it('measures tone levels for mute checks (0.3, 0.1 and 0 of the original)', async () => {
    // 1..2 s spans 6 whole burst periods, so the level does not depend on where the window falls.
    const original = await detectToneLevel(src, 1, 2);
    expect(original).toBeCloseTo(0.8 / Math.SQRT2 * Math.sqrt(0.01 / (1 / 6)), 2);
    for (const gain of [0.3, 0.1, 0]) {
      const out = join(dir, `gain-${gain}.mp4`);
      await runFfmpeg({
        timeoutMs: 60_000,
        args: ['-i', src, '-map', '0:v', '-map', '0:a', '-c:v', 'copy', '-af', `volume=${gain}`, '-c:a', 'aac', '-b:a', '128k', out],
      });
      const level = await detectToneLevel(out, 1, 2);
      expect(Math.abs(level - gain * original)).toBeLessThan(0.003);
    }
  });

  it('makes an HEVC variant whose frames read back', async () => {
    const hevc = join(dir, 'hevc.mp4');
    await generateTimecodeMedia(hevc, { durationSec: 2, codec: 'hevc' });
    expect((await probe(hevc)).streams.find((s) => s.codecType === 'video')).toMatchObject({ codecName: 'hevc', width: 320, height: 180 });
    expect(await readFrameNumbers(hevc)).toEqual(range(0, 60));
  });

  it('makes a 720p Matroska variant without B-frames that reads back in sync', async () => {
    // ffmpeg's mkv muxer keeps the AAC priming samples and starts the video 21 ms late: the verifier
    // measures audio from the first video frame, as a player shows them.
    const mkv = join(dir, 'big.mkv');
    await generateTimecodeMedia(mkv, { durationSec: 1, width: 1280, height: 720, fps: 25, bFrames: false });
    // WordCut's probe reads MP4/MOV only; the test media's own check reads the Matroska file as such
    const { stdout } = await promisify(execFile)('ffprobe', ['-v', 'error', '-f', 'matroska', '-select_streams', 'v:0', '-show_entries', 'stream=width,height,r_frame_rate', '-of', 'json', mkv]);
    expect((JSON.parse(stdout) as { streams: unknown[] }).streams[0]).toMatchObject({ width: 1280, height: 720, r_frame_rate: '25/1' });
    const frames = await readFrameNumbers(mkv);
    expect(frames).toEqual(range(0, 25));
    const report = checkSync(frames, await readBurstOnsets(mkv), 25);
    expect(report.maxOffsetSec).toBeLessThan(0.002);
    expect(report).toMatchObject({ matched: 5, unmatched: 0 });
  });
});

describe('timecode verifier rules (pure)', () => {
  it('snaps segment boundaries to the nearest frame', () => {
    expect(expectedFramesForSegments([{ start: 0.51, end: 1 }], FPS)).toEqual(range(15, 30));
    // Half-way between frames 1 and 2 rounds up; a segment shorter than half a frame shows nothing.
    expect(expectedFramesForSegments([{ start: 1.5 / FPS, end: 3 / FPS }, { start: 0.49, end: 0.51 }], FPS)).toEqual([2]);
  });

  const frames = [...range(0, 13), ...range(20, 40)];
  // Bursts of source frames 0, 5, 10 (output 0, 5, 10) and 20, 25, 30, 35 (output 13, 18, 23, 28).
  const onsetsAt = (ks: number[]): number[] => ks.map((k) => k / FPS);

  it('matches bursts across a cut and counts a cut-away boundary burst as unmatched', () => {
    expect(checkSync(frames, onsetsAt([0, 5, 10, 13, 18, 23, 28]), FPS)).toEqual({ maxOffsetSec: 0, matched: 7, unmatched: 0, interiorMaxOffsetSec: 0 });
    expect(checkSync(frames, onsetsAt([0, 5, 10, 18, 23, 28]), FPS)).toEqual({ maxOffsetSec: 0, matched: 6, unmatched: 1, interiorMaxOffsetSec: 0 });
  });

  it('reports a missing burst away from a cut as an offset, and no audio at all as Infinity', () => {
    expect(checkSync(frames, onsetsAt([0, 5, 10, 13, 18, 28]), FPS).maxOffsetSec).toBeCloseTo(5 / FPS, 9);
    // the first frame and the frames beside the cut are boundaries: without onsets they are unmatched
    expect(checkSync(frames, [], FPS)).toEqual({ maxOffsetSec: Infinity, matched: 5, unmatched: 2, interiorMaxOffsetSec: Infinity });
  });
});
