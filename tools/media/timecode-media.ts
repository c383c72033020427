/**
 * Over 400 lines: the generator and its verifiers share the timecode's layout and must change together.
 *
 * Test media that carries its own clock, and the verifier that reads it back.
 *
 * Every video frame shows its own index N as 16 binary blocks across the top half of the picture
 * (block b is white when bit b of N is set; the bottom half is grey), and the audio is silence with
 * a 10 ms 1 kHz tone burst starting exactly at the start of every 5th frame. After an edit (cut,
 * reorder, mute) the decoded frame indices say which source frames a render shows, in which order,
 * and the burst onsets say where the audio of those frames landed, so integration tests can prove
 * frame-accurate cuts and A/V sync without trusting container timestamps.
 *
 * ffmpeg runs only through `runFfmpeg` (its stdout carries `-progress`), so raw frames and samples
 * go through temp files.
 */
import { runFfmpeg, toFfmpegInput } from '@wordcut/ffmpeg';
import { execFile } from 'node:child_process';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';

/** Bits of the frame index drawn per frame: indices wrap after 65536 frames (36 min at 30 fps). */
export const TIMECODE_BITS = 16;
/** A tone burst starts at every frame whose index is a multiple of this. */
export const BURST_EVERY_FRAMES = 5;
export const BURST_FREQUENCY_HZ = 1000;
export const BURST_DURATION_SEC = 0.01;
export const BURST_AMPLITUDE = 0.8;
/** The layout the verifier scales every frame to before reading the blocks (the generator's default size). */
export const TIMECODE_LAYOUT = { width: 320, height: 180 } as const;
/** Audio is analysed as mono 16-bit at this rate, whatever the file carries. */
export const ANALYSIS_SAMPLE_RATE = 48_000;

const generateOptionsSchema = z.object({
  durationSec: z.number().positive().finite(),
  fps: z.number().positive().max(240).default(30),
  width: z.number().int().min(TIMECODE_BITS * 2).max(7680).default(320),
  height: z.number().int().min(16).max(4320).default(180),
  gopFrames: z.number().int().positive().default(60),
  codec: z.enum(['h264', 'hevc']).default('h264'),
  bFrames: z.boolean().default(true),
  openGop: z.boolean().default(false),
  audio: z.boolean().default(true),
  sampleRate: z.number().int().min(8000).max(192_000).default(48_000),
  container: z.enum(['mp4', 'mkv']).optional(),
  noise: z.number().min(0).max(40).default(0),
  timeoutMs: z.number().int().positive().optional(),
});

export interface TimecodeMediaOptions {
  durationSec: number;
  /** Default 30. */
  fps?: number;
  /** Default 320 (even numbers only: yuv420p). */
  width?: number;
  /** Default 180. */
  height?: number;
  /** Keyframe interval in frames (fixed, no scene-cut keyframes). Default 60. */
  gopFrames?: number;
  /** Default h264 (libx264); hevc uses libx265 (tagged hvc1 in mp4). */
  codec?: 'h264' | 'hevc';
  /** Default true (the encoder's default B-frames); false disables B-frames. */
  bFrames?: boolean;
  /** Default false: closed GOPs (x265's own default is open GOPs, which the smart render refuses). */
  openGop?: boolean;
  /** Default true: AAC 128k stereo with the tone bursts. */
  audio?: boolean;
  /** Default 48000. */
  sampleRate?: number;
  /** Default: mkv when outPath ends in .mkv, else mp4. */
  container?: 'mp4' | 'mkv';
  /** Temporal noise strength over the picture, as a camera's (0: none; 9 makes 720p about 6.5 Mbit/s). */
  noise?: number;
  /** Default 60 s + 2 s per second of media. */
  timeoutMs?: number;
}

/** Formats a number for a filter expression without exponent notation. */
function num(x: number): string {
  const s = String(x);
  return /e/i.test(s) ? x.toFixed(12) : s;
}

/** Luma of a set bit, a clear bit and the bottom half (limited range: black 16, white 235). */
const LUMA_ONE = 235;
const LUMA_ZERO = 16;
const LUMA_GREY = 128;

/**
 * The pattern of `frames` frames at the smallest size that holds it: raw yuv420p 16x2, one luma
 * pixel per bit in the top row, a grey bottom row, neutral chroma. Scaling it up with
 * nearest-neighbour gives blocks of width/16 across the top half and a grey bottom half, at any size
 * and far faster than drawing every pixel with `geq` (which manages ~170 fps even at 320x180).
 */
