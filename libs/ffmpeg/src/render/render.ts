/**
 * Over 400 lines: the render's paths (smart cut, full re-encode) share their input descriptors and
 * work files; the planning around them is pure and lives in plan.ts, the audio track in
 * audio-track.ts, the output's composition in compose.ts and smart-compose.ts.
 */
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toFfmpegInput } from '../args';
import { MediaProbeError } from '../errors';
import { machineCpus } from '../cpus';
import { mediaInput, withInputOptions, workFileInput, type FfmpegInput } from '../input';
import { runFfmpeg } from '../run-ffmpeg';
import type { OutputVolumeRange } from './audio';
import { makeAudio, type MadeAudio } from './audio-track';
import { bytesFrom, compose, MAX_SOURCE_COPIES, writeComposition } from './compose';
import type { DiskCache } from './disk-cache';
import { readRenderMediaInfo, type RenderMediaInfo, type VideoTrackInfo } from './media-info';
import {
  planSmartPieces,
  planStats,
  segmentsToFrameRanges,
  type FrameRange,
  type PlannedPiece,
} from './plan';
import { composedAudio, copyRun, pieceRun, readSourceLayout } from './smart-compose';

export type RenderPath = 'smart' | 'copy-video' | 'reencode';

export interface RenderRequest {
  /** Local path of the original media (untrusted: read as MP4/MOV only, see mediaInput). */
  input: string;
  /** Local path of the MP4 to write. */
  output: string;
  /** Scratch directory owned by this render (the caller creates and removes it). */
  workDir: string;
  /** Kept source ranges in play order, seconds. */
  segments: ReadonlyArray<{ start: number; end: number }>;
  /** Gains on the output timeline (mutes). */
  volumes?: readonly OutputVolumeRange[];
  /** Extra video filter for a full re-encode (reframe for clips), applied after the cuts. */
  videoFilter?: string | null;
  /** ASS script to burn in (output timeline); forces a full re-encode. */
  assScript?: string | null;
  /** Force the full re-encode (what most tools do); used by the benchmark for comparison. */
  forceReencode?: boolean;
  signal?: AbortSignal;
  /** Called once the render knows its path, before it writes `output`. */
  onPath?: (path: RenderPath) => void;
  /** 0..100 over the whole render. */
  onProgress?: (percent: number, stage: string) => void;
  /** Media info read earlier (saves two ffprobe passes). */
  info?: RenderMediaInfo;
  /**
   * CPUs this render may use: parallel piece processes, or the encoder's threads in a full
   * re-encode. Default: the machine's (or its container's limit); a worker running several renders
   * at once gives each its share.
   */
  concurrency?: number;
  /** Per-ffmpeg timeout. Default 2 h. */
  timeoutMs?: number;
  /** Quality for re-encoded video (x264/x265 CRF). Default 18 for pieces, 20 for full re-encodes. */
  crf?: number;
  /**
   * Pieces made for earlier renders of the same source: `sourceId` must change whenever the
   * source's bytes do (its storage key and ETag), so a changed source never meets an old piece.
   */
  cache?: { store: Pick<DiskCache, 'take' | 'put'>; sourceId: string };
  /**
   * Full re-encodes: index (moov) first, so a player starts before it has the end (default). Off,
   * the output is written once, front to back, with its index last: it can be uploaded while it is
   * written. Smart renders always write their index first, in one pass (compose.ts).
   */
  faststart?: boolean;
}

const faststart = (req: RenderRequest): string[] => (req.faststart === false ? [] : ['-movflags', '+faststart']);

export interface RenderResult {
  path: RenderPath;
  /** Why the smart path was not taken (null when it was). */
  fallbackReason: string | null;
  /**
   * How audio was made: packets copied; copied with the packets around gains re-encoded
   * (spliced); or decoded, cut and encoded whole.
   */
  audio: 'none' | 'copy-packets' | 'spliced' | 'reencoded';
  /** Why gains could not be spliced into copied audio and the whole audio was encoded (else null). */
  audioFallbackReason: string | null;
  /** Spliced audio: regions re-encoded, packets replaced, and the measured fidelity outside the gains. */
  audioSplice?: { regions: number; replacedPackets: number; snrDb: number };
  totalFrames: number;
  encodedFrames: number;
  /** Share of output video frames re-encoded, 0..1. */
  encodedShare: number;
  outputDurationSec: number;
  /** Frame rate of the output (null when unknown). */
  fps: number | null;
  durationMs: number;
  /** Smart path: pieces taken from the cache, and pieces made by this render. */
  pieces?: { reused: number; made: number };
}

