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
 */
import { reframeGeometry, type Reframe } from '@wordcut/edit-list';
import {
  planReframe,
  readRenderMediaInfo,
  renderEdit,
  runFfmpeg,
  toFfmpegInput,
  type RenderMediaInfo,
  type RenderRequest,
  type RenderResult,
} from '@wordcut/ffmpeg';
import { execFile } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { checkSync, detectToneLevel, expectedFramesForSegments, generateTimecodeMedia, readBurstOnsets, readFrameNumbers } from '../media/timecode-media';
import { BENCH_DIR, MB, checkInterrupted, onCleanup, round } from './common';

/** The source: frames carry their own number and the audio a tone burst every 5 frames (timecode-media.ts). */
export const RENDER_SOURCE = {
  file: 'talk-timecode-1280x720-30fps-10min.mp4',
  description: '1280x720 30 fps H.264 (veryfast, 2 s GOPs, B-frames) + stereo 48 kHz AAC 128k, 10 min, numbered frames',
  options: { durationSec: 600, width: 1280, height: 720, fps: 30, gopFrames: 60 },
} as const;

const CUTS = 20;
const MUTES = 20;
const MUTE_VOLUMES = [0, 0.1, 0.3] as const;
const CLIP_SECONDS = 60;
/** Where the clip starts in the source (between keyframes; it does not matter for a re-encode). */
const CLIP_START_SEC = 241.3;
const CLIP_RATIO = '9:16' as const;
/** The second clip: zoomed and panned up and to the right, as a KeyClips export would be. */
const CLIP_ZOOMED: Reframe = { offsetX: 12, offsetY: -8, scale: 1.6 };
/** Per ffmpeg run; the full re-encode is the longest (about 3 minutes on 2 busy cores). */
const TIMEOUT_MS = 15 * 60_000;

export interface RenderSource {
  path: string;
  file: string;
  sizeBytes: number;
  description: string;
  /** Seconds spent generating it in this run (0 when it came from the cache). */
  generatedSec: number;
}

/** One way of producing one output. */
export interface RenderPathRun {
  path: 'copy' | 'reencode' | 'ours' | 'audio-only' | 'plain';
  label: string;
  seconds: number;
  /** output duration / wall time */
  realtime: number;
  /** Video frames (packets) in the output; null for an audio-only output. */
  frames: number | null;
  /** The frames this output should have (null for an audio-only output). */
  expectedFrames: number | null;
  /** |audio duration - video duration| of the output in ms, null without both. */
  avDurationDiffMs: number | null;
}

/** What renderEdit reported, and where its time went. */
export interface OursDetail {
  renderPath: RenderResult['path'];
  audio: RenderResult['audio'];
  fallbackReason: string | null;
  totalFrames: number;
  encodedFrames: number;
  /** Share of the output's video frames re-encoded, 0..1. */
  encodedShare: number;
  /** readRenderMediaInfo (ffprobe of every packet), as the worker runs it before renderEdit. */
  mediaInfoSec: number;
  renderSec: number;
  /** Seconds after renderEdit started at which each progress stage was first reported. */
  stagesSec: Record<string, number>;
}

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

export interface RenderResults {
  source: { file: string; sizeMiB: number; description: string; generatedSec: number; durationSec: number; frames: number; fps: number; keyframes: number };
  cuts: RenderCuts;
  mutes: RenderMutes;
  clip: RenderClip;
  verified: boolean;
  /** Wall time of the three parts (not the source's generation). */
  sectionSec: number;
}

export const RENDER_LABELS = {
  copy: 'floor: ffmpeg -c copy of the whole file (no cuts)',
  reencode: 'alternative: trim/atrim + concat, libx264 veryfast + aac',
  oursCuts: 'ours: renderEdit (smart: copy GOPs, re-encode cut GOPs)',
  audioOnly: 'alternative: encode the audio alone (-vn -c:a aac 128k)',
  oursMutes: 'ours: renderEdit (copy video, audio with gains)',
  plain: 'alternative: -ss -t -i, -vf crop,scale, libx264 veryfast + aac',
  oursClip: 'ours: renderEdit with planReframe filter',
} as const;

// ---- the source, cached under BENCH_DIR like media.ts's recipes ----

export async function ensureRenderSource(log: (line: string) => void): Promise<RenderSource> {
  mkdirSync(BENCH_DIR, { recursive: true });
  const path = join(BENCH_DIR, RENDER_SOURCE.file);
  let generatedSec = 0;
  if (!exists(path)) {
    checkInterrupted();
    // written under another name (still .mp4: the generator picks the container by extension) and
    // renamed when complete: a cached file is always a whole one
    const partial = join(BENCH_DIR, `${RENDER_SOURCE.file}.partial-${process.pid}.mp4`);
    const forget = onCleanup(`partial ${partial}`, () => rmSync(partial, { force: true }));
    log(`generating ${RENDER_SOURCE.file} (${RENDER_SOURCE.description}; about 2 minutes on 2 cores) ...`);
    const t0 = performance.now();
    try {
      await generateTimecodeMedia(partial, { ...RENDER_SOURCE.options });
      renameSync(partial, path);
    } finally {
      rmSync(partial, { force: true });
      forget();
    }
    generatedSec = (performance.now() - t0) / 1000;
  }
  return { path, file: RENDER_SOURCE.file, sizeBytes: statSync(path).size, description: RENDER_SOURCE.description, generatedSec };
}

