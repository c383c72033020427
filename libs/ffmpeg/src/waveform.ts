import { buildFfmpegArgs, redactUrls, toFfmpegInput } from './args';
import { MediaProbeError, NoAudioError } from './errors';
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
  protocolWhitelist?: readonly string[];
}

export interface PeaksResult {
  /** Duration of the decoded audio. */
  durationSec: number;
  /** One byte per peak (0..255 of full scale, normalised, see MAX_PEAK_GAIN). */
  peaks: Uint8Array;
}

/** The ffmpeg arguments that decode the first audio stream to mono s16le at `rate` Hz on stdout. */
export function peaksDecodeArgs(input: string, rate = PEAKS_SAMPLE_RATE): string[] {
  return ['-i', toFfmpegInput(input), '-map', '0:a:0', '-vn', '-sn', '-dn', '-ac', '1', '-ar', String(rate), '-c:a', 'pcm_s16le', '-f', 's16le', 'pipe:1'];
}

/**
 * Waveform peaks of a local file or an http(s) URL (e.g. a presigned GET): ffmpeg decodes the first
 * audio stream to 8 kHz mono PCM on stdout, which is bucketed while it streams (memory grows with
 * the number of peaks, not with the audio). No audio stream => NoAudioError; not decodable media
 * => MediaProbeError; timeout/abort => FfmpegTimeoutError/FfmpegAbortedError.
 */
export async function computePeaks(input: string, o: ComputePeaksOptions): Promise<PeaksResult> {
  const binary = o.binary ?? 'ffmpeg';
  const acc = new PeakAccumulator(PEAKS_SAMPLE_RATE, o.peaksPerSecond);
  const args = buildFfmpegArgs(peaksDecodeArgs(input), { protocolWhitelist: o.protocolWhitelist, logLevel: 'error', progress: false });
  const outcome = await runProcess({
    binary,
    args,
    timeoutMs: o.timeoutMs ?? DEFAULT_PEAKS_TIMEOUT_MS,
    signal: o.signal,
    onStdout: (chunk) => acc.push(chunk),
    stderrTailBytes: 16 * 1024,
  });
  if (outcome.exitCode === 0) return acc.finish();
  const shownInput = redactUrls(input);
  if (outcome.exitCode !== null) {
    if (/matches no streams/i.test(outcome.stderrTail)) throw new NoAudioError(shownInput);
    const { code, reason } = probeFailureReason(outcome.stderrTail, toFfmpegInput(input));
    throw new MediaProbeError(code, reason, shownInput);
  }
  throw killedError(binary, args, outcome);
}
