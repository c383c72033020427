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

interface Recipe {
  file: string;
  description: string;
  args: (out: string) => string[];
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
  args: (out) => [
    '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25:duration=64',
    '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=64',
    '-vf', 'noise=alls=30:allf=t',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '32M', '-maxrate', '32M', '-bufsize', '16M', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '128k',
    '-movflags', '+faststart', '-shortest', out,
  ],
};

/** The walking skeleton's test clip: 2 s of 320x240 H.264 + AAC (~60 KB), for the job round trips. */
export const TINY: Recipe = {
  file: 'tiny-320x240-25fps-2s.mp4',
  description: '320x240 25 fps H.264 + AAC, 2 s',
  timeoutMs: 60_000,
  args: (out) => [
    '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=2',
    '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-movflags', '+faststart', '-shortest', out,
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
    const forget = onCleanup(`partial ${partial}`, () => rmSync(partial, { force: true }));
    log(`generating ${recipe.file} (${recipe.description}) ...`);
    const t0 = performance.now();
    try {
      await tools.runFfmpeg({ args: recipe.args(partial), timeoutMs: recipe.timeoutMs });
      renameSync(partial, path);
    } finally {
      rmSync(partial, { force: true });
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