function exists(path: string): boolean {
  try {
    return statSync(path).size > 0;
  } catch {
    return false;
  }
}

// ---- the edits (pure, deterministic) ----

/** A source range in frames, [start, end). */
export interface FrameSpan {
  start: number;
  end: number;
}

/**
 * `count` removed ranges of 45-119 frames (1.5-4 s at 30 fps), one in each equal slot of the file at
 * a varying offset, with neither boundary on a multiple of `gop` (a keyframe): every cut lands
 * inside a GOP, the smart renderer's harder case.
 */
export function planCuts(frameCount: number, count: number, gop: number): FrameSpan[] {
  const slot = Math.floor(frameCount / count);
  const offKeyframe = (f: number) => (f % gop === 0 ? f + 7 : f);
  return Array.from({ length: count }, (_, i) => {
    const start = offKeyframe(i * slot + Math.floor(slot / 6) + ((i * 397) % Math.floor(slot / 2)));
    const end = offKeyframe(start + 45 + ((i * 53) % 75));
    if (end >= (i + 1) * slot) throw new Error(`cut ${i} does not fit its slot of ${slot} frames`);
    return { start, end };
  });
}

/** The kept ranges between the removed ones (ascending, non-overlapping). */
export function keptSpans(removed: readonly FrameSpan[], frameCount: number): FrameSpan[] {
  const kept: FrameSpan[] = [];
  let at = 0;
  for (const r of removed) {
    if (r.start > at) kept.push({ start: at, end: r.start });
    at = r.end;
  }
  if (at < frameCount) kept.push({ start: at, end: frameCount });
  return kept;
}

/**
 * `count` ranges of 30 frames (1 s at 30 fps) at volumes 0, 0.1, 0.3 in turn, one per slot; each
 * starts on a multiple of 5 frames, so that it spans whole tone-burst periods (for the level check).
 */
export function planMutes(frameCount: number, count: number): Array<FrameSpan & { volume: number }> {
  const slot = Math.floor(frameCount / count);
  return Array.from({ length: count }, (_, i) => {
    const start = i * slot + 5 * Math.floor((slot / 3 + ((i * 113) % Math.floor(slot / 2))) / 5);
    return { start, end: start + 30, volume: MUTE_VOLUMES[i % MUTE_VOLUMES.length]! };
  });
}

const sec = (frame: number, fps: number): number => frame / fps;

/**
 * The alternative's filter graph: the decoded video and audio split once per kept range, each copy
 * trimmed to its range with its timestamps reset, and the pieces concatenated. The video trims are
 * set a quarter frame early so that float rounding cannot move a boundary frame in or out (trim
 * keeps frames with start <= pts < end): the alternative keeps exactly the frames ours keeps.
 */
export function trimConcatGraph(kept: readonly FrameSpan[], fps: number): string {
  const n = kept.length;
  const t = (x: number) => Math.max(0, x).toFixed(6);
  const lines = [
    `[0:v:0]split=${n}${kept.map((_, i) => `[v${i}]`).join('')}`,
    `[0:a:0]asplit=${n}${kept.map((_, i) => `[a${i}]`).join('')}`,
    ...kept.flatMap((k, i) => [
      `[v${i}]trim=start=${t((k.start - 0.25) / fps)}:end=${t((k.end - 0.25) / fps)},setpts=PTS-STARTPTS[tv${i}]`,
      `[a${i}]atrim=start=${t(sec(k.start, fps))}:end=${t(sec(k.end, fps))},asetpts=PTS-STARTPTS[ta${i}]`,
    ]),
    `${kept.map((_, i) => `[tv${i}][ta${i}]`).join('')}concat=n=${n}:v=1:a=1[vout][aout]`,
  ];
  return `${lines.join(';\n')}\n`;
}

// ---- measuring ----

const ffprobeSchema = z.object({
  streams: z
    .array(
      z.object({
        codec_type: z.string(),
        nb_read_packets: z.coerce.number().optional(),
        duration: z.coerce.number().optional(),
        width: z.number().optional(),
        height: z.number().optional(),
      }),
    )
    .default([]),
});

interface OutputFacts {
  videoFrames: number | null;
  videoSec: number | null;
  audioSec: number | null;
  width: number | null;
  height: number | null;
}

