import { toFfmpegInput } from './args';
import { mediaInput, type FfmpegCommand, type FfmpegInput } from './input';
import type { FfmpegProgress } from './progress';
import { runFfmpeg, type RunFfmpegResult } from './run-ffmpeg';

export const DEFAULT_TRANSCODE_TIMEOUT_MS = 2 * 3600_000;

export interface TranscodeForBrowserOptions {
  /** Expected duration of the media, for progress percentages (null: percent stays null). */
  durationSec?: number | null;
  onProgress?: (p: FfmpegProgress) => void;
  /** Default 2 hours; the process is SIGKILLed after it (FfmpegTimeoutError). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Default `ffmpeg` (PATH). */
  binary?: string;
}

/**
 * ffmpeg command for a browser proxy: the first video stream as H.264 High 8-bit 4:2:0 with even
 * dimensions (ffmpeg's autorotate turns the picture upright, so the proxy has no rotation), a
 * keyframe every 2 s for quick seeking, the first audio stream (if any) as AAC 128k, and the index
 * at the front (`+faststart`) so playback starts before the download ends.
 */
export function browserProxyCommand(input: FfmpegInput, output: string): FfmpegCommand {
  return {
    inputs: [input],
    args: [
      '-map', '0:v:0', '-map', '0:a:0?', '-sn', '-dn', '-map_chapters', '-1',
      '-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p',
      '-fps_mode', 'vfr',
      '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-profile:v', 'high', '-pix_fmt', 'yuv420p',
      '-force_key_frames', 'expr:gte(t,n_forced*2)',
      '-c:a', 'aac', '-b:a', '128k',
      '-max_muxing_queue_size', '4096',
      '-movflags', '+faststart',
      '-f', 'mp4', toFfmpegInput(output),
    ],
  };
}

/**
 * Makes a browser-playable MP4 (see browserProxyCommand) at `output`, a local path, from a pinned
 * input or a local path / presigned URL read as untrusted media (mediaInput).
 */
export function transcodeForBrowser(input: FfmpegInput | string, output: string, o: TranscodeForBrowserOptions = {}): Promise<RunFfmpegResult> {
  const command = browserProxyCommand(typeof input === 'string' ? mediaInput(input) : input, output);
  return runFfmpeg({
    ...command,
    timeoutMs: o.timeoutMs ?? DEFAULT_TRANSCODE_TIMEOUT_MS,
    signal: o.signal,
    onProgress: o.onProgress,
    durationSec: o.durationSec,
    binary: o.binary,
  });
}
