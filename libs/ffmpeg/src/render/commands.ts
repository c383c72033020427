/**
 * Every ffmpeg command a render runs, built as data (inputs and argument arrays, filter graphs)
 * from the plan: pieces' encoder settings and batches, the full re-encode's graph, the join of its
 * audio and video. Pure: the paths (smart.ts, reencode.ts) run what these build.
 */
import { toFfmpegInput } from '../args';
import { withInputOptions, workFileInput, type FfmpegInput } from '../input';
import { fpsOf, isHighBitDepth } from './choose';
import type { VideoTrackInfo } from './media-info';
import type { FrameRange, PlannedPiece } from './plan';

/**
 * What defines a piece's bytes beyond its source and range: bump it when the way pieces are made
 * changes, so pieces made the old way are never joined with new ones.
 */
export const PIECE_RECIPE = 'piece-v4';

/** Re-encoded pieces may spend at most this multiple of the source's video bit rate (one second of buffer). */
const PIECE_RATE_HEADROOM = 1.5;

/** The least rate cap of re-encoded pieces, in bits per pixel per frame (720p30: 2.8 Mbit/s). */
const PIECE_MIN_BITS_PER_PIXEL = 0.1;

/**
 * Pieces one ffmpeg process makes at most: each holds a decoder and an encoder at once. On the noisy
 * 10-minute talk's 31 pieces, 12 per process peaked at 770 MiB of ffmpeg memory, 6 at 440 MiB in the
 * same time (docs/BENCHMARKS.md, section 17).
 */
export const MAX_PIECES_PER_PROCESS = 6;

/** Inputs one full re-encode opens at most (each a decoder of the source). */
export const MAX_REENCODE_INPUTS = 48;

export const num9 = (n: number): string => n.toFixed(9);

/** An ffmpeg command: its inputs and the arguments after them. */
export interface Command {
  inputs: FfmpegInput[];
  args: string[];
}

/**
 * x264/x265 options so re-encoded pieces match the source's format (codec, profile, pixel format,
 * colour tags; parameter sets in-band). The preset only trades compression for speed: with the bit
 * rate capped near the source's, `ultrafast` with the deblocking filter kept encodes the cut points
 * 1.7x faster than `superfast` at an SSIM 0.005 lower on a noisy 720p talk (docs/BENCHMARKS.md).
 */