/**
 * What defines a piece's bytes beyond its source and range: bump it when the way pieces are made
 * changes, so pieces made the old way are never joined with new ones.
 */
const PIECE_RECIPE = 'piece-v4';

/** Re-encoded pieces may spend at most this multiple of the source's video bit rate (one second of buffer). */
const PIECE_RATE_HEADROOM = 1.5;

/** The least rate cap of re-encoded pieces, in bits per pixel per frame (720p30: 2.8 Mbit/s). */
const PIECE_MIN_BITS_PER_PIXEL = 0.1;

/**
 * Pieces one ffmpeg process makes at most: each holds a decoder and an encoder at once. On the noisy
 * 10-minute talk's 31 pieces, 12 per process peaked at 770 MiB of ffmpeg memory, 6 at 440 MiB in the
 * same time (docs/BENCHMARKS.md, section 17).
 */
const MAX_PIECES_PER_PROCESS = 6;


/**
 * Why `info` cannot take the smart path (stream-copy whole GOPs, re-encode partial ones), or null.
 * It needs H.264 or HEVC in MP4/MOV, 8-bit 4:2:0, constant frame rate, closed GOPs starting with
 * a keyframe, and no rotation (piece re-encodes must match the source exactly).
 */
export function smartRenderBlocker(info: RenderMediaInfo): string | null {
  const v = info.video;
  if (!v) return 'no video stream';
  if (!/mp4|mov/.test(info.formatName)) return `container ${info.formatName} is not MP4`;
  if (v.codec !== 'h264' && v.codec !== 'hevc') return `codec ${v.codec} is not H.264/HEVC`;
  if (v.pixFmt !== 'yuv420p' && v.pixFmt !== 'yuvj420p') return `pixel format ${v.pixFmt ?? 'unknown'} is not 8-bit 4:2:0`;
  if (v.frameTicks === null) return 'variable frame rate';
  if (!v.closedGops) return 'open GOPs';
  if (v.keyframes[0] !== 0) return 'the first frame is not a keyframe';
  if (v.rotation !== 0) return `rotated ${v.rotation}°`;
  if (/baseline/i.test(v.profile ?? '')) return 'baseline profile';
  return null;
}

