import { useCallback } from 'react';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import type { Video } from '@wordcut/contracts';
import { videoKeys } from '../shared/api';

/** What a finished job may have changed, read from the video before and after it. */
export type VideoVersion = Pick<Video, 'mediaVersion' | 'transcriptId'>;

/** The requests a refresh makes after the video itself is fetched again. */
export interface RefreshPlan {
  /** the transcript: the words follow every edit job */
  transcript: boolean;
  /** the clip list (a revert drops clips; otherwise one cheap request) */
  clips: boolean;
  /** the media changed: the stream and the waveform follow the new version (their keys carry it) */
  mediaChanged: boolean;
  /** cached waveforms of other media versions, to drop */
  dropWaveformsOtherThan: string | null;
}

/**
 * After a job: the video is fetched once, then the transcript and clips once each. The stream and
 * the waveform are keyed by the media version, so they load again only when it changed; nothing is
 * invalidated by prefix, and no request in flight is aborted to start the same one again.
 */
export function planRefresh(before: VideoVersion | undefined, after: VideoVersion | undefined): RefreshPlan {
  const mediaChanged = !!before && !!after && before.mediaVersion !== after.mediaVersion;
  return {
    transcript: after?.transcriptId !== null,
    clips: true,
    mediaChanged,
    dropWaveformsOtherThan: mediaChanged && after ? after.mediaVersion : null,
  };
}

const inFlight = new WeakMap<QueryClient, Map<string, Promise<void>>>();

/** Refetches a query once: one already on its way is awaited, not aborted and sent again. */
function refetchOnce(queryClient: QueryClient, queryKey: QueryKey, exact = true): Promise<void> {
  return queryClient.invalidateQueries({ queryKey, exact }, { cancelRefetch: false });
}

/** One refresh of a video at a time: calls while one runs share it. */
export async function refreshVideo(queryClient: QueryClient, videoId: string): Promise<void> {
  let running = inFlight.get(queryClient);
  if (!running) inFlight.set(queryClient, (running = new Map()));
  const pending = running.get(videoId);
  if (pending) return pending;
  const work = (async () => {
    const before = queryClient.getQueryData<Video>(videoKeys.video(videoId));
    await refetchOnce(queryClient, videoKeys.video(videoId));
    const after = queryClient.getQueryData<Video>(videoKeys.video(videoId));
    const plan = planRefresh(before, after);
    if (plan.dropWaveformsOtherThan !== null) {
      const current = plan.dropWaveformsOtherThan;
      queryClient.removeQueries({ queryKey: ['/api/videos', videoId, 'waveform'], predicate: (query) => query.queryKey[3] !== current, type: 'inactive' });
    }
    await Promise.all([
      plan.transcript ? refetchOnce(queryClient, videoKeys.transcript(videoId)) : null,
      plan.clips ? refetchOnce(queryClient, ['/api/videos', videoId, 'clips']) : null,
      refetchOnce(queryClient, ['/api/videos', videoId, 'reorder-jobs']),
      refetchOnce(queryClient, ['/api/videos']),
    ]);
  })();
  running.set(videoId, work);
  try {
    await work;
  } finally {
    running.delete(videoId);
  }
}

/** After a job finishes: the video, then its transcript, clips, reorder jobs and the videos list, once each (planRefresh). */
export function useRefreshVideo(videoId: string): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => refreshVideo(queryClient, videoId), [queryClient, videoId]);
}
