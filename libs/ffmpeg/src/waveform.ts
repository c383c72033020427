import { buildFfmpegArgs, redactUrls } from './args';
import { MediaProbeError, NoAudioError } from './errors';
import { mediaInput, type FfmpegCommand, type FfmpegInput } from './input';
import { ENERGY_FRAMES_PER_SECOND } from '@wordcut/contracts';
import { EnergyAccumulator } from './energy';
import { PeakAccumulator } from './peaks';
import { runProcess } from './process';
import { killedError, probeFailureReason } from './probe';

/** Decode rate for peaks: plenty for 100 peaks/s, and 16 KB/s of PCM through the pipe. */
export const PEAKS_SAMPLE_RATE = 8000;
export const DEFAULT_PEAKS_TIMEOUT_MS = 10 * 60_000;

export interface ComputePeaksOptions {
  /** Peaks per second of media (e.g. WAVEFORM_STORED_PEAKS_PER_SECOND). */
  peaksPerSecond: number;
  /** Default 10 minutes; the process is SIGKILLed after it (FfmpegTimeoutError). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Default `ffmpeg` (PATH). */
  binary?: string;
}

export interface PeaksResult {
  /** Duration of the decoded audio. */
  durationSec: number;
  /** One byte per peak (0..255 of full scale, normalised, see MAX_PEAK_GAIN). */
  peaks: Uint8Array;
  /** From the same decode: the level byte of every frame (ENERGY_FRAMES_PER_SECOND, energy-format.ts of @wordcut/contracts). */
  energy: Uint8Array;
}

/**
 * The ffmpeg command that decodes the first audio stream to mono s16le at `rate` Hz on stdout. The
 * samples follow the stream's timestamps from 0 (aresample async: gaps filled with silence, overlaps
 * dropped), so sample n is at n / rate seconds of the player's timeline even in media with timestamp
 * gaps; well-formed media decode to the same samples as without it.
 */
export function peaksDecodeCommand(input: FfmpegInput, rate = PEAKS_SAMPLE_RATE): FfmpegCommand {
  return {
    inputs: [input],
    args: ['-map', '0:a:0', '-vn', '-sn', '-dn', '-af', 'aresample=async=1:first_pts=0', '-ac', '1', '-ar', String(rate), '-c:a', 'pcm_s16le', '-f', 's16le', 'pipe:1'],
  };
}

/**
 * Waveform peaks and frame energy of media: a pinned input, or a local path / presigned http(s) URL read as
 * untrusted media (mediaInput). ffmpeg decodes the first audio stream to 8 kHz mono PCM on stdout,
 * which is bucketed into peaks and frame levels while it streams (memory grows with the number of
 * peaks and frames, not with the audio).
 * No audio stream => NoAudioError; not decodable media => MediaProbeError;
 * timeout/abort => FfmpegTimeoutError/FfmpegAbortedError.
 */
export async function computePeaks(input: FfmpegInput | string, o: ComputePeaksOptions): Promise<PeaksResult> {
  const binary = o.binary ?? 'ffmpeg';
  const pinned = typeof input === 'string' ? mediaInput(input) : input;
  const acc = new PeakAccumulator(PEAKS_SAMPLE_RATE, o.peaksPerSecond);
  const energy = new EnergyAccumulator(PEAKS_SAMPLE_RATE, ENERGY_FRAMES_PER_SECOND);
  const command = peaksDecodeCommand(pinned);
  const args = buildFfmpegArgs(command.args, { inputs: command.inputs, logLevel: 'error', progress: false });
  const outcome = await runProcess({
    binary,
    args,
    timeoutMs: o.timeoutMs ?? DEFAULT_PEAKS_TIMEOUT_MS,
    signal: o.signal,
    onStdout: (chunk) => {
      acc.push(chunk);
      energy.push(chunk);
    },
    stderrTailBytes: 16 * 1024,
  });
  if (outcome.exitCode === 0) return { ...acc.finish(), energy: energy.finish() };
  const shownInput = redactUrls(typeof input === 'string' ? input : input.url);
  if (outcome.exitCode !== null) {
    if (/matches no streams/i.test(outcome.stderrTail)) throw new NoAudioError(shownInput);
    const { code, reason } = probeFailureReason(outcome.stderrTail, pinned.url);
    throw new MediaProbeError(code, reason, shownInput);
  }
  throw killedError(binary, args, outcome);
}