export function timecodePattern(frames: number): Buffer {
  const frameBytes = TIMECODE_BITS * 2 + (TIMECODE_BITS / 2) * 2;
  const buf = Buffer.alloc(frames * frameBytes, LUMA_GREY);
  for (let n = 0; n < frames; n++) {
    for (let bit = 0; bit < TIMECODE_BITS; bit++) buf[n * frameBytes + bit] = (n >> bit) & 1 ? LUMA_ONE : LUMA_ZERO;
  }
  return buf;
}

/**
 * lavfi source of the tone bursts: burst k starts at sample ceil(k * 5 * rate / fps), i.e. at the
 * first sample at or after the start time of frame 5k, and starts at sine phase 0.
 */
export function timecodeAudioFilter(sampleRate: number, fps: number, durationSec: number): string {
  const period = (BURST_EVERY_FRAMES * sampleRate) / fps;
  const burst = BURST_DURATION_SEC * sampleRate;
  const phase = `mod(n,${num(period)})`;
  const expr = `${BURST_AMPLITUDE}*sin(2*PI*${BURST_FREQUENCY_HZ}*${phase}/s)*lt(${phase},${num(burst)})`;
  return `aevalsrc=exprs='${expr}':s=${sampleRate}:c=stereo:d=${num(durationSec)}`;
}

/**
 * Writes a clip whose frames and audio encode their own timestamps to `outPath`
 * (round(durationSec * fps) frames, frame N at N / fps).
 */
export async function generateTimecodeMedia(outPath: string, options: TimecodeMediaOptions): Promise<void> {
  const o = generateOptionsSchema.parse(options);
  if (o.width % 2 || o.height % 2) throw new Error(`width and height must be even (yuv420p): ${o.width}x${o.height}`);
  const frames = Math.round(o.durationSec * o.fps);
  if (frames < 1) throw new Error(`durationSec ${o.durationSec} at ${o.fps} fps makes no frame`);
  if (frames > 2 ** TIMECODE_BITS) throw new Error(`${frames} frames do not fit in ${TIMECODE_BITS} bits`);
  const container = o.container ?? (extname(outPath).toLowerCase() === '.mkv' ? 'mkv' : 'mp4');
  const videoSec = frames / o.fps;

  const video =
    o.codec === 'h264'
      ? [
          '-c:v', 'libx264', '-preset', 'veryfast',
          '-g', String(o.gopFrames), '-keyint_min', String(o.gopFrames), '-sc_threshold', '0',
          ...(o.bFrames ? [] : ['-bf', '0']),
          ...(o.openGop ? ['-x264-params', 'open-gop=1'] : []),
        ]
      : [
          '-c:v', 'libx265', '-preset', 'veryfast',
          '-x265-params',
          [
            `keyint=${o.gopFrames}`, `min-keyint=${o.gopFrames}`, 'scenecut=0', 'log-level=error', `open-gop=${o.openGop ? 1 : 0}`,
            ...(o.bFrames ? [] : ['bframes=0']),
          ].join(':'),
          ...(container === 'mp4' ? ['-tag:v', 'hvc1'] : []),
        ];
  const audioIn = o.audio ? ['-f', 'lavfi', '-i', timecodeAudioFilter(o.sampleRate, o.fps, videoSec)] : [];
  const audioOut = o.audio ? ['-map', '1:a', '-c:a', 'aac', '-b:a', '128k', '-ac', '2', '-ar', String(o.sampleRate)] : ['-an'];
  const muxer = container === 'mp4' ? ['-movflags', '+faststart', '-f', 'mp4'] : ['-f', 'matroska'];

  await withTempDir(async (dir) => {
    const pattern = join(dir, 'pattern.yuv');
    await writeFile(pattern, timecodePattern(frames));
    await runFfmpeg({
      timeoutMs: o.timeoutMs ?? 60_000 + videoSec * 2_000,
      args: [
        '-f', 'rawvideo', '-pixel_format', 'yuv420p', '-video_size', `${TIMECODE_BITS}x2`, '-framerate', num(o.fps),
        '-i', toFfmpegInput(pattern),
        ...audioIn,
        '-map', '0:v', '-vf', `scale=${o.width}:${o.height}:flags=neighbor,setsar=1${o.noise > 0 ? `,noise=alls=${o.noise}:allf=t` : ''}`,
        ...video, '-pix_fmt', 'yuv420p',
        ...audioOut,
        ...muxer, toFfmpegInput(outPath),
      ],
    });
  });
}

