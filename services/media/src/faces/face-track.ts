import { followFaces, type FaceSample, type PathPoint } from '@wordcut/edit-list';
import type { FfmpegInput } from '@wordcut/ffmpeg';
import { sampleFrames } from '@wordcut/ffmpeg';
import type { FaceDetector } from './face-detector';

export interface FaceTrackOptions {
  /** frames looked at a second */
  fps: number;
  /** the frames' width (the height follows the display ratio) */
  width: number;
  /** seconds decoded at a time: bounds the frames held in memory */
  stretchSec: number;
  ffmpegTimeoutMs: number;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}

export const FACE_TRACK_DEFAULTS = { fps: 2, width: 320, stretchSec: 30 } as const;

const even = (n: number): number => Math.max(16, 2 * Math.round(n / 2));

/**
 * The path an auto-reframed crop follows through a video: frames sampled a few a second, a
 * stretch at a time, the faces in each found, then the path (followFaces). Display size after
 * rotation, so a phone's portrait video is looked at upright.
 */
export async function faceTrack(
  detector: FaceDetector,
  input: FfmpegInput,
  media: { durationSec: number; displayWidth: number; displayHeight: number },
  o: FaceTrackOptions,
): Promise<{ samples: FaceSample[]; path: PathPoint[] }> {
  const width = even(Math.min(o.width, media.displayWidth));
  const height = even((width * media.displayHeight) / media.displayWidth);
  const samples: FaceSample[] = [];
  for (let start = 0; start < media.durationSec; start += o.stretchSec) {
    const durationSec = Math.min(o.stretchSec, media.durationSec - start);
    const frames = await sampleFrames(input, { startSec: start, durationSec, fps: o.fps, width, height, timeoutMs: o.ffmpegTimeoutMs, ...(o.signal ? { signal: o.signal } : {}) });
    for (const f of frames) samples.push({ t: f.t, faces: await detector.detect(f.rgb, width, height) });
    o.onProgress?.(Math.min(1, (start + durationSec) / media.durationSec));
  }
  return { samples, path: followFaces(samples) };
}
