import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { exportKeyMomentResponseSchema, keyMomentsResponseSchema, videoSchema } from '@wordcut/contracts';
import type { ExportKeyMomentBody, ExportKeyMomentResponse, KeyMomentsResponse, Video } from '@wordcut/contracts';
import { apiJson, isApiError } from '@wordcut/ui';

/** The KeyClips calls and their query keys (the video and clip keys are the editor's, so both refresh). */
const enc = encodeURIComponent;

export const keyClipsKeys = {
  video: (videoId: string) => ['/api/videos', videoId] as const,
  clips: (videoId: string) => ['/api/videos', videoId, 'clips'] as const,
  moments: (videoId: string) => ['/api/videos', videoId, 'key-moments'] as const,
};

export const ANALYSIS_FAILED = 'Analysis Failed';
export const ANALYSIS_FAILED_FALLBACK = 'Failed to analyze video';
export const NO_MOMENTS_TITLE = 'No Moments Found';
export const NO_MOMENTS_TEXT = 'Could not identify key moments in this video';
export const EXPORT_FAILED = 'Export Failed';
export const EXPORT_FAILED_FALLBACK = 'Failed to export moment';

/** The server's message of a failed call, else `fallback`. */
export function failureMessage(error: unknown, fallback: string): string {
  const body: unknown = isApiError(error) ? error.body : undefined;
  const message = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message.trim() ? message : fallback;
}

export function useVideo(videoId: string) {
  return useQuery<Video>({
    queryKey: keyClipsKeys.video(videoId),
    queryFn: async ({ signal }) => videoSchema.parse(await apiJson(`/api/videos/${enc(videoId)}`, { signal })),
  });
}

/** The stored moments of the current version (none yet: an empty list). */
export function useMoments(videoId: string) {
  return useQuery<KeyMomentsResponse>({
    queryKey: keyClipsKeys.moments(videoId),
    queryFn: async ({ signal }) => keyMomentsResponseSchema.parse(await apiJson(`/api/videos/${enc(videoId)}/key-moments`, { signal })),
  });
}

/** Finds the moments of the current version; the answer replaces the cached list. */
export function useFindMoments(videoId: string) {
  const queryClient = useQueryClient();
  return useMutation<KeyMomentsResponse, unknown, void>({
    mutationFn: async () => keyMomentsResponseSchema.parse(await apiJson(`/api/videos/${enc(videoId)}/find-key-moments`, { method: 'POST' })),
    onSuccess: (answer) => queryClient.setQueryData(keyClipsKeys.moments(videoId), answer),
  });
}

/** Exports one moment as a clip; then the clips and moments are fetched again. */
export function useExportMoment(videoId: string) {
  const queryClient = useQueryClient();
  return useMutation<ExportKeyMomentResponse, unknown, { momentId: string; body: ExportKeyMomentBody }>({
    mutationFn: async ({ momentId, body }) =>
      exportKeyMomentResponseSchema.parse(await apiJson(`/api/key-moments/${enc(momentId)}/export`, { method: 'POST', json: body })),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: keyClipsKeys.clips(videoId), exact: true }),
        queryClient.invalidateQueries({ queryKey: keyClipsKeys.moments(videoId), exact: true }),
      ]);
    },
  });
}

/** The stream the preview plays: the URL the server signed for the owner, cache-busted by the media version. */
export function previewSource(video: Pick<Video, 'id' | 'streamUrl' | 'mediaVersion'>): string {
  const base = video.streamUrl ?? `/api/videos/${enc(video.id)}/stream/processed`;
  return `${base}${base.includes('?') ? '&' : '?'}v=${enc(String(video.mediaVersion))}`;
}
