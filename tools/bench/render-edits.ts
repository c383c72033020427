/**
 * The cuts and mutes parts of the render benchmark: 20 cuts against a stream copy and a full
 * re-encode, 20 mutes against encoding the audio alone; with verify, frames, A/V sync and levels read back.
 */
import { toFfmpegInput } from '@wordcut/ffmpeg';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkSync, detectToneLevel, expectedFramesForSegments, readBurstOnsets, readFrameNumbers } from '../media/timecode-media';
import { checkInterrupted, round } from './common';
import { outputFacts, oursLine, pathRun, RENDER_LABELS, timedFfmpeg, timedOurs, type OursDetail, type RenderContext, type RenderPathRun } from './render-measure';
import { keptSpans, MUTE_VOLUMES, planCuts, planMutes, sec, trimConcatGraph } from './render-plans';

const CUTS = 20;
const MUTES = 20;

export interface CutsVerify {
  framesRead: number;
  /** Output frames showing another source frame than the edit keeps (plus any length difference). */
  frameMismatches: number;
  syncMaxOffsetMs: number;
  syncInteriorMaxOffsetMs: number;
  burstsMatched: number;
  burstsUnmatched: number;
}

export interface RenderCuts {
  /** Removed source ranges, seconds. */
  removed: Array<{ start: number; end: number }>;
  removedSec: number;
  keptSegments: number;
  outputSec: number;
  expectedFrames: number;
  paths: RenderPathRun[];
  ours: OursDetail;
  /** full re-encode time / ours */
  speedup: number;
  /** ours / stream copy of the whole file */
  oursVsCopy: number;
  /** Both cut renders have exactly the expected frame count. */
  framesOk: boolean;
  verify?: CutsVerify;
}

export interface RenderMutes {
  /** Output (= source) ranges, seconds. */
  ranges: Array<{ start: number; end: number; volume: number }>;
  outputSec: number;
  paths: RenderPathRun[];
  ours: OursDetail;
  /** ours / audio-only encode */
  ratio: number;
  framesOk: boolean;
  /** Measured level in the render / level of the source over the same window, for the first three mutes. */
  verify?: Array<{ start: number; end: number; volume: number; measured: number }>;
}

export async function benchCuts(ctx: RenderContext, fps: number, frameCount: number, gop: number, verify: boolean): Promise<RenderCuts> {
  const removed = planCuts(frameCount, CUTS, gop);
  const kept = keptSpans(removed, frameCount);
  const expectedFrames = kept.reduce((n, k) => n + k.end - k.start, 0);
  const outputSec = expectedFrames / fps;
  const segments = kept.map((k) => ({ start: sec(k.start, fps), end: sec(k.end, fps) }));
  const sourceSec = frameCount / fps;
  ctx.log(`  render cuts: ${CUTS} cuts (${round((frameCount - expectedFrames) / fps)} s removed), ${kept.length} kept ranges, ${round(outputSec)} s of output`);

  const copyOut = join(ctx.scratch, 'cuts-copy.mp4');
  const copySec = await timedFfmpeg(ctx, ['-i', toFfmpegInput(ctx.source), '-c', 'copy', '-f', 'mp4', toFfmpegInput(copyOut)]);
  const copy = pathRun('copy', RENDER_LABELS.copy, copySec, sourceSec, frameCount, await outputFacts(copyOut));
  ctx.log(`  render cuts copy:     ${copy.seconds} s`);
  await rm(copyOut, { force: true });

  const graph = join(ctx.scratch, 'cuts-graph.txt');
  await writeFile(graph, trimConcatGraph(kept, fps));
  const reOut = join(ctx.scratch, 'cuts-reencode.mp4');
  const reSec = await timedFfmpeg(ctx, [
    '-i', toFfmpegInput(ctx.source),
    '-filter_complex_script', toFfmpegInput(graph),
    '-map', '[vout]', '-map', '[aout]',
    '-c:v', 'libx264', '-preset', 'veryfast', '-c:a', 'aac', '-b:a', '128k',
    '-movflags', '+faststart', '-f', 'mp4', toFfmpegInput(reOut),
  ]);
  const reencode = pathRun('reencode', RENDER_LABELS.reencode, reSec, outputSec, expectedFrames, await outputFacts(reOut));
  ctx.log(`  render cuts re-encode: ${reencode.seconds} s, ${reencode.frames} frames (expected ${expectedFrames})`);
  await rm(reOut, { force: true });

  const oursOut = join(ctx.scratch, 'cuts-ours.mp4');
  const o = await timedOurs(ctx, { output: oursOut, segments });
  const ours = pathRun('ours', RENDER_LABELS.oursCuts, o.seconds, outputSec, expectedFrames, await outputFacts(oursOut));
  ctx.log(`  render cuts ours:     ${ours.seconds} s, ${ours.frames} frames (expected ${expectedFrames}); result.path=${o.result.path} result.audio=${o.result.audio} result.encodedShare=${o.result.encodedShare}`);
  ctx.log(`    ${oursLine(o.detail)}`);

  let verified: CutsVerify | undefined;
  if (verify) {
    checkInterrupted();
    const t0 = performance.now();
    const frames = await readFrameNumbers(oursOut);
    const want = expectedFramesForSegments(segments, fps);
    let mismatches = Math.abs(frames.length - want.length);
    for (let i = 0; i < Math.min(frames.length, want.length); i++) if (frames[i] !== want[i]) mismatches++;
    const sync = checkSync(frames, await readBurstOnsets(oursOut), fps);
    verified = {
      framesRead: frames.length,
      frameMismatches: mismatches,
      syncMaxOffsetMs: round(sync.maxOffsetSec * 1000, 2),
      syncInteriorMaxOffsetMs: round(sync.interiorMaxOffsetSec * 1000, 2),
      burstsMatched: sync.matched,
      burstsUnmatched: sync.unmatched,
    };
    ctx.log(
      `  render cuts verify (${round((performance.now() - t0) / 1000)} s): ${frames.length} frames read, ${mismatches} not the expected source frame; ` +
        `A/V sync max ${verified.syncMaxOffsetMs} ms (interior ${verified.syncInteriorMaxOffsetMs} ms) over ${sync.matched} bursts, ${sync.unmatched} cut at a boundary`,
    );
  }
  await rm(oursOut, { force: true });

  return {
    removed: removed.map((r) => ({ start: round(sec(r.start, fps), 3), end: round(sec(r.end, fps), 3) })),
    removedSec: round((frameCount - expectedFrames) / fps, 2),
    keptSegments: kept.length,
    outputSec: round(outputSec, 2),
    expectedFrames,
    paths: [copy, reencode, ours],
    ours: o.detail,
    speedup: round(reencode.seconds / ours.seconds),
    oursVsCopy: round(ours.seconds / copy.seconds),
    framesOk: reencode.frames === expectedFrames && ours.frames === expectedFrames,
    ...(verified ? { verify: verified } : {}),
  };
}