/** Runs `fn` with a fresh temp dir that is removed afterwards. */
async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'wordcut-timecode-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface ReadFramesOptions {
  /** The grid every frame is scaled to (nearest-neighbour) before reading. Default TIMECODE_LAYOUT. */
  width?: number;
  height?: number;
  timeoutMs?: number;
}

/**
 * Decoded frame index of every displayed frame of the first video stream, in display order.
 * Each frame is scaled to the layout grid (so renders at any size can be read, as long as the
 * picture is the full frame: no crop, no letterbox), and each block is read as the mean luma of a
 * patch around its centre, thresholded at 128.
 */
export async function readFrameNumbers(path: string, options: ReadFramesOptions = {}): Promise<number[]> {
  const width = options.width ?? TIMECODE_LAYOUT.width;
  const height = options.height ?? TIMECODE_LAYOUT.height;
  if (width < TIMECODE_BITS * 4 || height < 12) throw new Error(`layout ${width}x${height} is too small to read`);
  // Only a band through the middle of the top half is read: 1/6 .. 2/6 of the height.
  const bandTop = Math.floor(height / 6);
  const bandRows = Math.max(1, Math.floor(height / 6));
  return withTempDir(async (dir) => {
    const raw = join(dir, 'frames.gray');
    await runFfmpeg({
      timeoutMs: options.timeoutMs ?? 600_000,
      args: [
        '-i', toFfmpegInput(path),
        '-map', '0:v:0', '-an', '-sn', '-dn',
        // One output frame per decoded frame: no duplication or dropping by the muxer's frame rate.
        '-fps_mode', 'passthrough',
        '-vf', `scale=${width}:${height}:flags=neighbor,format=gray,crop=${width}:${bandRows}:0:${bandTop}`,
        '-f', 'rawvideo', '-pix_fmt', 'gray', toFfmpegInput(raw),
      ],
    });
    return readBands(raw, width, bandRows);
  });
}

/** Reads the raw band file frame by frame (a long render would not fit one Buffer comfortably). */
async function readBands(raw: string, width: number, rows: number): Promise<number[]> {
  const frameBytes = width * rows;
  const blockW = width / TIMECODE_BITS;
  // Middle 40 % of each block: clear of the ringing next to block edges.
  const xs = Array.from({ length: TIMECODE_BITS }, (_, b) => [Math.ceil(blockW * (b + 0.3)), Math.floor(blockW * (b + 0.7))] as const);
  const out: number[] = [];
  const file = await open(raw, 'r');
  try {
    const chunk = Buffer.alloc(frameBytes * Math.max(1, Math.floor((4 << 20) / frameBytes)));
    let filled = 0;
    for (;;) {
      const { bytesRead } = await file.read(chunk, filled, chunk.length - filled);
      filled += bytesRead;
      const whole = Math.floor(filled / frameBytes);
      for (let f = 0; f < whole; f++) out.push(decodeBand(chunk, f * frameBytes, width, rows, xs));
      chunk.copy(chunk, 0, whole * frameBytes, filled);
      filled -= whole * frameBytes;
      if (bytesRead === 0) break;
    }
    if (filled !== 0) throw new Error(`raw frame file ends with a partial frame (${filled} of ${frameBytes} bytes)`);
  } finally {
    await file.close();
  }
  return out;
}

function decodeBand(buf: Buffer, offset: number, width: number, rows: number, xs: ReadonlyArray<readonly [number, number]>): number {
  let n = 0;
  xs.forEach(([x0, x1], bit) => {
    let sum = 0;
    let count = 0;
    for (let y = 0; y < rows; y++) {
      const row = offset + y * width;
      for (let x = x0; x <= x1; x++) {
        sum += buf[row + x]!;
        count++;
      }
    }
    if (sum / count >= 128) n |= 1 << bit;
  });
  return n;
}

const ffprobeStartsSchema = z.object({
  format: z.object({ start_time: z.coerce.number().optional() }).optional(),
  streams: z.array(z.object({ codec_type: z.string().optional(), start_time: z.coerce.number().optional() })).default([]),
});

/**
 * Where the first video frame is shown, in seconds after the start of the file as ffmpeg decodes it
 * (ffmpeg shifts every stream by the file's start time, the earliest stream start). The verifier's
 * clock starts at the first video frame, because that is where checkSync puts frame 0: e.g. ffmpeg's
 * mkv muxer keeps the 1024 AAC priming samples and starts the video 21 ms later instead. 0 without video.
 */
