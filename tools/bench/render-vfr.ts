/**
 * Section 19: a variable frame rate costs what a constant one does. A 30-minute 1920x1080 phone-like
 * file at a variable rate (30 fps, then 20 fps, jittered, a dropped frame: timecode-vfr.ts) and a
 * constant 30 fps file of the same length and size, each cut 20 times at the renderer (renderEdit,
 * cold cache, as the 60-minute measurement of section 17), both through the smart path; the VFR
 * render also checked to keep every kept frame at its source time.
 */
import { DiskCache, readRenderMediaInfo, renderEdit } from '@wordcut/ffmpeg';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTimecodeMedia, generateVfrTimecodeMedia } from '../media/timecode-media';
import { BENCH_DIR, MB, checkInterrupted, onCleanup, round } from './common';
import { keptSpans, planCuts } from './render-plans';

const MINUTES = 30;
const GOP = 30;
const SIZE = { width: 1920, height: 1080 };

export interface VfrRenderResults {
  minutes: number;
  sources: Array<{ kind: 'vfr' | 'cfr'; file: string; sizeMiB: number; frames: number; generatedSec: number }>;
  renders: Array<{ kind: 'vfr' | 'cfr'; path: string; seconds: number; encodedFrames: number; outputSec: number }>;
  /** VFR render time / CFR render time (target <= 2). */
  ratio: number;
}

async function ensureSource(kind: 'vfr' | 'cfr', log: (line: string) => void): Promise<{ path: string; generatedSec: number }> {
  mkdirSync(BENCH_DIR, { recursive: true });
  const path = join(BENCH_DIR, `phone-${kind}-1080p-${MINUTES}min.mp4`);
  if (existsSync(path) && statSync(path).size > 0) return { path, generatedSec: 0 };
  checkInterrupted();
  const partial = `${path}.partial-${process.pid}.mp4`;
  const forget = onCleanup(`partial ${partial}`, () => rmSync(partial, { force: true }));
  log(`  19: generating the ${MINUTES}-minute 1080p ${kind.toUpperCase()} source (a few minutes on 2 cores) ...`);
  const t0 = performance.now();
  try {
    if (kind === 'vfr') await generateVfrTimecodeMedia(partial, { durationSec: MINUTES * 60, gopFrames: GOP, ...SIZE });
    else await generateTimecodeMedia(partial, { durationSec: MINUTES * 60, fps: 30, gopFrames: GOP, ...SIZE });
    renameSync(partial, path);
  } finally {
    rmSync(partial, { force: true });
    forget();
  }
  return { path, generatedSec: (performance.now() - t0) / 1000 };
}

export async function benchVfrRender(o: { log: (line: string) => void }): Promise<VfrRenderResults> {
  const sources: VfrRenderResults['sources'] = [];
  const renders: VfrRenderResults['renders'] = [];
  for (const kind of ['cfr', 'vfr'] as const) {
    const src = await ensureSource(kind, o.log);
    const info = await readRenderMediaInfo(src.path);
    const v = info.video!;
    const n = v.framePts.length;
    sources.push({ kind, file: src.path, sizeMiB: round(statSync(src.path).size / MB), frames: n, generatedSec: round(src.generatedSec) });
    // the same 20 cuts by frame, as seconds on the source's own clock
    const tb = v.timeBase.num / v.timeBase.den;
    const at = (f: number) => (f < n ? (v.framePts[f]! - v.framePts[0]!) * tb : (v.framePts[n - 1]! - v.framePts[0]!) * tb + 0.05);
    const segments = keptSpans(planCuts(n, 20, GOP), n).map((k) => ({ start: at(k.start), end: at(k.end) }));
    const work = await mkdtemp(join(tmpdir(), `wordcut-bench-${kind}-`));
    try {
      const cache = new DiskCache({ dir: join(work, 'cache'), maxBytes: 10 * 1024 ** 3, maxAgeMs: 3600_000 });
      o.log(`  19: ${kind.toUpperCase()}, 20 cuts at the renderer ...`);
      const t = performance.now();
      const r = await renderEdit({ input: src.path, output: join(work, 'out.mp4'), workDir: work, info, segments, cache: { store: cache, sourceId: `bench-${kind}` } });
      renders.push({ kind, path: r.path, seconds: round((performance.now() - t) / 1000, 2), encodedFrames: r.encodedFrames, outputSec: round(r.outputDurationSec, 3) });
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }
  const [cfr, vfr] = renders as [VfrRenderResults['renders'][number], VfrRenderResults['renders'][number]];
  return { minutes: MINUTES, sources, renders, ratio: round(vfr.seconds / cfr.seconds, 2) };
}

export function renderVfrRender(x: VfrRenderResults): string[] {
  return [
    `19. Variable frame rate, ${x.minutes}-minute 1080p, 20 cuts at the renderer (cold cache)`,
    ...x.renders.map((r) => {
      const s = x.sources.find((q) => q.kind === r.kind)!;
      return `    ${r.kind.toUpperCase()}: ${s.frames} frames, ${s.sizeMiB} MiB -> ${r.path} in ${r.seconds} s (${r.encodedFrames} frames re-encoded, ${r.outputSec} s out)`;
    }),
    `    VFR / CFR time: ${x.ratio}x (target <= 2)`,
  ];
}
