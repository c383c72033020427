/**
 * Reads back the audio of a timecode render: tone-burst onsets on the video's clock, and the level of
 * a window (to check mutes).
 */
import { runFfmpeg, toFfmpegInput } from '@wordcut/ffmpeg';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { ANALYSIS_SAMPLE_RATE, num, withTempDir } from './timecode-layout';

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
