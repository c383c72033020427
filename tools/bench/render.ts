/**
 * Section 6: rendering edits of a 10-minute 1280x720 30 fps talk, each against what a simple tool
 * would run, on the same machine in the same run:
 *
 * - 20 cuts (ranges of 1.5-4 s removed, spread over the file, never on a keyframe):
 *   - floor: stream copy of the whole file (`ffmpeg -i src -c copy`), no cut at all;
 *   - alternative: one decode/encode pass, a trim/atrim per kept range and concat
 *     (`-filter_complex_script`, libx264 veryfast + AAC), "what most tools do";
 *   - ours: `renderEdit` (smart render: copies whole GOPs, re-encodes the partial ones at the cuts);
 * - 20 mutes (~1 s each at volumes 0 / 0.1 / 0.3) over the whole file: ours (`renderEdit` with
 *   `volumes`: video copied, audio re-encoded) vs encoding the audio alone (`-vn -c:a aac`);
 * - a 60 s 9:16 clip at 1080x1920, centred, then zoomed 1.6x and panned (a key moment's export): ours
 *   (`renderEdit` with the `planReframe` filter) vs the plain command for the same crop,
 *   `-ss -t -i ... -vf crop=...,scale=1080:1920 -c:v libx264 -preset veryfast -c:a aac`.
 *
 * "Ours" is timed as the media worker runs it: `readRenderMediaInfo` then `renderEdit` with that
 * info. Every output's video frames are counted (ffprobe -count_packets) against the frames the
 * edit keeps; BENCH_RENDER_VERIFY=1 also reads back every frame number and the audio bursts of the
 * cut render (A/V sync) and the levels of three mutes (about 30 s more). One run per path: the
 * full re-encode alone takes about 3 minutes on 2 busy cores.
 *
 * The source is in render-source.ts, the edits in render-plans.ts, the timing in render-measure.ts,
 * the parts in render-edits.ts (cuts, mutes) and render-clip.ts; this module runs them in turn.
 */
import { readRenderMediaInfo } from '@wordcut/ffmpeg';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MB, checkInterrupted, onCleanup, round } from './common';
import { benchClip, type RenderClip } from './render-clip';
import { benchCuts, benchMutes, type RenderCuts, type RenderMutes } from './render-edits';
import type { RenderContext } from './render-measure';
import type { RenderSource } from './render-source';

export { benchRenderClip, type RenderClip, type RenderClipCase } from './render-clip';
export type { CutsVerify, RenderCuts, RenderMutes } from './render-edits';
export { RENDER_LABELS, type OursDetail, type RenderPathRun } from './render-measure';
export { keptSpans, plainCropFilter, planCuts, planMutes, trimConcatGraph, type FrameSpan } from './render-plans';
export { ensureRenderSource, RENDER_SOURCE, type RenderSource } from './render-source';

export interface RenderResults {
  source: { file: string; sizeMiB: number; description: string; generatedSec: number; durationSec: number; frames: number; fps: number; keyframes: number };
  cuts: RenderCuts;
  mutes: RenderMutes;
  clip: RenderClip;
  verified: boolean;
  /** Wall time of the three parts (not the source's generation). */
  sectionSec: number;
}

/** The whole section: the source (generated once), then cuts, mutes and the clip, one after another. */
export async function benchRender(o: { source: RenderSource; verify: boolean; log: (line: string) => void }): Promise<RenderResults> {
  const started = performance.now();
  const info = await readRenderMediaInfo(o.source.path);
  const v = info.video;
  if (!v || v.frameTicks === null) throw new Error(`${o.source.file}: no constant-rate video stream`);
  const fps = v.timeBase.den / (v.frameTicks * v.timeBase.num);
  const frameCount = v.framePts.length;
  const gop = v.keyframes[1] ?? frameCount;

  checkInterrupted();
  const scratch = await mkdtemp(join(tmpdir(), 'wordcut-bench-render-'));
  const ac = new AbortController();
  // on interruption: kill the running ffmpeg, then remove the outputs
  const forgetScratch = onCleanup(`render scratch ${scratch}`, () => rm(scratch, { recursive: true, force: true }));
  const forgetAbort = onCleanup('render ffmpeg runs', () => ac.abort(new Error('interrupted')));
  const ctx: RenderContext = { source: o.source.path, scratch, signal: ac.signal, log: o.log };
  try {
    const cuts = await benchCuts(ctx, fps, frameCount, gop, o.verify);
    const mutes = await benchMutes(ctx, fps, frameCount, o.verify);
    const clip = await benchClip(ctx, fps, v.width, v.height);
    return {
      source: {
        file: o.source.file,
        sizeMiB: round(o.source.sizeBytes / MB),
        description: o.source.description,
        generatedSec: round(o.source.generatedSec),
        durationSec: round(frameCount / fps, 2),
        frames: frameCount,
        fps: round(fps, 3),
        keyframes: v.keyframes.length,
      },
      cuts,
      mutes,
      clip,
      verified: o.verify,
      sectionSec: round((performance.now() - started) / 1000),
    };
  } finally {
    forgetAbort();
    forgetScratch();
    await rm(scratch, { recursive: true, force: true });
  }
}
