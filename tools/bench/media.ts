/** The benchmark's media, made by ffmpeg once and cached under .data/bench/ (reused when present). */
import type { ProbeResult } from '@wordcut/contracts';
import { FfmpegMediaTools } from '@wordcut/ffmpeg';
import { mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, onCleanup } from './common';

export interface BenchMedia {
  path: string;
  sizeBytes: number;
  description: string;
  /** Seconds spent generating it in this run (0 when it came from the cache). */
  generatedSec: number;
  probe: ProbeResult;
}

export interface Recipe {
  file: string;
  description: string;
  /** The ffmpeg runs that make the file, in order: the last writes `out`; `scratch` (.mp4) is free for a step between. */
  steps: (out: string, scratch: string) => string[][];
  /** Per step. */
  timeoutMs: number;
}

/**
 * ~256 MB: 64 s of 1280x720 25 fps H.264 (ultrafast, 32 Mbit/s; temporal noise on the test pattern so
 * that the encoder really spends the bitrate) + 48 kHz AAC, moov atom first (faststart).
 */
export const LARGE: Recipe = {
  file: 'large-1280x720-25fps-64s-32M.mp4',
  description: '1280x720 25 fps H.264 32 Mbit/s + AAC, 64 s, faststart',
  timeoutMs: 240_000,
  steps: (out) => [[
    '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25:duration=64',
    '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=64',
    '-vf', 'noise=alls=30:allf=t',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '32M', '-maxrate', '32M', '-bufsize', '16M', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '128k',
    '-movflags', '+faststart', '-shortest', out,
  ]],
};

/** Length of the LONG talk. */
export const LONG_TALK_SECONDS = 30 * 60;
const TALK_PIECE_SECONDS = 60;

/**
 * ~255 MB: a 30-minute talk-like video, 640x360 25 fps H.264 at 1 Mbit/s + 48 kHz stereo AAC 128k.
 * The sound is pink noise in bursts (about 4 a second) with pauses, so peaks vary like speech. Made
 * as one 60 s piece, then that piece looped 30 times with stream copy (encoding 30 minutes would
 * take minutes on 2 cores; the waveform decoder cannot tell).
 */
export const LONG: Recipe = {
  file: 'talk-640x360-25fps-30min.mp4',
  description: '640x360 25 fps H.264 1 Mbit/s + stereo 48 kHz AAC, 30 min talk-like (a 60 s piece looped)',
  timeoutMs: 120_000,
  steps: (out, piece) => [
    [
      '-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=25:duration=${TALK_PIECE_SECONDS}`,
      '-f', 'lavfi', '-i', `anoisesrc=color=pink:amplitude=0.5:sample_rate=48000:duration=${TALK_PIECE_SECONDS}`,
      '-filter_complex', "[1:a]volume='0.05+0.95*gt(sin(2*PI*t*4),0)*gt(sin(2*PI*t*0.31),-0.6)':eval=frame,aformat=channel_layouts=stereo[a]",
      '-map', '0:v', '-map', '[a]',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '1M', '-pix_fmt', 'yuv420p',
      '-c:a', 'aac', '-b:a', '128k', '-shortest', piece,
    ],
    ['-stream_loop', String(LONG_TALK_SECONDS / TALK_PIECE_SECONDS - 1), '-i', piece, '-c', 'copy', '-movflags', '+faststart', out],
  ],
};

export async function ensureMedia(recipe: Recipe, log: (line: string) => void): Promise<BenchMedia> {
  mkdirSync(BENCH_DIR, { recursive: true });
  const path = join(BENCH_DIR, recipe.file);
  const tools = new FfmpegMediaTools();
  let generatedSec = 0;
  if (!exists(path)) {
    // written under another name and renamed when complete: a cached file is always a whole one
    const partial = join(BENCH_DIR, `${recipe.file}.partial-${process.pid}.mp4`);
    const scratch = join(BENCH_DIR, `${recipe.file}.scratch-${process.pid}.mp4`);
    const remove = () => {
      rmSync(partial, { force: true });
      rmSync(scratch, { force: true });
    };
    const forget = onCleanup(`partial ${partial}`, remove);
    log(`generating ${recipe.file} (${recipe.description}) ...`);
    const t0 = performance.now();
    try {
      for (const args of recipe.steps(partial, scratch)) await tools.runFfmpeg({ args, timeoutMs: recipe.timeoutMs });
      renameSync(partial, path);
    } finally {
      remove();
      forget();
    }
    generatedSec = (performance.now() - t0) / 1000;
  }
  const probe = await tools.probe(path);
  return { path, sizeBytes: statSync(path).size, description: recipe.description, generatedSec, probe };
}

function exists(path: string): boolean {
  try {
    return statSync(path).size > 0;
  } catch {
    return false;
  }
}
