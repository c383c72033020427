/**
 * The MLT export played by MLT itself: for a 30, a 29.97 and a 25 fps frame-coded source, an edit
 * list with cuts, a reorder and a mute is written with writeMlt, rendered by melt and by our
 * renderer, and both renders must show the same source frames, frame by frame, as the export's
 * pieces say; melt's audio keeps to its frames and is silent where the mute is.
 * Requires Debian's `melt` (tools/scripts/setup.sh --tests).
 */
import {
  applyCuts,
  applyMute,
  applyReorder,
  identityEditList,
  outputMutes,
  quantize,
  rationalRate,
  timelinePieces,
  writeMlt,
  type EditList,
  type ExportSource,
  type TimelinePiece,
} from '@wordcut/edit-list';
import { probe, renderEdit } from '@wordcut/ffmpeg';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkSync, generateTimecodeMedia, readBurstOnsets, readFrameNumbers } from '../media/timecode-media';
import { meltInstalled, renderWithMelt } from './melt';

const DURATION_SEC = 4;
const RATES = ['30/1', '30000/1001', '25/1'] as const;
/** One AAC frame at 48 kHz: melt's audio after a seek into AAC may be off by up to this. */
const AAC_FRAME_SEC = 1024 / 48_000;

/** Source frames the pieces show, in play order. */
function pieceFrames(pieces: readonly TimelinePiece[]): number[] {
  return pieces.flatMap((p) => Array.from({ length: p.srcOut - p.srcIn }, (_, i) => p.srcIn + i));
}

/**
 * Cuts off the frame grid, the tail played first, a silenced stretch inside it; snapped to frames as
 * every render request is. Pieces start at frame 0, reach the source's end and play out of order.
 */
function editFor(durationSec: number, fps: number): EditList {
  const cut = applyCuts(identityEditList(durationSec), [
    { start: 0.52, end: 0.93 },
    { start: 2.41, end: 2.77 },
  ]);
  const length = cut.segments.reduce((d, s) => d + s.end - s.start, 0);
  const reordered = applyReorder(cut, [
    { start: 2.3, end: length },
    { start: 1.1, end: 2.3 },
    { start: 0, end: 1.1 },
  ]);
  const muted = applyMute(reordered, [{ start: 0.31, end: 0.74 }], 'silence');
  return quantize(applyCuts(muted, [{ start: 1.71, end: 1.84 }]), fps);
}

describe('MLT export rendered by melt', () => {
  let dir: string;

  beforeAll(async () => {
    if (!(await meltInstalled())) throw new Error('melt is not installed: run tools/scripts/setup.sh --tests');
    dir = await mkdtemp(join(tmpdir(), 'wordcut-mlt-melt-'));
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it.each(RATES)('at %s fps: melt shows the same frames as our render, and as the pieces', async (frameRate) => {
    const work = join(dir, frameRate.replace('/', '-'));
    await mkdir(work);
    const fileName = 'source clip.mp4';
    const src = join(work, fileName);
    await generateTimecodeMedia(src, { durationSec: DURATION_SEC, frameRate, gopFrames: 30 });

    // the source as the export describes it: its probed rate as a fraction, its size and length
    const info = await probe(src);
    const video = info.streams.find((s) => s.codecType === 'video');
    const rate = rationalRate(video?.frameRate ?? 0);
    expect(`${rate.num}/${rate.den}`).toBe(frameRate);
    const fps = rate.num / rate.den;
    const sourceFrames = Math.round(DURATION_SEC * fps);
    const el = editFor(info.durationSec ?? DURATION_SEC, fps);
    const pieces = timelinePieces(el, rate);
    const expected = pieceFrames(pieces);
    expect(pieces.length).toBeGreaterThanOrEqual(6);
    expect(pieces.some((p, k) => k > 0 && p.srcIn < pieces[k - 1]!.srcIn)).toBe(true);
    expect(pieces.some((p) => p.gain === 0)).toBe(true);
    expect(Math.min(...expected)).toBe(0);
    // the tail reaches the source's last frame
    expect(Math.max(...expected)).toBe(sourceFrames - 1);

    const source: ExportSource = {
      fileName,
      url: `file:///${encodeURIComponent(fileName)}`,
      title: `timecode ${frameRate}`,
      rate,
      variableFrameRate: false,
      width: video?.width ?? null,
      height: video?.height ?? null,
      durationSec: el.sourceDuration,
      hasAudio: true,
      fullRange: false,
    };
    // the project beside its source, which it names by its bare file name
    const project = join(work, 'edit.mlt');
    await writeFile(project, writeMlt(source, pieces));

    const melted = join(work, 'melt.mkv');
    await renderWithMelt(project, melted);
    const ours = join(work, 'ours.mp4');
    const volumes = outputMutes(el).map((m) => ({ start: m.start, end: m.end, volume: m.volume }));
    await renderEdit({ input: src, output: ours, workDir: await mkdtemp(join(work, 'render-')), segments: el.segments, volumes, concurrency: 1 });

    const meltFrames = await readFrameNumbers(melted);
    expect(meltFrames).toEqual(await readFrameNumbers(ours));
    expect(meltFrames).toEqual(expected);

    // melt's audio follows its pictures: every burst away from a cut starts with its frame, none where muted
    const silent = pieces.filter((p) => p.gain === 0).map((p) => ({ start: p.recIn / fps, end: (p.recIn + p.srcOut - p.srcIn) / fps }));
    const isSilent = (t: number) => silent.some((r) => t >= r.start - 1e-6 && t < r.end);
    const onsets = await readBurstOnsets(melted, { minQuietSec: 0.015 });
    expect(onsets.filter(isSilent)).toEqual([]);
    const sync = checkSync(meltFrames.map((n, k) => (isSilent(k / fps) ? -1 : n)), onsets, fps);
    expect(sync.matched).toBeGreaterThan(10);
    expect(sync.interiorMaxOffsetSec).toBeLessThanOrEqual(AAC_FRAME_SEC);
  });
});
