/**
 * Section 18: our MP4 reader on real media and on the crafted files of its security review.
 *
 * - a real MP4 made by ffmpeg (30 minutes at 60 fps of a tiny picture with AAC audio: about
 *   190,000 samples, the tables of a long recording): the upload's movie check (box walk, data
 *   references, sample tables) through a local file, run in slices (ours) vs the same parse run at
 *   once (the obvious alternative): wall time and the longest time the event loop was held (the
 *   longest gap between the turns of a ticker on the loop);
 * - the crafted files (hostile-media.ts): time to the refusal, and the loop's longest hold.
 *
 * `npx tsx tools/bench/mp4-reader.ts` runs this section alone.
 */
import { bytesSource, checkMovieBoxes, MP4_LIMITS, Work, openFileSource, parseMovie, readMovieTables, runSliced, runToEnd } from '../../libs/ffmpeg/src/mp4';
import { makeSmallMp4, withDrefChain, withManyTracks, withStscWalk, withTwoMovies } from '../../libs/ffmpeg/src/testing/hostile-media';
import { runFfmpeg } from '@wordcut/ffmpeg';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH_DIR, MB, median, round } from './common';
import { plainTable as table, runAlone } from './report';

export interface Mp4ReaderPath {
  label: string;
  medianMs: number;
  /** longest event-loop hold during the runs, ms */
  maxLoopHoldMs: number;
}

export interface Mp4ReaderResults {
  file: { minutes: number; samples: number; moovMiB: number; sizeMiB: number };
  runs: number;
  paths: Mp4ReaderPath[];
  crafted: Array<{ label: string; sizeKiB: number; ms: number; maxLoopHoldMs: number; answer: string }>;
  sectionSec: number;
}

const MINUTES = 30;

async function longFile(log: (s: string) => void): Promise<string> {
  const path = join(BENCH_DIR, `mp4-reader-${MINUTES}min.mp4`);
  if (existsSync(path)) return path;
  mkdirSync(BENCH_DIR, { recursive: true });
  log(`  making a ${MINUTES}-minute 60 fps MP4 ...`);
  await runFfmpeg({
    timeoutMs: 600_000,
    args: [
      '-f', 'lavfi', '-i', `testsrc2=size=64x48:rate=60:duration=${MINUTES * 60}`,
      '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${MINUTES * 60}`,
      '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '120', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '32k', '-f', 'mp4', `file:${path}`,
    ],
  });
  return path;
}

/**
 * Runs `fn` while a ticker on the event loop (setImmediate after setImmediate) records the longest
 * gap between its turns: how long anything held the loop. Its time, that hold, and its value.
 */
async function measured(fn: () => Promise<unknown>): Promise<{ ms: number; holdMs: number; value: unknown }> {
  let last = performance.now();
  let hold = 0;
  let on = true;
  const tick = (): void => {
    const now = performance.now();
    hold = Math.max(hold, now - last);
    last = now;
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  const started = performance.now();
  const value = await fn();
  const ms = performance.now() - started;
  await new Promise((r) => setImmediate(r));
  on = false;
  tick();
  return { ms, holdMs: hold, value };
}

export async function benchMp4Reader(o: { runs: number; log: (s: string) => void }): Promise<Mp4ReaderResults> {
  const t0 = Date.now();
  const path = await longFile(o.log);
  const tables = await readMovieTables(path);
  const samples = tables.tracks.reduce((n, t) => n + t.count, 0);
  const bytes = readFileSync(path);
  const moovAt = bytes.lastIndexOf('moov') - 4;
  const moov = bytes.subarray(moovAt, moovAt + bytes.readUInt32BE(moovAt));

  const ours: number[] = [];
  const atOnce: number[] = [];
  let oursHold = 0;
  let atOnceHold = 0;
  for (let i = 0; i < o.runs + 1; i++) {
    const a = await measured(async () => {
      const src = await openFileSource(path);
      try {
        return await checkMovieBoxes(src);
      } finally {
        await src.close();
      }
    });
    const b = await measured(async () => {
      const work = new Work(MP4_LIMITS);
      return runToEnd(parseMovie(Buffer.from(moov), bytes.length, work), work);
    });
    if (i === 0) continue; // warm-up
    ours.push(a.ms);
    atOnce.push(b.ms);
    oursHold = Math.max(oursHold, a.holdMs);
    atOnceHold = Math.max(atOnceHold, b.holdMs);
  }
  // the same parse in slices, to show what slicing costs on its own
  const sliced = await measured(async () => {
    const work = new Work(MP4_LIMITS);
    return runSliced(parseMovie(Buffer.from(moov), bytes.length, work), work);
  });

  const small = join(BENCH_DIR, 'mp4-reader-small.mp4');
  if (!existsSync(small)) await makeSmallMp4(small);
  const mp4 = readFileSync(small);
  const craftedFiles: Array<[string, Buffer]> = [
    ['600 KB dref chain', withDrefChain(mp4, 600_000)],
    ['stsc 50,000 entries x 25,000 chunks', withStscWalk(mp4, 50_000, 25_000)],
    ['two movies', withTwoMovies(mp4)],
    ['60 tracks of 12M samples', withManyTracks(mp4, 60)],
  ];
  const crafted: Mp4ReaderResults['crafted'] = [];
  for (const [label, file] of craftedFiles) {
    const m = await measured(() => checkMovieBoxes(bytesSource(file)));
    const r = m.value as Awaited<ReturnType<typeof checkMovieBoxes>>;
    crafted.push({ label, sizeKiB: round(file.length / 1024), ms: round(m.ms), maxLoopHoldMs: round(m.holdMs), answer: r.ok ? 'accepted' : r.problem });
  }
  return {
    file: { minutes: MINUTES, samples, moovMiB: round(moov.length / MB, 2), sizeMiB: round(statSync(path).size / MB) },
    runs: o.runs,
    paths: [
      { label: 'ours: movie check, parsed in slices', medianMs: round(median(ours)), maxLoopHoldMs: round(oursHold) },
      { label: 'alternative: the same tables parsed at once', medianMs: round(median(atOnce)), maxLoopHoldMs: round(atOnceHold) },
      { label: 'the tables parsed in slices (one run)', medianMs: round(sliced.ms), maxLoopHoldMs: round(sliced.holdMs) },
    ],
    crafted,
    sectionSec: Math.round((Date.now() - t0) / 1000),
  };
}

export function renderMp4Reader(x: Mp4ReaderResults): string[] {
  return [
    `18. MP4 reader: a real ${x.file.minutes}-minute MP4 (${x.file.samples} samples, movie ${x.file.moovMiB} MiB, file ${x.file.sizeMiB} MiB), ${x.runs} runs after a warm-up`,
    table(['path', 'median ms', 'longest event-loop hold ms'], x.paths.map((p) => [p.label, p.medianMs, p.maxLoopHoldMs])),
    '   crafted files of the security review',
    table(['file', 'KiB', 'answer', 'ms', 'longest hold ms'], x.crafted.map((c) => [c.label, c.sizeKiB, c.answer, c.ms, c.maxLoopHoldMs])),
    `   section time ${x.sectionSec} s`,
  ];
}

if (require.main === module) {
  runAlone('mp4-reader', (log) => benchMp4Reader({ runs: 5, log }), renderMp4Reader);
}
