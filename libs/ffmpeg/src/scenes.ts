import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildFfmpegArgs, redactUrls } from './args';
import { MediaProbeError } from './errors';
import { mediaInput, withInputOptions, type FfmpegCommand, type FfmpegInput } from './input';
import { runProcess } from './process';
import { killedError, probeFailureReason } from './probe';

export const DEFAULT_SCENES_TIMEOUT_MS = 10 * 60_000;
/** A keyframe whose thumbnail differs from the previous keyframe's by more than this mean (per colour channel, of 255) starts a new scene. */
export const SCENE_CHANGE_MEAN_DIFFERENCE = 12;
/** The thumbnails compared: small enough to ignore noise and a speaker's gestures, big enough to see a slide change. */
export const SCENE_THUMB_WIDTH = 32;
export const SCENE_THUMB_HEIGHT = 18;

export interface DetectScenesOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  threshold?: number;
  /** where the thumbnails are written while ffmpeg runs (default: the system's temp directory) */
  workDir?: string;
  /** Default `ffmpeg` (PATH). */
  binary?: string;
}

/** Most scene changes kept (one every 2 s over 24 hours); more is noise, not a signal. */
const MAX_CHANGES = 43_200;

/**
 * The ffmpeg command behind detectSceneChanges: only keyframes are decoded (encoders put one at a
 * cut, and between them a talking head changes little), each becomes a 32x18 RGB thumbnail in
 * `thumbsPath`, and its timestamp a `framecrc` line on stdout, in the same order.
 */
export function sceneChangesCommand(input: FfmpegInput, thumbsPath: string): FfmpegCommand {
  return {
    inputs: [withInputOptions(input, '-skip_frame', 'nokey')],
    args: [
      '-filter_complex', `[0:v:0]scale=${SCENE_THUMB_WIDTH}:${SCENE_THUMB_HEIGHT},format=rgb24,split=2[times][thumbs]`,
      '-map', '[times]', '-fps_mode', 'passthrough', '-f', 'framecrc', 'pipe:1',
      '-map', '[thumbs]', '-fps_mode', 'passthrough', '-f', 'rawvideo', thumbsPath,
    ],
  };
}

/** Seconds of each frame of a `framecrc` listing (`#tb 0: num/den`, then `stream, dts, pts, …` lines). */
export function parseFramecrc(text: string): number[] {
  let num = 1;
  let den = 1;
  const out: number[] = [];
  for (const line of text.split('\n')) {
    const tb = /^#tb 0:\s*(\d+)\/(\d+)/.exec(line);
    if (tb) {
      num = Number(tb[1]);
      den = Number(tb[2]) || 1;
      continue;
    }
    if (line.startsWith('#') || line.trim() === '') continue;
    const fields = line.split(',');
    if (fields[0]?.trim() !== '0' || fields.length < 3) continue;
    const pts = Number(fields[2]);
    if (Number.isFinite(pts)) out.push(Math.round(((pts * num) / den) * 1000) / 1000);
  }
  return out;
}

/**
 * The times where consecutive thumbnails (`pixels` bytes each, in `times` order) differ by more
 * than `threshold` on average: the scene changes. A listing and thumbnails of different lengths
 * are paired as far as both go.
 */
export function sceneChangesFromThumbnails(times: readonly number[], thumbs: Uint8Array, pixels: number, threshold = SCENE_CHANGE_MEAN_DIFFERENCE): number[] {
  const count = Math.min(times.length, Math.floor(thumbs.length / pixels));
  const out: number[] = [];
  for (let k = 1; k < count && out.length < MAX_CHANGES; k++) {
    let sum = 0;
    const a = (k - 1) * pixels;
    const b = k * pixels;
    for (let p = 0; p < pixels; p++) sum += Math.abs(thumbs[a + p]! - thumbs[b + p]!);
    if (sum / pixels > threshold) out.push(times[k]!);
  }
  return out;
}

/**
 * The times (s) where the picture of media changes scene, from its keyframes. Untrusted media is
 * read as for peaks (mediaInput); not decodable media => MediaProbeError; no picture => none.
 */
export async function detectSceneChanges(input: FfmpegInput | string, o: DetectScenesOptions = {}): Promise<number[]> {
  const binary = o.binary ?? 'ffmpeg';
  const pinned = typeof input === 'string' ? mediaInput(input) : input;
  const dir = await mkdtemp(join(o.workDir ?? tmpdir(), 'wordcut-scenes-'));
  try {
    const thumbsPath = join(dir, 'thumbs.rgb');
    const command = sceneChangesCommand(pinned, thumbsPath);
    const args = buildFfmpegArgs(command.args, { inputs: command.inputs, logLevel: 'error', progress: false });
    const outcome = await runProcess({ binary, args, timeoutMs: o.timeoutMs ?? DEFAULT_SCENES_TIMEOUT_MS, signal: o.signal, maxStdoutBytes: 16 * 1024 * 1024, stderrTailBytes: 16 * 1024 });
    if (outcome.exitCode === 0) {
      const thumbs = new Uint8Array(await readFile(thumbsPath));
      return sceneChangesFromThumbnails(parseFramecrc(outcome.stdout.toString('utf8')), thumbs, SCENE_THUMB_WIDTH * SCENE_THUMB_HEIGHT * 3, o.threshold);
    }
    if (outcome.exitCode !== null) {
      if (/matches no streams|Stream specifier ':v:0'|does not contain any stream|Invalid stream specifier/i.test(outcome.stderrTail)) return [];
      const { code, reason } = probeFailureReason(outcome.stderrTail, pinned.url);
      throw new MediaProbeError(code, reason, redactUrls(typeof input === 'string' ? input : input.url));
    }
    throw killedError(binary, args, outcome);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
