import type { Video, Waveform } from '@wordcut/contracts';
import { apiJson } from '@wordcut/ui';
import { videoPath } from '../shared/api';
import { syntheticPeaks } from './waveform';

export function waveformUrl(video: Pick<Video, 'id' | 'mediaVersion'>, points: number): string {
  return `${videoPath(video.id)}/waveform?v=${encodeURIComponent(video.mediaVersion)}&points=${points}`;
}

/** The waveform result the timeline draws; `synthetic` when the server had none. */
export interface TimelinePeaks {
  peaks: readonly number[];
  duration: number;
  synthetic: boolean;
}

/** How many peaks the stand-in waveform has when the server gives none. */
export const SYNTHETIC_PEAK_COUNT = 1000;

/**
 * GET the waveform; when the call fails or answers no peaks, a synthetic 1000-peak waveform
 * stands in, so this never rejects (except when aborted).
 */
export async function fetchWaveform(
  video: Pick<Video, 'id' | 'mediaVersion' | 'duration'>,
  points: number,
  signal?: AbortSignal,
): Promise<TimelinePeaks> {
  const fallbackDuration = video.duration ?? 0;
  try {
    const waveform = await apiJson<Waveform>(waveformUrl(video, points), { signal });
    if (waveform && Array.isArray(waveform.peaks) && waveform.peaks.length > 0) {
      return { peaks: waveform.peaks, duration: waveform.duration || fallbackDuration, synthetic: false };
    }
  } catch (error: unknown) {
    if (signal?.aborted) throw error;
  }
  return { peaks: syntheticPeaks(SYNTHETIC_PEAK_COUNT), duration: fallbackDuration, synthetic: true };
}