export async function benchMutes(ctx: RenderContext, fps: number, frameCount: number, verify: boolean): Promise<RenderMutes> {
  const mutes = planMutes(frameCount, MUTES);
  const volumes = mutes.map((m) => ({ start: sec(m.start, fps), end: sec(m.end, fps), volume: m.volume }));
  const outputSec = frameCount / fps;

  const audioOut = join(ctx.scratch, 'mutes-audio.m4a');
  const audioSec = await timedFfmpeg(ctx, ['-i', toFfmpegInput(ctx.source), '-vn', '-c:a', 'aac', '-b:a', '128k', '-f', 'mp4', toFfmpegInput(audioOut)]);
  const audioOnly = pathRun('audio-only', RENDER_LABELS.audioOnly, audioSec, outputSec, null, await outputFacts(audioOut));
  ctx.log(`  render mutes audio alone: ${audioOnly.seconds} s`);
  await rm(audioOut, { force: true });

  const oursOut = join(ctx.scratch, 'mutes-ours.mp4');
  const o = await timedOurs(ctx, { output: oursOut, segments: [{ start: 0, end: outputSec }], volumes });
  const ours = pathRun('ours', RENDER_LABELS.oursMutes, o.seconds, outputSec, frameCount, await outputFacts(oursOut));
  ctx.log(`  render mutes ours:        ${ours.seconds} s, ${ours.frames} frames (expected ${frameCount}); result.path=${o.result.path} result.audio=${o.result.audio} result.encodedShare=${o.result.encodedShare}`);
  ctx.log(`    ${oursLine(o.detail)}`);

  let verified: RenderMutes['verify'];
  if (verify) {
    // the inner 4 of the 6 burst periods of each range: clear of the AAC frames that straddle its edges
    verified = [];
    for (const v of volumes.slice(0, MUTE_VOLUMES.length)) {
      checkInterrupted();
      const [from, to] = [v.start + 5 / fps, v.end - 5 / fps];
      const level = await detectToneLevel(oursOut, from, to);
      const reference = await detectToneLevel(ctx.source, from, to);
      verified.push({ start: round(v.start, 3), end: round(v.end, 3), volume: v.volume, measured: round(level / reference, 3) });
    }
    ctx.log(`  render mutes verify: level / source level ${verified.map((x) => `${x.measured} (volume ${x.volume})`).join(', ')}`);
  }
  await rm(oursOut, { force: true });

  return {
    ranges: volumes.map((v) => ({ start: round(v.start, 3), end: round(v.end, 3), volume: v.volume })),
    outputSec: round(outputSec, 2),
    paths: [audioOnly, ours],
    ours: o.detail,
    ratio: round(ours.seconds / audioOnly.seconds, 2),
    framesOk: ours.frames === frameCount,
    ...(verified ? { verify: verified } : {}),
  };
}
