/** The clip part of the render benchmark: a 60 s 9:16 clip, centred and zoomed, ours against the plain crop command. */
import type { Reframe } from '@wordcut/edit-list';
import { planReframe, readRenderMediaInfo, toFfmpegInput } from '@wordcut/ffmpeg';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onCleanup, round } from './common';
import { outputFacts, oursLine, pathRun, RENDER_LABELS, timedFfmpeg, timedOurs, type OursDetail, type RenderContext, type RenderPathRun } from './render-measure';
import { CLIP_RATIO, plainCropFilter } from './render-plans';
import type { RenderSource } from './render-source';

const CLIP_SECONDS = 60;
/** Where the clip starts in the source (between keyframes; it does not matter for a re-encode). */
const CLIP_START_SEC = 241.3;
/** The second clip: zoomed and panned up and to the right, as a KeyClips export would be. */
const CLIP_ZOOMED: Reframe = { offsetX: 12, offsetY: -8, scale: 1.6 };

export interface RenderClipCase {
  reframe: Reframe;
  /** ours (planReframe) */
  filter: string;
  /** the plain command's: crop the same window in whole pixels, scale it */
  plainFilter: string;
  paths: RenderPathRun[];
  ours: OursDetail;
  /** clip duration / ours' wall time */
  realtime: number;
  /** plain command time / ours */
  speedupVsPlain: number;
  framesOk: boolean;
}

export interface RenderClip extends RenderClipCase {
  startSec: number;
  durationSec: number;
  ratio: typeof CLIP_RATIO;
  width: number;
  height: number;
  /** the same clip zoomed and panned */
  zoomed: RenderClipCase;
}

async function benchClipCase(ctx: RenderContext, fps: number, width: number, height: number, reframe: Reframe, name: string): Promise<RenderClipCase> {
  const plan = planReframe(width, height, CLIP_RATIO, reframe);
  if (!plan.filter) throw new Error(`planReframe(${width}, ${height}, ${CLIP_RATIO}) gave no filter`);
  const plainFilter = plainCropFilter(width, height, reframe);
  const expectedFrames = Math.round((CLIP_START_SEC + CLIP_SECONDS) * fps) - Math.round(CLIP_START_SEC * fps);

  const plainOut = join(ctx.scratch, 'clip-plain.mp4');
  const plainSec = await timedFfmpeg(ctx, [
    '-ss', String(CLIP_START_SEC), '-t', String(CLIP_SECONDS), '-i', toFfmpegInput(ctx.source),
    '-vf', plainFilter, '-c:v', 'libx264', '-preset', 'veryfast', '-c:a', 'aac',
    '-movflags', '+faststart', '-f', 'mp4', toFfmpegInput(plainOut),
  ]);
  const plain = pathRun('plain', RENDER_LABELS.plain, plainSec, CLIP_SECONDS, expectedFrames, await outputFacts(plainOut));
  ctx.log(`  render clip ${name} plain: ${plain.seconds} s, ${plain.frames} frames (-vf ${plainFilter})`);
  await rm(plainOut, { force: true });

  const oursOut = join(ctx.scratch, 'clip-ours.mp4');
  const o = await timedOurs(ctx, { output: oursOut, segments: [{ start: CLIP_START_SEC, end: CLIP_START_SEC + CLIP_SECONDS }], videoFilter: plan.filter });
  const facts = await outputFacts(oursOut);
  const ours = pathRun('ours', RENDER_LABELS.oursClip, o.seconds, CLIP_SECONDS, expectedFrames, facts);
  ctx.log(`  render clip ${name} ours:  ${ours.seconds} s, ${ours.frames} frames (expected ${expectedFrames}), ${facts.width}x${facts.height}; result.path=${o.result.path} result.audio=${o.result.audio} (-vf ${plan.filter})`);
  ctx.log(`    ${oursLine(o.detail)}`);
  await rm(oursOut, { force: true });

  return {
    reframe,
    filter: plan.filter,
    plainFilter,
    paths: [plain, ours],
    ours: o.detail,
    realtime: round(CLIP_SECONDS / ours.seconds, 2),
    speedupVsPlain: round(plain.seconds / ours.seconds, 2),
    framesOk: ours.frames === expectedFrames && facts.width === plan.width && facts.height === plan.height,
  };
}

export async function benchClip(ctx: RenderContext, fps: number, width: number, height: number): Promise<RenderClip> {
  const centred = await benchClipCase(ctx, fps, width, height, { offsetX: 0, offsetY: 0, scale: 1 }, 'centred');
  const zoomed = await benchClipCase(ctx, fps, width, height, CLIP_ZOOMED, 'zoomed');
  const { width: W, height: H } = planReframe(width, height, CLIP_RATIO);
  return { startSec: CLIP_START_SEC, durationSec: CLIP_SECONDS, ratio: CLIP_RATIO, width: W, height: H, ...centred, zoomed };
}

/** The clip part alone (both cases), on the section's source. */
export async function benchRenderClip(o: { source: RenderSource; log: (line: string) => void }): Promise<RenderClip> {
  const info = await readRenderMediaInfo(o.source.path);
  const v = info.video;
  if (!v || v.frameTicks === null) throw new Error(`${o.source.file}: no constant-rate video stream`);
  const scratch = await mkdtemp(join(tmpdir(), 'wordcut-bench-clip-'));
  const ac = new AbortController();
  const forgetScratch = onCleanup(`clip scratch ${scratch}`, () => rm(scratch, { recursive: true, force: true }));
  const forgetAbort = onCleanup('clip ffmpeg runs', () => ac.abort(new Error('interrupted')));
  try {
    return await benchClip({ source: o.source.path, scratch, signal: ac.signal, log: o.log }, v.timeBase.den / (v.frameTicks * v.timeBase.num), v.width, v.height);
  } finally {
    forgetAbort();
    forgetScratch();
    await rm(scratch, { recursive: true, force: true });
  }
}