/** Video packet count (every packet is one frame), stream durations and size of an output. */
async function outputFacts(path: string): Promise<OutputFacts> {
  const { stdout } = await promisify(execFile)(
    'ffprobe',
    ['-v', 'error', '-count_packets', '-show_entries', 'stream=codec_type,nb_read_packets,duration,width,height', '-of', 'json', toFfmpegInput(path)],
    { timeout: 120_000, maxBuffer: 1 << 20 },
  );
  const streams = ffprobeSchema.parse(JSON.parse(stdout)).streams;
  const v = streams.find((s) => s.codec_type === 'video');
  const a = streams.find((s) => s.codec_type === 'audio');
  return {
    videoFrames: v?.nb_read_packets ?? null,
    videoSec: v?.duration ?? null,
    audioSec: a?.duration ?? null,
    width: v?.width ?? null,
    height: v?.height ?? null,
  };
}

function pathRun(path: RenderPathRun['path'], label: string, seconds: number, outputSec: number, expectedFrames: number | null, facts: OutputFacts): RenderPathRun {
  return {
    path,
    label,
    seconds: round(seconds, 2),
    realtime: round(outputSec / seconds),
    frames: facts.videoFrames,
    expectedFrames,
    avDurationDiffMs: facts.videoSec !== null && facts.audioSec !== null ? round(Math.abs(facts.audioSec - facts.videoSec) * 1000) : null,
  };
}

interface Context {
  source: string;
  scratch: string;
  signal: AbortSignal;
  log: (line: string) => void;
}

/** One plain ffmpeg run, timed (through runFfmpeg, as every ffmpeg here). */
async function timedFfmpeg(ctx: Context, args: string[]): Promise<number> {
  checkInterrupted();
  const t0 = performance.now();
  await runFfmpeg({ args, timeoutMs: TIMEOUT_MS, signal: ctx.signal });
  return (performance.now() - t0) / 1000;
}

/** Ours as the media worker runs it: media info, then renderEdit with it, in a fresh work dir. */
async function timedOurs(ctx: Context, req: Omit<RenderRequest, 'input' | 'workDir' | 'info' | 'signal'>): Promise<{ seconds: number; result: RenderResult; detail: OursDetail }> {
  checkInterrupted();
  const workDir = await mkdtemp(join(ctx.scratch, 'work-'));
  try {
    const t0 = performance.now();
    const info: RenderMediaInfo = await readRenderMediaInfo(ctx.source, { signal: ctx.signal });
    const t1 = performance.now();
    const stagesSec: Record<string, number> = {};
    const result = await renderEdit({
      ...req,
      input: ctx.source,
      workDir,
      info,
      signal: ctx.signal,
      onProgress: (_p, stage) => {
        stagesSec[stage] ??= round((performance.now() - t1) / 1000, 2);
      },
    });
    const t2 = performance.now();
    const detail: OursDetail = {
      renderPath: result.path,
      audio: result.audio,
      fallbackReason: result.fallbackReason,
      totalFrames: result.totalFrames,
      encodedFrames: result.encodedFrames,
      encodedShare: round(result.encodedShare, 4),
      mediaInfoSec: round((t1 - t0) / 1000, 2),
      renderSec: round((t2 - t1) / 1000, 2),
      stagesSec,
    };
    return { seconds: (t2 - t0) / 1000, result, detail };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

function oursLine(d: OursDetail): string {
  const stages = Object.entries(d.stagesSec)
    .map(([stage, s]) => `${stage} @${s}`)
    .join(', ');
  return (
    `path=${d.renderPath} audio=${d.audio} encodedShare=${(d.encodedShare * 100).toFixed(1)}% (${d.encodedFrames}/${d.totalFrames} frames)` +
    `${d.fallbackReason ? ` fallback: ${d.fallbackReason}` : ''}; media info ${d.mediaInfoSec} s + renderEdit ${d.renderSec} s (${stages})`
  );
}

async function benchCuts(ctx: Context, fps: number, frameCount: number, gop: number, verify: boolean): Promise<RenderCuts> {
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

async function benchMutes(ctx: Context, fps: number, frameCount: number, verify: boolean): Promise<RenderMutes> {
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

/** The plain command's filter for a clip's window: crop it (whole source pixels), scale it to the export size. */
export function plainCropFilter(width: number, height: number, reframe: Reframe): string {
  const g = reframeGeometry(width, height, CLIP_RATIO, reframe);
  const cw = Math.round(g.crop.width);
  const ch = Math.round(g.crop.height);
  const x = Math.min(width - cw, Math.round(g.crop.x));
  const y = Math.min(height - ch, Math.round(g.crop.y));
  return `crop=${cw}:${ch}:${x}:${y},scale=${g.width}:${g.height}`;
}

async function benchClipCase(ctx: Context, fps: number, width: number, height: number, reframe: Reframe, name: string): Promise<RenderClipCase> {
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

async function benchClip(ctx: Context, fps: number, width: number, height: number): Promise<RenderClip> {
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
  const ctx: Context = { source: o.source.path, scratch, signal: ac.signal, log: o.log };
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