function fpsOf(v: VideoTrackInfo): number | null {
  if (v.frameTicks === null) {
    if (v.framePts.length < 2) return null;
    const span = (v.framePts[v.framePts.length - 1]! - v.framePts[0]!) * (v.timeBase.num / v.timeBase.den);
    return span > 0 ? (v.framePts.length - 1) / span : null;
  }
  return v.timeBase.den / (v.frameTicks * v.timeBase.num);
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

const num9 = (n: number): string => n.toFixed(9);

/**
 * x264/x265 options so re-encoded pieces match the source's format (codec, profile, pixel format,
 * colour tags; parameter sets in-band). The preset only trades compression for speed: with the bit
 * rate capped near the source's, `ultrafast` with the deblocking filter kept encodes the cut points
 * 1.7x faster than `superfast` at an SSIM 0.005 lower on a noisy 720p talk (docs/BENCHMARKS.md).
 */
function pieceEncoderArgs(v: VideoTrackInfo, crf: number): string[] {
  const color: string[] = [];
  if (v.colorRange) color.push('-color_range', v.colorRange);
  if (v.colorSpace) color.push('-colorspace', v.colorSpace);
  if (v.colorPrimaries) color.push('-color_primaries', v.colorPrimaries);
  if (v.colorTransfer) color.push('-color_trc', v.colorTransfer);
  // No more bits than the source spends (with headroom): CRF alone spends several times the
  // source's rate on a noisy picture, which costs encode time and buys nothing the source had.
  // A floor keeps a very cheap source's pieces (a still slide, a test pattern) from starving.
  const fps = fpsOf(v) ?? 30;
  const cap = v.bitRate ? Math.round(Math.max(v.bitRate * PIECE_RATE_HEADROOM, PIECE_MIN_BITS_PER_PIXEL * v.width * v.height * fps)) : null;
  if (v.codec === 'hevc') {
    const vbv = cap ? `:vbv-maxrate=${Math.round(cap / 1000)}:vbv-bufsize=${Math.round(cap / 1000)}` : '';
    return ['-c:v', 'libx265', '-preset', 'ultrafast', '-crf', String(crf), '-x265-params', `log-level=error:repeat-headers=1:deblock=0,0${vbv}`, '-pix_fmt', v.pixFmt ?? 'yuv420p', ...color];
  }
  const profile = /main/i.test(v.profile ?? '') ? 'main' : 'high';
  return [
    '-c:v', 'libx264', '-preset', 'ultrafast', '-x264-params', 'deblock=1,0,0', '-crf', String(crf), ...(cap ? ['-maxrate', String(cap), '-bufsize', String(cap)] : []),
    '-profile:v', profile, '-pix_fmt', v.pixFmt ?? 'yuv420p', ...color,
  ];
}

/**
 * Renders kept source ranges (play order) with gains into an MP4, choosing the fastest exact way:
 * - smart: whole GOPs inside the kept ranges are copied as bytes of the original, the partial GOPs
 *   at each cut point re-encoded with the source's parameters, and the MP4 composed from both
 *   (compose.ts); audio packets are copied (kept in sync within one packet), with the packets
 *   around gains re-encoded and spliced in, or the whole audio encoded once where that cannot hold;
 * - copy-video: the same with nothing cut (only gains);
 * - reencode: one decode/encode pass (VFR, open GOPs, other codecs, reframing, burned captions).
 * Every path is frame-exact: a segment keeps frames round(start*fps) .. round(end*fps)-1.
 */
export async function renderEdit(req: RenderRequest): Promise<RenderResult> {
  const started = Date.now();
  const timeoutMs = req.timeoutMs ?? 2 * 3600_000;
  const source = mediaInput(req.input);
  const info = req.info ?? (await readRenderMediaInfo(source, { signal: req.signal }));
  const v = info.video;
  if (!v) throw new Error('the source has no video stream');
  const fps = fpsOf(v);
  if (!fps) throw new Error('the source frame rate is unknown');
  const frameCount = v.framePts.length;
  const ranges = segmentsToFrameRanges(req.segments, fps, frameCount);
  if (ranges.length === 0) throw new Error('nothing to render: the edit keeps no frames');
  const volumes = (req.volumes ?? []).filter((x) => x.end > x.start && x.volume !== 1);
  const totalFrames = ranges.reduce((n, r) => n + r.end - r.start, 0);
  const outputDurationSec = totalFrames / fps;
  const progress = req.onProgress ?? (() => undefined);

  const blocker = req.forceReencode
    ? 'full re-encode requested'
    : req.assScript
      ? 'burned captions'
      : req.videoFilter
        ? 'reframing'
        : smartRenderBlocker(info);
  const identity = ranges.length === 1 && ranges[0]!.start === 0 && ranges[0]!.end === frameCount;
  const audioMode: RenderResult['audio'] = !info.audio
    ? 'none'
    : // a full re-encode of a variable-rate source re-times the frames: its audio is re-timed too
      info.audio.codec === 'aac' && info.audio.packetTicks !== null && v.frameTicks !== null
      ? volumes.length === 0
        ? 'copy-packets'
        : 'spliced'
      : 'reencoded';
  const audioResult = (a: MadeAudio) => ({
    audio: a.mode,
    audioFallbackReason: a.fallbackReason,
    ...(a.splice ? { audioSplice: a.splice } : {}),
  });

  // The smart path composes the output from the original's samples: its tables must agree with
  // what ffprobe saw (else the full re-encode, which reads frames, not bytes).
  const layout = blocker === null ? await readSourceLayout(req.input, info) : null;
  const fallbackReason = typeof layout === 'string' ? layout : blocker;
  const base = { fallbackReason, totalFrames, outputDurationSec, fps } as const;
  req.onPath?.(layout === null || typeof layout === 'string' ? 'reencode' : identity ? 'copy-video' : 'smart');
  if (layout === null || typeof layout === 'string') {
    const made = await renderReencode(req, info, v, fps, ranges, volumes, audioMode, timeoutMs, progress);
    return {
      ...base,
      path: 'reencode',
      ...audioResult(made),
      encodedFrames: totalFrames,
      encodedShare: 1,
      durationMs: Date.now() - started,
    };
  }

  // Audio runs beside the video work (it is mostly one process on its own core).
  const audioTask = makeAudio({ req, info, fps, ranges, volumes, mode: audioMode, timeoutMs, adtsCacheKey: req.cache ? `${req.cache.sourceId}|${PIECE_RECIPE}|adts` : null });
  audioTask.catch(() => undefined);

  // The end of the file closes the last GOP, so a range running to the end copies it whole.
  const pieces = planSmartPieces(ranges, [...v.keyframes, frameCount], v.closedEnds ?? []);
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
  await makePieces(req, source, info, pieces, missing, files, crf, timeoutMs, progress);
  if (req.cache) for (const i of missing) await req.cache.store.put(pieceKey(pieces[i]!), files[i]!);

  const runs = await Promise.all(pieces.map((p, i) => (p.mode === 'copy' ? copyRun(layout, req.input, p) : pieceRun(files[i]!, p.end - p.start))));
  const madeAudio = await audioTask;
  progress(92, 'Joining pieces');
  const composition = compose(
    { track: layout.video, params: layout.params, frameTicks: v.frameTicks!, runs },
    await composedAudio(madeAudio, layout, req.input, info),
  );
  const sourceBytes = (await stat(req.input)).size;
  if (bytesFrom(composition, req.input) > MAX_SOURCE_COPIES * sourceBytes) {
    throw new MediaProbeError('UNSAFE_STRUCTURE', `the render would copy ${bytesFrom(composition, req.input)} bytes of a ${sourceBytes}-byte original`, 'the original');
  }
  await writeComposition(composition, req.output, {
    signal: req.signal,
    onBytes: (n) => progress(92 + (8 * n) / composition.size, 'Joining pieces'),
  });
  progress(100, 'Done');
  return {
    ...base,
    path: identity ? 'copy-video' : 'smart',
    ...audioResult(madeAudio),
    encodedFrames: stats.encodedFrames,
    encodedShare: stats.encodedShare,
    durationMs: Date.now() - started,
    pieces: { reused: encoded.length - missing.length, made: missing.length },
  };
}

/**
 * Re-encodes the pieces `todo` (indices into `pieces`) in a few ffmpeg processes, each with one
 * seeking input and one output per piece: a process per piece would pay ffmpeg's start-up and the
 * input's index parse every time (about 0.2 s, 40 % of a short piece). Batches are balanced by
 * frames, longest first, and run one per core.
 */
async function makePieces(
  req: RenderRequest,
  source: FfmpegInput,
  info: RenderMediaInfo,
  pieces: readonly PlannedPiece[],
  todo: readonly number[],
  files: readonly string[],
  crf: number,
  timeoutMs: number,
  progress: (p: number, stage: string) => void,
): Promise<void> {
  if (todo.length === 0) return;
  const v = info.video!;
  const tb = v.timeBase.num / v.timeBase.den;
  const firstPts = v.framePts[0]!;
  const secOf = (frame: number): number => (v.framePts[frame]! - firstPts) * tb + (firstPts * tb - info.startTime);
  const frameSec = v.frameTicks! * tb;
  const weights = pieces.map((p) => p.end - p.start);
  const totalWeight = todo.reduce((n, i) => n + weights[i]!, 0) || 1;
  const done = new Map<number, number>();
  const report = (): void => progress(Math.min(90, (90 * [...done.values()].reduce((a, b) => a + b, 0)) / totalWeight), 'Rendering cut points');
  const lanes = req.concurrency ?? machineCpus();
  // a whole number of rounds of `lanes` batches: a last round of fewer batches leaves cores idle
  const batchCount = Math.min(todo.length, lanes * Math.ceil(todo.length / (lanes * MAX_PIECES_PER_PROCESS)));
  const batches: number[][] = Array.from({ length: batchCount }, () => []);
  const batchWeight = new Array<number>(batchCount).fill(0);
  for (const i of [...todo].sort((a, b) => weights[b]! - weights[a]!)) {
    let lightest = 0;
    for (let b = 1; b < batchCount; b++) {
      if (batchWeight[b]! < batchWeight[lightest]! && batches[b]!.length < MAX_PIECES_PER_PROCESS) lightest = b;
    }
    if (batches[lightest]!.length >= MAX_PIECES_PER_PROCESS) lightest = batches.findIndex((x) => x.length < MAX_PIECES_PER_PROCESS);
    batches[lightest]!.push(i);
    batchWeight[lightest]! += weights[i]!;
  }
  await pool(batches.filter((b) => b.length > 0), lanes, async (batch) => {
    const inputs: FfmpegInput[] = [];
    const outputs: string[] = [];
    batch.forEach((i, k) => {
      const p: PlannedPiece = pieces[i]!;
      const frames = p.end - p.start;
      // one decoder thread: the batches already fill the cores, and frame threads each hold frames
      inputs.push(withInputOptions(source, '-threads', '1', '-ss', num9(Math.max(0, secOf(p.start) - frameSec / 2)), '-t', num9((frames + 2) * frameSec)));
      // one thread per encoder: with the rate cap, x264 is deterministic only on one thread (a
      // cached piece must equal a fresh one); the batches already run one per core
      // passthrough: the MP4 muxer's default (constant rate) would duplicate a frame that starts early
      outputs.push('-map', `${k}:v:0`, '-frames:v', String(frames), '-fps_mode', 'passthrough', ...pieceEncoderArgs(v, crf), '-threads', '1');
      outputs.push('-an', '-sn', '-dn', '-map_metadata', '-1', '-fflags', '+bitexact', '-f', 'mp4', toFfmpegInput(files[i]!));
    });
    const batchFrames = batch.reduce((n, i) => n + pieces[i]!.end - pieces[i]!.start, 0);
    const weight = batch.reduce((n, i) => n + weights[i]!, 0);
    const slot = batch[0]!;
    await runFfmpeg({
      inputs,
      args: outputs,
      timeoutMs,
      signal: req.signal,
      onProgress: (pr) => {
        // `frame` counts the first output's frames: scale it to the batch by its share of frames
        if (pr.frame !== null) {
          const first = pieces[slot]!.end - pieces[slot]!.start;
          done.set(slot, Math.min(1, (pr.frame / first) * (first / batchFrames)) * weight);
          report();
        }
      },
    });
    done.set(slot, weight);
    report();
  });
}

/**
 * One decode/encode pass: the video normalised to constant frame rate at the source's rate, the
 * kept frames selected (ascending ranges) or taken from one seeking input per range (reorders),
 * then the reframe filter and burned captions; the audio (copied packets, spliced gains, or cut at
 * exact samples and encoded: makeAudio) is made beside it and joined by copying.
 */
/** Inputs one full re-encode opens at most (each a decoder of the source). */
const MAX_REENCODE_INPUTS = 48;

/** The ranges split where one starts before the previous one ends: each run is read in order. */
export function ascendingRuns(ranges: readonly FrameRange[]): FrameRange[][] {
  const runs: FrameRange[][] = [];
  for (const r of ranges) {
    const run = runs[runs.length - 1];
    if (run && r.start >= run[run.length - 1]!.end) run.push(r);
    else runs.push([r]);
  }
  return runs;
}

async function renderReencode(
  req: RenderRequest,
  info: RenderMediaInfo,
  v: VideoTrackInfo,
  fps: number,
  ranges: readonly FrameRange[],
  volumes: readonly OutputVolumeRange[],
  audioMode: RenderResult['audio'],
  timeoutMs: number,
  progress: (p: number, stage: string) => void,
): Promise<MadeAudio> {
  const totalFrames = ranges.reduce((n, r) => n + r.end - r.start, 0);
  const fpsExpr = v.frameTicks !== null ? `${v.timeBase.den}/${v.frameTicks * v.timeBase.num}` : fps.toFixed(6);
  const post: string[] = [];
  if (req.videoFilter) post.push(req.videoFilter);
  // 4:2:0 H.264 needs even sizes: an odd source loses its last row/column (a no-op otherwise).
  post.push('crop=trunc(iw/2)*2:trunc(ih/2)*2:0:0');
  if (req.assScript) {
    const ass = join(req.workDir, 'captions.ass');
    await writeFile(ass, req.assScript);
    post.push(`ass=filename=${ass.replace(/[\\:',[\];]/g, (c) => `\\${c}`)}`);
  }
  post.push('format=yuv420p');
  const source = mediaInput(req.input);
  // One input per run of ranges in source order (seeking to its first kept frame and reading no
  // further than its last): a clip decodes its minute, and a reorder opens one input per block.
  const runs = ascendingRuns(ranges);
  if (runs.length > MAX_REENCODE_INPUTS) {
    throw new MediaProbeError('UNSAFE_STRUCTURE', `the edit places ${runs.length} parts of the video apart (at most ${MAX_REENCODE_INPUTS})`, 'the edit');
  }
  const inputs: FfmpegInput[] = runs.map((run) => {
    const first = run[0]!.start;
    const last = run[run.length - 1]!.end;
    return withInputOptions(source, ...(first > 0 ? ['-ss', num9(first / fps - 0.5 / fps)] : []), '-t', num9((last - first) / fps));
  });
  const picked = runs.map((run, i) => {
    const first = run[0]!.start;
    const sel = run.map((r) => `between(n,${r.start - first},${r.end - 1 - first})`).join('+');
    return `[${i}:v:0]fps=${fpsExpr},select='${sel}',setpts=N/FRAME_RATE/TB`;
  });
  const graph =
    runs.length === 1
      ? `${picked[0]!},${post.join(',')}[vout]`
      : `${picked.map((p, i) => `${p}[v${i}]`).join(';')};${runs.map((_, i) => `[v${i}]`).join('')}concat=n=${runs.length}:v=1:a=0,setpts=N/FRAME_RATE/TB,${post.join(',')}[vout]`;
  // The audio (decoded, cut at exact samples, gains applied, encoded) is made beside the video
  // encode, then the two are joined by copying: the encode does not wait for the audio first.
  const audioTask = info.audio ? makeAudio({ req, info, fps, ranges, volumes, mode: audioMode, timeoutMs, adtsCacheKey: req.cache ? `${req.cache.sourceId}|${PIECE_RECIPE}|adts` : null }) : null;
  audioTask?.catch(() => undefined);
  const graphFile = join(req.workDir, 'graph.txt');
  await writeFile(graphFile, graph);
  const videoOut = audioTask ? join(req.workDir, 'video-only.mp4') : req.output;
  await runFfmpeg({
    inputs,
    args: [
      '-filter_complex_script', graphFile,
      '-map', '[vout]',
      // veryfast with superfast's motion search: a third faster at the same SSIM (docs/BENCHMARKS.md)
      '-c:v', 'libx264', '-preset', 'veryfast', '-x264-params', 'me=dia:subme=1', '-crf', String(req.crf ?? 21), '-profile:v', 'high',
      '-threads', String(req.concurrency ?? machineCpus()),
      '-fps_mode', 'cfr', '-r', fpsExpr,
      '-max_muxing_queue_size', '4096', ...(audioTask ? [] : faststart(req)), '-f', 'mp4', toFfmpegInput(videoOut),
    ],
    timeoutMs,
    signal: req.signal,
    durationSec: totalFrames / fps,
    onProgress: (p) => p.percent !== null && progress(5 + p.percent * 0.9, 'Rendering'),
  });
  const made: MadeAudio = audioTask ? await audioTask : { input: null, mode: 'none', fallbackReason: null };
  if (audioTask) {
    const audio = made.input;
    progress(96, 'Joining audio and video');
    await runFfmpeg({
      inputs: [workFileInput(videoOut, 'mov'), ...(audio ? [audio] : [])],
      args: ['-map', '0:v:0', ...(audio ? ['-map', '1:a:0'] : []), '-c', 'copy', ...faststart(req), '-f', 'mp4', toFfmpegInput(req.output)],
      timeoutMs,
      signal: req.signal,
    });
  }
  progress(100, 'Done');
  return made;
}
