/** The render benchmark's source, generated once and cached under BENCH_DIR like media.ts's recipes. */
import { mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { generateTimecodeMedia } from '../media/timecode-media';
import { BENCH_DIR, checkInterrupted, onCleanup } from './common';

/** The source: frames carry their own number and the audio a tone burst every 5 frames (timecode-media.ts). */
export const RENDER_SOURCE = {
  file: 'talk-timecode-1280x720-30fps-10min.mp4',
  description: '1280x720 30 fps H.264 (veryfast, 2 s GOPs, B-frames) + stereo 48 kHz AAC 128k, 10 min, numbered frames',
  options: { durationSec: 600, width: 1280, height: 720, fps: 30, gopFrames: 60 },
} as const;

export interface RenderSource {
  path: string;
  file: string;
  sizeBytes: number;
  description: string;
  /** Seconds spent generating it in this run (0 when it came from the cache). */
  generatedSec: number;
}

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
