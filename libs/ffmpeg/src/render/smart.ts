/**
 * The smart path: whole GOPs inside the kept ranges copied as bytes of the original, the partial
 * GOPs at each cut re-encoded with the source's parameters (taken from the cache when an earlier
 * render of this original made them), the audio made beside them, and the MP4 composed from all
 * of it (compose.ts) and written in one pass.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { MediaProbeError } from '../errors';
import { machineCpus } from '../cpus';
import { runFfmpeg } from '../run-ffmpeg';
import { makeAudio, type MadeAudio } from './audio-track';
import { pieceBatchCommand, pieceBatches, pieceEncoderArgs, PIECE_RECIPE } from './commands';
import { bytesFrom, compose, MAX_SOURCE_COPIES, writeComposition } from './compose';
import { planSmartPieces, planStats, type FrameRange, type PlannedPiece } from './plan';
import { composedAudio, copyRun, pieceRun, type SourceLayout } from './smart-compose';
import type { RenderJob } from './types';

export interface SmartResult {
  audio: MadeAudio;
  encodedFrames: number;
  encodedShare: number;
  pieces: { reused: number; made: number };
}

export async function renderSmart(job: RenderJob, layout: SourceLayout): Promise<SmartResult> {
  const { req, info, video: v, ranges, progress } = job;
  // Audio runs beside the video work (it is mostly one process on its own core).
  const audioTask = makeAudio({ req, info, clock: job.clock, ranges, volumes: job.volumes, mode: job.audioMode, timeoutMs: job.timeoutMs, adtsCacheKey: req.cache ? `${req.cache.sourceId}|${PIECE_RECIPE}|adts` : null });
  audioTask.catch(() => undefined);

  // The end of the file closes the last GOP, so a range running to the end copies it whole.
  const frameCount = v.framePts.length;
  const pieces = planSmartPieces(ranges, [...v.keyframes, frameCount], v.closedEnds ?? [], [...(v.leading ?? []), 0]);
  const stats = planStats(pieces);
  const crf = req.crf ?? 18;
  const encoded = pieces.flatMap((p, i) => (p.mode === 'encode' ? [i] : []));
  const files = pieces.map((_, i) => join(req.workDir, `piece-${String(i).padStart(5, '0')}.mp4`));
  const pieceKey = (p: PlannedPiece): string => `${req.cache!.sourceId}|${PIECE_RECIPE}|encode|${p.start}-${p.end}|${pieceEncoderArgs(v, crf).join(' ')}`;
  // Pieces of earlier renders of this source are taken as they are; only new ones are made.
  const missing: number[] = [];
  for (const i of encoded) {
    if (!(req.cache && (await req.cache.store.take(pieceKey(pieces[i]!), files[i]!)))) missing.push(i);
  }
  await makePieces(job, pieces, missing, files, crf);
  if (req.cache) for (const i of missing) await req.cache.store.put(pieceKey(pieces[i]!), files[i]!);

  const runs = await Promise.all(pieces.map((p, i) => (p.mode === 'copy' ? copyRun(layout, req.input, p) : pieceRun(files[i]!, p.end - p.start))));
  const audio = await audioTask;
  progress(92, 'Joining pieces');
  const composition = compose({ track: layout.video, params: layout.params, frameTimes: outputFrameTicks(ranges, job.ticks), runs }, await composedAudio(audio, layout, req.input, info));
  const sourceBytes = (await stat(req.input)).size;
  const copied = bytesFrom(composition, req.input);
  if (copied > MAX_SOURCE_COPIES * sourceBytes) {
    throw new MediaProbeError('UNSAFE_STRUCTURE', `the render would copy ${copied} bytes of a ${sourceBytes}-byte original`, 'the original');
  }
  await writeComposition(composition, req.output, { signal: req.signal, onBytes: (n) => progress(92 + (8 * n) / composition.size, 'Joining pieces') });
  progress(100, 'Done');
  return { audio, encodedFrames: stats.encodedFrames, encodedShare: stats.encodedShare, pieces: { reused: encoded.length - missing.length, made: missing.length } };
}

/**
 * When each output frame starts (ticks, display order) and where the last ends: the kept frames at
 * their source times, each range right after the one before, so every frame lasts what it did.
 */
export function outputFrameTicks(ranges: readonly FrameRange[], sourceTicks: ArrayLike<number>): Float64Array {
  const out = new Float64Array(ranges.reduce((n, r) => n + r.end - r.start, 0) + 1);
  let k = 0;
  let at = 0;
  for (const r of ranges) {
    const base = sourceTicks[r.start]!;
    for (let f = r.start; f < r.end; f++) out[k++] = at + sourceTicks[f]! - base;
    at += sourceTicks[r.end]! - base;
  }
  out[k] = at;
  return out;
}

/** Runs async tasks with at most `limit` in flight; the first failure aborts the rest. */
async function pool<T>(items: readonly T[], limit: number, run: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failed: unknown = null;
  const worker = async (): Promise<void> => {
    while (failed === null && next < items.length) {
      const i = next++;
      try {
        await run(items[i]!, i);
      } catch (e) {
        failed ??= e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failed !== null) throw failed;
}

/**
 * Re-encodes the pieces `todo` (indices into `pieces`) in a few ffmpeg processes, each with one
 * seeking input and one output per piece: a process per piece would pay ffmpeg's start-up and the
 * input's index parse every time (about 0.2 s, 40 % of a short piece). Batches are balanced by
 * frames, longest first, and run one per core.
 */
async function makePieces(job: RenderJob, pieces: readonly PlannedPiece[], todo: readonly number[], files: readonly string[], crf: number): Promise<void> {
  if (todo.length === 0) return;
  const { req, video: v, secOf, progress } = job;
  const weights = pieces.map((p) => p.end - p.start);
  const totalWeight = todo.reduce((n, i) => n + weights[i]!, 0) || 1;
  const done = new Map<number, number>();
  const report = (): void => progress(Math.min(90, (90 * [...done.values()].reduce((a, b) => a + b, 0)) / totalWeight), 'Rendering cut points');
  const lanes = req.concurrency ?? machineCpus();
  await pool(pieceBatches(weights, todo, lanes), lanes, async (batch) => {
    const batchFrames = batch.reduce((n, i) => n + weights[i]!, 0);
    const slot = batch[0]!;
    await runFfmpeg({
      ...pieceBatchCommand({ source: job.source, video: v, secOf, pieces, batch, files, crf }),
      timeoutMs: job.timeoutMs,
      signal: req.signal,
      onProgress: (pr) => {
        // `frame` counts the first output's frames: scale it to the batch by its share of frames
        if (pr.frame !== null) {
          const first = weights[slot]!;
          done.set(slot, Math.min(1, (pr.frame / first) * (first / batchFrames)) * batchFrames);
          report();
        }
      },
    });
    done.set(slot, batchFrames);
    report();
  });
}
