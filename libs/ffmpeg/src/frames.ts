import { buildFfmpegArgs, redactUrls } from './args';
import { MediaProbeError } from './errors';
import { withInputOptions, type FfmpegCommand, type FfmpegInput } from './input';
import { runProcess } from './process';
import { killedError, probeFailureReason } from './probe';

export interface SampleFramesOptions {
  /** the stretch of the media's timeline, in seconds */
  startSec: number;
  durationSec: number;
  /** frames a second to sample */
  fps: number;
  /** the size frames are scaled to (even numbers; the display size's ratio, after rotation) */
  width: number;
  height: number;
  timeoutMs: number;
  signal?: AbortSignal;
  binary?: string;
}

export interface SampledFrame {
  /** seconds on the media's timeline */
  t: number;
  /** width × height × 3 bytes, RGB, row by row */
  rgb: Uint8Array;
}

/** The ffmpeg command: frames of a stretch at `fps`, scaled, as raw RGB on stdout. */
export function sampleFramesCommand(input: FfmpegInput, o: Pick<SampleFramesOptions, 'startSec' | 'durationSec' | 'fps' | 'width' | 'height'>): FfmpegCommand {
  if (!(o.startSec >= 0) || !(o.durationSec > 0) || !(o.fps > 0 && o.fps <= 30)) throw new RangeError(`invalid frame sampling ${o.startSec}+${o.durationSec} at ${o.fps}/s`);
  if (!Number.isInteger(o.width) || !Number.isInteger(o.height) || o.width < 16 || o.height < 16 || o.width > 1920 || o.height > 1920) throw new RangeError(`invalid frame size ${o.width}x${o.height}`);
  const seek = o.startSec > 0 ? ['-ss', o.startSec.toFixed(3)] : [];
  return {
    inputs: [withInputOptions(input, ...seek, '-t', o.durationSec.toFixed(3))],
    args: ['-map', '0:v:0', '-an', '-sn', '-dn', '-vf', `fps=${o.fps}:start_time=0,scale=${o.width}:${o.height}:flags=bilinear`, '-pix_fmt', 'rgb24', '-f', 'rawvideo', 'pipe:1'],
  };
}

/**
 * Frames of a stretch of media, sampled `fps` a second and scaled small, in memory: a stretch at a
 * time (the caller bounds it), never more bytes than the stretch holds.
 */
export async function sampleFrames(input: FfmpegInput, o: SampleFramesOptions): Promise<SampledFrame[]> {
  const command = sampleFramesCommand(input, o);
  const frameBytes = o.width * o.height * 3;
  const most = Math.ceil(o.durationSec * o.fps) + 2;
  const binary = o.binary ?? 'ffmpeg';
  const args = buildFfmpegArgs(command.args, { inputs: command.inputs, logLevel: 'error', progress: false });
  const outcome = await runProcess({ binary, args, timeoutMs: o.timeoutMs, signal: o.signal, maxStdoutBytes: most * frameBytes, stderrTailBytes: 16 * 1024 });
  if (outcome.exitCode !== 0) {
    if (outcome.exitCode === null) throw killedError(binary, args, outcome);
    const { code, reason } = probeFailureReason(outcome.stderrTail, input.url);
    throw new MediaProbeError(code, reason, redactUrls(input.url));
  }
  const frames: SampledFrame[] = [];
  for (let k = 0; (k + 1) * frameBytes <= outcome.stdout.length; k++) {
    frames.push({ t: o.startSec + k / o.fps, rgb: new Uint8Array(outcome.stdout.buffer, outcome.stdout.byteOffset + k * frameBytes, frameBytes) });
  }
  return frames;
}
