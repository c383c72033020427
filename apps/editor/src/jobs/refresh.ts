import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { videoKeys } from '../shared/api';

/** After a job finishes: the videos list, the video, its transcript, its clips, its waveform and reorder jobs are refetched. */
export function useRefreshVideo(videoId: string): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: videoKeys.video(videoId) }),
      queryClient.invalidateQueries({ queryKey: videoKeys.transcript(videoId) }),
      queryClient.invalidateQueries({ queryKey: ['/api/videos', videoId, 'clips'] }),
      queryClient.invalidateQueries({ queryKey: ['/api/videos', videoId, 'waveform'] }),
      queryClient.invalidateQueries({ queryKey: ['/api/videos', videoId, 'reorder-jobs'] }),
      queryClient.invalidateQueries({ queryKey: ['/api/videos'], exact: true }),
    ]);
  }, [queryClient, videoId]);
}
