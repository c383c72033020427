/**
 * The MP4 master of a recording that came in another container (MKV from OBS, WebM from a
 * browser): renders, peaks, publishing and the player all read MP4. Streams are copied when MP4
 * and our renderer take them as they are (H.264, HEVC, AV1 video; AAC audio), else encoded once
 * (other video as H.264, other audio such as Opus or Vorbis as AAC). Frame times are kept.
 */
import type { ProbeResult } from '@wordcut/contracts';
import { toFfmpegInput } from './args';
import type { FfmpegCommand, FfmpegInput } from './input';
import type { FfmpegProgress } from './progress';
import { runFfmpeg, type RunFfmpegResult } from './run-ffmpeg';

/** Video codecs an MP4 master keeps by stream copy. */
const COPY_VIDEO = new Set(['h264', 'hevc', 'av1']);
/** Audio codecs an MP4 master keeps by stream copy. */
const COPY_AUDIO = new Set(['aac']);

export interface MasterPlan {
  video: 'copy' | 'encode';
  audio: 'copy' | 'encode' | 'none';
}

/** How each stream of `probe` goes into the master. */
export function masterPlan(probe: ProbeResult): MasterPlan {
  const video = probe.streams.find((s) => s.codecType === 'video');
  const audio = probe.streams.find((s) => s.codecType === 'audio');
  return {
    video: video && COPY_VIDEO.has(video.codecName ?? '') ? 'copy' : 'encode',
    audio: !audio ? 'none' : COPY_AUDIO.has(audio.codecName ?? '') ? 'copy' : 'encode',
  };
}

/**
 * The ffmpeg command of the master: the first video and audio streams, no subtitles, data or
 * chapters; HEVC tagged hvc1 (what browsers and Apple players look for); encoded video as H.264
 * 8-bit 4:2:0 at near-transparent quality with every frame's own time; the index at the front.
 */
export function masterCommand(input: FfmpegInput, output: string, plan: MasterPlan, o: { hevc: boolean }): FfmpegCommand {
  const video =
    plan.video === 'copy'
      ? ['-c:v', 'copy', ...(o.hevc ? ['-tag:v', 'hvc1'] : [])]
      : ['-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18', '-profile:v', 'high', '-pix_fmt', 'yuv420p', '-force_key_frames', 'expr:gte(t,n_forced*2)'];
  const audio = plan.audio === 'none' ? [] : plan.audio === 'copy' ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '192k'];
  return {
    inputs: [input],
    args: [
      '-map', '0:v:0', ...(plan.audio === 'none' ? [] : ['-map', '0:a:0']), '-sn', '-dn', '-map_chapters', '-1',
      '-fps_mode', 'passthrough',
      ...video,
      ...audio,
      '-max_muxing_queue_size', '4096',
      '-movflags', '+faststart',
      '-f', 'mp4', toFfmpegInput(output),
    ],
  };
}

export interface MakeMasterOptions {
  durationSec?: number | null;
  onProgress?: (p: FfmpegProgress) => void;
  timeoutMs?: number;
  signal?: AbortSignal;
  binary?: string;
}

/** Writes the MP4 master of a pinned input to `output` (a local path); returns the plan it followed. */
export async function makeMp4Master(input: FfmpegInput, probe: ProbeResult, output: string, o: MakeMasterOptions = {}): Promise<MasterPlan & RunFfmpegResult> {
  const plan = masterPlan(probe);
  const hevc = probe.streams.some((s) => s.codecType === 'video' && s.codecName === 'hevc');
  const result = await runFfmpeg({
    ...masterCommand(input, output, plan, { hevc }),
    timeoutMs: o.timeoutMs ?? 2 * 3600_000,
    signal: o.signal,
    onProgress: o.onProgress,
    durationSec: o.durationSec,
    binary: o.binary,
  });
  return { ...plan, ...result };
}
