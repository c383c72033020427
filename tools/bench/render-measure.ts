/**
 * Running and measuring the render benchmark's paths: a timed ffmpeg run, ours timed as the media
 * worker runs it, and the facts of an output (frames, stream durations, size).
 */
import {
  readRenderMediaInfo,
  renderEdit,
  runFfmpeg,
  toFfmpegInput,
  type RenderMediaInfo,
  type RenderRequest,
  type RenderResult,
} from '@wordcut/ffmpeg';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { checkInterrupted, round } from './common';

/** Per ffmpeg run; the full re-encode is the longest (about 3 minutes on 2 busy cores). */
const TIMEOUT_MS = 15 * 60_000;

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

export const RENDER_LABELS = {
  copy: 'floor: ffmpeg -c copy of the whole file (no cuts)',
  reencode: 'alternative: trim/atrim + concat, libx264 veryfast + aac',
  oursCuts: 'ours: renderEdit (smart: copy GOPs, re-encode cut GOPs)',
  audioOnly: 'alternative: encode the audio alone (-vn -c:a aac 128k)',
  oursMutes: 'ours: renderEdit (copy video, audio with gains)',
  plain: 'alternative: -ss -t -i, -vf crop,scale, libx264 veryfast + aac',
  oursClip: 'ours: renderEdit with planReframe filter',
} as const;

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

export interface OutputFacts {
  videoFrames: number | null;
  videoSec: number | null;
  audioSec: number | null;
  width: number | null;
  height: number | null;
}

/** Video packet count (every packet is one frame), stream durations and size of an output. */
export async function outputFacts(path: string): Promise<OutputFacts> {
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

export function pathRun(path: RenderPathRun['path'], label: string, seconds: number, outputSec: number, expectedFrames: number | null, facts: OutputFacts): RenderPathRun {
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

export interface RenderContext {
  source: string;
  scratch: string;
  signal: AbortSignal;
  log: (line: string) => void;
}

/** One plain ffmpeg run, timed (through runFfmpeg, as every ffmpeg here). */
export async function timedFfmpeg(ctx: RenderContext, args: string[]): Promise<number> {
  checkInterrupted();
  const t0 = performance.now();
  await runFfmpeg({ args, timeoutMs: TIMEOUT_MS, signal: ctx.signal });
  return (performance.now() - t0) / 1000;
}

/** Ours as the media worker runs it: media info, then renderEdit with it, in a fresh work dir. */
export async function timedOurs(ctx: RenderContext, req: Omit<RenderRequest, 'input' | 'workDir' | 'info' | 'signal'>): Promise<{ seconds: number; result: RenderResult; detail: OursDetail }> {
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

export function oursLine(d: OursDetail): string {
  const stages = Object.entries(d.stagesSec)
    .map(([stage, s]) => `${stage} @${s}`)
    .join(', ');
  return (
    `path=${d.renderPath} audio=${d.audio} encodedShare=${(d.encodedShare * 100).toFixed(1)}% (${d.encodedFrames}/${d.totalFrames} frames)` +
    `${d.fallbackReason ? ` fallback: ${d.fallbackReason}` : ''}; media info ${d.mediaInfoSec} s + renderEdit ${d.renderSec} s (${stages})`
  );
}