async function videoStartOffsetSec(path: string, timeoutMs: number): Promise<number> {
  const { stdout } = await promisify(execFile)(
    'ffprobe',
    ['-v', 'error', '-print_format', 'json', '-show_entries', 'format=start_time:stream=codec_type,start_time', '-i', toFfmpegInput(path)],
    { timeout: timeoutMs },
  );
  const info = ffprobeStartsSchema.parse(JSON.parse(stdout));
  const video = info.streams.find((s) => s.codec_type === 'video')?.start_time;
  const file = info.format?.start_time;
  return video !== undefined && file !== undefined && Number.isFinite(video) && Number.isFinite(file) ? video - file : 0;
}

interface DecodedAudio {
  samples: Float32Array;
  /** Time of samples[0] on the verifier's clock (seconds after the first video frame). */
  startSec: number;
}

/**
 * Decodes the first audio stream to mono 16-bit PCM at ANALYSIS_SAMPLE_RATE as a player lays it
 * out: `aresample` with `first_pts=0` pads silence in front of an audio stream that starts after the
 * file does. `window` (seconds on the verifier's clock) is cut out with atrim.
 */
async function decodeAudio(path: string, window: { startSec: number; endSec: number } | null, timeoutMs: number): Promise<DecodedAudio> {
  const offset = await videoStartOffsetSec(path, Math.min(timeoutMs, 60_000));
  return withTempDir(async (dir) => {
    const raw = join(dir, 'audio.s16');
    const filters = [`aresample=${ANALYSIS_SAMPLE_RATE}:async=1:first_pts=0`];
    if (window) filters.push(`atrim=start=${num(window.startSec + offset)}:end=${num(window.endSec + offset)}`);
    await runFfmpeg({
      timeoutMs,
      args: [
        '-i', toFfmpegInput(path),
        '-map', '0:a:0', '-vn', '-sn', '-dn',
        '-af', filters.join(','),
        '-ac', '1', '-ar', String(ANALYSIS_SAMPLE_RATE), '-c:a', 'pcm_s16le', '-f', 's16le', toFfmpegInput(raw),
      ],
    });
    const bytes = await readFile(raw);
    const pcm = new Int16Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 2));
    const samples = new Float32Array(pcm.length);
    for (let i = 0; i < pcm.length; i++) samples[i] = pcm[i]! / 32768;
    return { samples, startSec: window ? window.startSec : -offset };
  });
}

export interface BurstOnsetOptions {
  /**
   * 1 ms RMS that counts as sound (linear, full scale 1). Default 0.01 (-40 dBFS): the bursts are
   * 0.57 RMS, so a range muted to 0.1 still shows its bursts, while AAC noise in silence stays far below.
   */
  threshold?: number;
  /** Quiet needed before a new onset counts. Default 0.05 s. */
  minQuietSec?: number;
  timeoutMs?: number;
}

/**
 * Onset times of the tone bursts in the first audio stream, in seconds on the player's timeline
 * measured from the first video frame (from the file start without video; see videoStartOffsetSec),
 * so that they compare directly with frame k at k / fps. An onset is the first sample where the RMS
 * over the trailing 1 ms window exceeds the threshold after at least `minQuietSec` below it.
 * Precision is a sample or two (well under 1 ms). Bursts repeat every 5 frames, so an A/V slip is
 * only seen modulo 5 frames (up to +-2.5 frames, 83 ms at 30 fps).
 */
export async function readBurstOnsets(path: string, options: BurstOnsetOptions = {}): Promise<number[]> {
  const { samples, startSec } = await decodeAudio(path, null, options.timeoutMs ?? 600_000);
  const onsets = findBurstOnsets(samples, ANALYSIS_SAMPLE_RATE, options.threshold ?? 0.01, options.minQuietSec ?? 0.05);
  return onsets.map((t) => t + startSec);
}

/** Pure part of readBurstOnsets: onset times in `samples` (mono, -1..1) at `rate`. */
export function findBurstOnsets(samples: Float32Array, rate: number, threshold: number, minQuietSec: number): number[] {
  const win = Math.max(1, Math.round(rate / 1000));
  const minQuiet = Math.round(minQuietSec * rate);
  const energyThreshold = threshold * threshold * win;
  const onsets: number[] = [];
  let energy = 0;
  let lastLoud = -Infinity;
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i]!;
    energy += s * s;
    if (i >= win) energy -= samples[i - win]! ** 2;
    if (energy > energyThreshold) {
      if (i - lastLoud > minQuiet) onsets.push(onsetSample(samples, i, win, threshold) / rate);
      lastLoud = i;
    }
  }
  return onsets;
}