export function pieceEncoderArgs(v: VideoTrackInfo, crf: number): string[] {
  const color = colorTagArgs(v);
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

/** The source's colour tags as encoder options (range, matrix, primaries, transfer: HLG and PQ kept). */
function colorTagArgs(v: VideoTrackInfo): string[] {
  const color: string[] = [];
  if (v.colorRange) color.push('-color_range', v.colorRange);
  if (v.colorSpace) color.push('-colorspace', v.colorSpace);
  if (v.colorPrimaries) color.push('-color_primaries', v.colorPrimaries);
  if (v.colorTransfer) color.push('-color_trc', v.colorTransfer);
  return color;
}

/**
 * The full re-encode's encoder: H.264 High for 8-bit sources; a source of more than 8 bits (10-bit
 * HDR) stays so, as HEVC Main 10 with its colour tags, never 8-bit still tagged HDR.
 */
export function fullEncoderArgs(v: VideoTrackInfo, crf: number, threads: number): { args: string[]; pixFmt: string } {
  if (isHighBitDepth(v)) {
    return {
      pixFmt: 'yuv420p10le',
      args: ['-c:v', 'libx265', '-preset', 'superfast', '-crf', String(crf + 2), '-x265-params', `log-level=error:pools=${threads}`, '-tag:v', 'hvc1', '-pix_fmt', 'yuv420p10le', ...colorTagArgs(v)],
    };
  }
  return {
    pixFmt: 'yuv420p',
    // veryfast with superfast's motion search: a third faster at the same SSIM (docs/BENCHMARKS.md)
    args: ['-c:v', 'libx264', '-preset', 'veryfast', '-x264-params', 'me=dia:subme=1', '-crf', String(crf), '-profile:v', 'high', '-threads', String(threads)],
  };
}

/**
 * The pieces `todo` (indices) in batches for `lanes` processes at once: a whole number of rounds
 * of `lanes` batches (a last round of fewer leaves cores idle), each at most MAX_PIECES_PER_PROCESS
 * pieces, balanced by weight (frames), heaviest first.
 */
export function pieceBatches(weights: readonly number[], todo: readonly number[], lanes: number): number[][] {
  if (todo.length === 0) return [];
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
  return batches.filter((b) => b.length > 0);
}

export interface PieceBatchRequest {
  source: FfmpegInput;
  video: VideoTrackInfo;
  /** Seconds from the source's start of each frame boundary as the plan numbers them (0..frame count). */
  secOf: (frame: number) => number;
  pieces: readonly PlannedPiece[];
  batch: readonly number[];
  files: readonly string[];
  crf: number;
}

/** One process making a batch of pieces: a seeking input and an exact-frame-count output per piece. */
export function pieceBatchCommand(o: PieceBatchRequest): Command {
  const inputs: FfmpegInput[] = [];
  const args: string[] = [];
  // a variable rate keeps its timestamps: the encoder counts in the source's time base, not 1/fps
  const tb = o.video.frameTicks === null ? ['-enc_time_base', `${o.video.timeBase.num}/${o.video.timeBase.den}`] : [];
  o.batch.forEach((i, k) => {
    const p = o.pieces[i]!;
    const frames = p.end - p.start;
    // from half a frame before the first (the seek lands on it whatever its timestamp's rounding)
    const interval = o.secOf(p.start + 1) - o.secOf(p.start);
    const before = p.start > 0 ? o.secOf(p.start) - o.secOf(p.start - 1) : interval;
    // one decoder thread: the batches already fill the cores, and frame threads each hold frames;
    // pictures as stored (the output keeps the source's display matrix)
    const reads = o.secOf(p.end) - o.secOf(p.start) + 2 * Math.max(interval, before);
    inputs.push(withInputOptions(o.source, '-noautorotate', '-threads', '1', '-ss', num9(Math.max(0, o.secOf(p.start) - before / 2)), '-t', num9(reads)));
    // one thread per encoder: with the rate cap, x264 is deterministic only on one thread (a
    // cached piece must equal a fresh one); the batches already run one per core
    // passthrough: the MP4 muxer's default (constant rate) would duplicate a frame that starts early
    args.push('-map', `${k}:v:0`, '-frames:v', String(frames), '-fps_mode', 'passthrough', ...tb, ...pieceEncoderArgs(o.video, o.crf), '-threads', '1');
    args.push('-an', '-sn', '-dn', '-map_metadata', '-1', '-fflags', '+bitexact', '-f', 'mp4', toFfmpegInput(o.files[i]!));
  });
  return { inputs, args };
}

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

/** An ASS file path escaped for a filter argument. */
const filterPath = (path: string): string => path.replace(/[\\:',[\];]/g, (c) => `\\${c}`);

export interface ReencodeRequest {
  source: FfmpegInput;
  video: VideoTrackInfo;
  /** Seconds from the source's start of each frame boundary (0..frame count). */
  secOf: (frame: number) => number;
  /** Ticks (the stream's time base) from the first frame of each frame boundary (0..frame count). */
  ticks: ArrayLike<number>;
  ranges: readonly FrameRange[];
  /** Reframe filter of a clip, after the cuts. */
  videoFilter?: string | null;
  /** A burned-in captions script's path. */
  assFile?: string | null;
  crf?: number;
  threads: number;
  /** Where the video goes, and the muxer's extra arguments (faststart). */
  output: string;
  muxArgs: readonly string[];
}

/**
 * The full re-encode's video: one input per run of ranges in source order (seeking to its first
 * kept frame and reading no further than its last: a clip decodes its minute, a reorder opens one
 * input per block), the kept frames selected and each given its output time (its source time, the
 * cuts before it taken out, after the runs before it), runs merged in time order, then the reframe
 * and the captions. Timestamps pass through in the source's time base, so a variable frame rate
 * stays as it is. Its filter graph goes in a script file (`graph`).
 */
export function reencodeCommand(o: ReencodeRequest): Command & { graph: string } {
  const v = o.video;
  const post: string[] = [];
  if (o.videoFilter) post.push(o.videoFilter);
  // 4:2:0 needs even sizes: an odd source loses its last row/column (a no-op otherwise).
  post.push('crop=trunc(iw/2)*2:trunc(ih/2)*2:0:0');
  if (o.assFile) post.push(`ass=filename=${filterPath(o.assFile)}`);
  const encoder = fullEncoderArgs(v, o.crf ?? 21, o.threads);
  post.push(`format=${encoder.pixFmt}`);
  const runs = ascendingRuns(o.ranges);
  if (runs.length > MAX_REENCODE_INPUTS) throw new RangeError(`the edit places ${runs.length} parts of the video apart (at most ${MAX_REENCODE_INPUTS})`);
  const inputs = runs.map((run) => {
    const first = run[0]!.start;
    const last = run[run.length - 1]!.end;
    const before = first > 0 ? o.secOf(first) - o.secOf(first - 1) : 0;
    return withInputOptions(o.source, ...(first > 0 ? ['-ss', num9(o.secOf(first) - before / 2)] : []), '-t', num9(o.secOf(last) - o.secOf(first)));
  });
  let outAt = 0;
  const picked = runs.map((run, i) => {
    const first = run[0]!.start;
    const sel = run.map((r) => `between(n,${r.start - first},${r.end - 1 - first})`).join('+');
    // the cut before each later range of the run is taken out from its first kept frame on
    const gaps: string[] = [];
    let kept = 0;
    run.forEach((r, j) => {
      if (j > 0) gaps.push(`gte(N,${kept})*${o.ticks[r.start]! - o.ticks[run[j - 1]!.end]!}`);
      kept += r.end - r.start;
    });
    const expr = `${outAt}+PTS-STARTPTS${gaps.length > 0 ? `-(${gaps.join('+')})` : ''}`;
    outAt += run.reduce((n, r) => n + o.ticks[r.end]! - o.ticks[r.start]!, 0);
    return `[${i}:v:0]select='${sel}',setpts='${expr}'`;
  });
  const graph =
    runs.length === 1
      ? `${picked[0]!},${post.join(',')}[vout]`
      : `${picked.map((p, i) => `${p}[v${i}]`).join(';')};${runs.map((_, i) => `[v${i}]`).join('')}interleave=nb_inputs=${runs.length},${post.join(',')}[vout]`;
  return {
    inputs,
    graph,
    args: [
      '-map', '[vout]',
      ...encoder.args,
      '-fps_mode', 'passthrough', '-enc_time_base', `${v.timeBase.num}/${v.timeBase.den}`,
      '-max_muxing_queue_size', '4096', ...o.muxArgs, '-f', 'mp4', toFfmpegInput(o.output),
    ],
  };
}

/**
 * The encoded video and its audio (when there is one) joined by copying into the output; audio
 * that starts `audioStartSec` late is placed there (the muxer writes the gap as an empty edit).
 */
export function joinCommand(video: string, audio: FfmpegInput | null, output: string, muxArgs: readonly string[], audioStartSec = 0): Command {
  const placed = audio && audioStartSec > 0 ? withInputOptions(audio, '-itsoffset', num9(audioStartSec)) : audio;
  return {
    inputs: [workFileInput(video, 'mov'), ...(placed ? [placed] : [])],
    args: ['-map', '0:v:0', ...(audio ? ['-map', '1:a:0'] : []), '-c', 'copy', ...muxArgs, '-f', 'mp4', toFfmpegInput(output)],
  };
}
