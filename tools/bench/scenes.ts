/**
 * Part of section 13: the scene changes key moments read for Visual, on a 10-minute 1280x720 talk
 * with slides: a small moving picture (the speaker) on a still background, and a slide that changes
 * every 20 s (29 changes), encoded by x264 with its default keyframe placement (veryfast, keyint 250,
 * scene-cut detection on), as a screen recorder would; a 60 s piece looped 10 times with stream copy.
 *
 * - ours: `detectSceneChanges` (keyframes only, 32x18 colour thumbnails compared);
 * - alternative: the obvious command, every frame decoded and ffmpeg's own scene score
 *   (`select='gt(scene,0.3)'` on a 160-pixel-wide copy).
 * Each path's time and the changes it found within 1 s of the 29 true ones.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { detectSceneChanges, parseFramecrc, runFfmpeg } from '@wordcut/ffmpeg';
import { checkInterrupted, median, round } from './common';
import { ensureMedia, type Recipe } from './media';
import { plainTable as table } from './report';

const PIECE_SECONDS = 60;
const SLIDE_SECONDS = 20;

export const SLIDES_TALK: Recipe = {
  file: 'slides-1280x720-25fps-10min.mp4',
  description: '1280x720 25 fps H.264 (x264 veryfast, default keyframes) + AAC, 10 min talk with a slide change every 20 s (a 60 s piece looped)',
  timeoutMs: 300_000,
  steps: (out, piece) => [
    [
      '-f', 'lavfi', '-i', `color=c=0x303840:s=1280x720:r=25:d=${PIECE_SECONDS}`,
      '-f', 'lavfi', '-i', `testsrc2=s=320x180:r=25:d=${PIECE_SECONDS}`,
      '-f', 'lavfi', '-i', `sine=frequency=220:sample_rate=48000:duration=${PIECE_SECONDS}`,
      '-filter_complex',
      [
        '[0:v]',
        `drawbox=x=80:y=80:w=760:h=480:color=0xc04040:t=fill:enable='lt(t,${SLIDE_SECONDS})',`,
        `drawbox=x=80:y=80:w=760:h=480:color=0x40a060:t=fill:enable='between(t,${SLIDE_SECONDS},${2 * SLIDE_SECONDS})',`,
        `drawbox=x=80:y=80:w=760:h=480:color=0xe0e0e0:t=fill:enable='gte(t,${2 * SLIDE_SECONDS})'[bg];`,
        '[bg][1:v]overlay=x=920:y=500,format=yuv420p[v]',
      ].join(''),
      '-map', '[v]', '-map', '2:a', '-c:v', 'libx264', '-preset', 'veryfast', '-c:a', 'aac', '-b:a', '96k', '-movflags', '+faststart', piece,
    ],
    ['-stream_loop', '9', '-i', piece, '-c', 'copy', '-movflags', '+faststart', out],
  ],
};

export interface ScenesPath {
  label: string;
  medianSec: number;
  found: number;
  /** true changes found within 1 s */
  hits: number;
}

export interface ScenesResults {
  media: string;
  durationSec: number;
  truth: number;
  runs: number;
  ours: ScenesPath;
  fullDecode: ScenesPath;
}

/** Times of the frames `select='gt(scene,0.3)'` keeps, every frame decoded (the obvious command). */
async function fullDecodeScenes(path: string): Promise<number[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-scenes-'));
  try {
    const listing = join(dir, 'scenes.crc');
    await runFfmpeg({ timeoutMs: 900_000, args: ['-i', path, '-map', '0:v:0', '-an', '-vf', 'scale=160:-2,select=gt(scene\\,0.3)', '-fps_mode', 'passthrough', '-f', 'framecrc', listing] });
    return parseFramecrc(await readFile(listing, 'utf8'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchScenes(o: { runs: number; log: (line: string) => void }): Promise<ScenesResults> {
  const media = await ensureMedia(SLIDES_TALK, o.log);
  const durationSec = media.probe.durationSec ?? 600;
  const truth = Array.from({ length: Math.floor(durationSec / SLIDE_SECONDS) - 1 }, (_, k) => (k + 1) * SLIDE_SECONDS);
  const hitsOf = (found: number[]) => truth.filter((t) => found.some((f) => Math.abs(f - t) <= 1)).length;
  const time = async (run: () => Promise<number[]>): Promise<{ sec: number; found: number[] }> => {
    checkInterrupted();
    const t0 = performance.now();
    const found = await run();
    return { sec: (performance.now() - t0) / 1000, found };
  };
  const ours: Array<{ sec: number; found: number[] }> = [];
  const full: Array<{ sec: number; found: number[] }> = [];
  for (let k = 0; k < o.runs; k++) {
    ours.push(await time(() => detectSceneChanges(media.path, { timeoutMs: 900_000 })));
    full.push(await time(() => fullDecodeScenes(media.path)));
  }
  const path = (label: string, runs: Array<{ sec: number; found: number[] }>): ScenesPath => ({
    label,
    medianSec: round(median(runs.map((r) => r.sec)), 2),
    found: runs[0]!.found.length,
    hits: hitsOf(runs[0]!.found),
  });
  return {
    media: SLIDES_TALK.file,
    durationSec: round(durationSec, 1),
    truth: truth.length,
    runs: o.runs,
    ours: path('ours: keyframes only, 32x18 thumbnails compared', ours),
    fullDecode: path("every frame decoded, ffmpeg's scene score > 0.3", full),
  };
}

export function renderScenes(r: ScenesResults): string[] {
  return [
    `   scene changes of ${r.media} (${Math.round(r.durationSec / 60)} min, ${r.truth} slide changes), ${r.runs} runs per path`,
    table(
      ['path', 'median s', 'changes found', `true ones found (of ${r.truth})`],
      [r.ours, r.fullDecode].map((p) => [p.label, p.medianSec, p.found, p.hits]),
    ),
    `  => ours takes ${round(r.ours.medianSec / r.fullDecode.medianSec, 3)}x the time of decoding every frame`,
  ];
}