/**
 * The trailing window crosses the threshold a sample or two after the burst starts: take the first
 * sample of the window above the threshold (AAC pre-echo before the burst stays well below it) and
 * step back one, since a burst starts at sine phase 0 and its first sample is (nearly) silent.
 */
function onsetSample(samples: Float32Array, crossing: number, win: number, threshold: number): number {
  let first = crossing;
  for (let j = crossing; j > crossing - win && j >= 0; j--) {
    if (Math.abs(samples[j]!) > threshold) first = j;
  }
  return Math.max(0, first - 1);
}

export interface SyncReport {
  /** Worst |detected onset - expected onset| over the matched bursts (Infinity if one had no onset at all). */
  maxOffsetSec: number;
  matched: number;
  /** Bursts at a cut boundary with no onset within 40 ms (partially cut away, not a failure). */
  unmatched: number;
  /** Worst offset over bursts away from any cut (a burst at a cut may be partly cut, which moves its detected onset). */
  interiorMaxOffsetSec: number;
}

/** Boundary bursts farther than this from any onset are taken as cut away. */
const BOUNDARY_TOLERANCE_SEC = 0.04;

/**
 * A/V sync of a render: output frame k (shown at k / fps, the first frame at 0) showing source frame
 * n with n % 5 === 0 must have a burst onset at k / fps. Each expected onset is matched to the
 * nearest detected one. A burst of a frame next to a discontinuity (the last frame before or the
 * first after a place where frames[k] !== frames[k - 1] + 1) may be partially cut: without an onset
 * within 40 ms it counts as unmatched instead of as an offset.
 */
export function checkSync(frames: readonly number[], onsets: readonly number[], fps: number): SyncReport {
  const sorted = [...onsets].sort((a, b) => a - b);
  let maxOffsetSec = 0;
  let matched = 0;
  let unmatched = 0;
  let interiorMaxOffsetSec = 0;
  frames.forEach((n, k) => {
    if (n % BURST_EVERY_FRAMES !== 0) return;
    const expected = k / fps;
    const offset = Math.abs(nearest(sorted, expected) - expected);
    // the first output frame counts as a boundary too: no quiet precedes a burst at time 0
    const boundary = k === 0 || frames[k - 1]! + 1 !== n || (k + 1 < frames.length && frames[k + 1] !== n + 1);
    if (boundary && !(offset <= BOUNDARY_TOLERANCE_SEC)) {
      unmatched++;
      return;
    }
    matched++;
    maxOffsetSec = Math.max(maxOffsetSec, offset);
    if (!boundary) interiorMaxOffsetSec = Math.max(interiorMaxOffsetSec, offset);
  });
  return { maxOffsetSec, matched, unmatched, interiorMaxOffsetSec };
}

/** Nearest value in an ascending array (Infinity when empty). */
function nearest(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  const candidates = [sorted[lo - 1], sorted[lo]].filter((v): v is number => v !== undefined);
  if (candidates.length === 0) return Infinity;
  return candidates.reduce((best, v) => (Math.abs(v - x) < Math.abs(best - x) ? v : best));
}

/**
 * Source frame indices a frame-exact render of `segments` (source seconds, in play order) shows.
 * Boundaries snap to the nearest frame: a segment covers frames Math.round(start * fps) up to
 * Math.round(end * fps) - 1 (a boundary exactly half-way between frames rounds up).
 */
export function expectedFramesForSegments(segments: ReadonlyArray<{ start: number; end: number }>, fps: number): number[] {
  const out: number[] = [];
  for (const { start, end } of segments) {
    for (let n = Math.round(start * fps); n < Math.round(end * fps); n++) out.push(n);
  }
  return out;
}

/**
 * RMS level (linear, full scale 1) of the first audio stream between startSec and endSec (seconds
 * on readBurstOnsets' clock: from the first video frame). The bursts make the level depend on the
 * window: compare windows that span whole burst periods (multiples of 5 / fps), e.g. the same
 * window in the source and in a muted render (the untouched 6 s clip gives 0.1386 over 1..2 s).
 */
export async function detectToneLevel(
  path: string,
  startSec: number,
  endSec: number,
  options: { timeoutMs?: number } = {},
): Promise<number> {
  if (!(endSec > startSec) || startSec < 0) throw new Error(`invalid window ${startSec}..${endSec}`);
  const { samples } = await decodeAudio(path, { startSec, endSec }, options.timeoutMs ?? 600_000);
  if (samples.length === 0) throw new Error(`no audio between ${startSec} s and ${endSec} s in ${path}`);
  let sum = 0;
  for (const s of samples) sum += s * s;
  return Math.sqrt(sum / samples.length);
}
