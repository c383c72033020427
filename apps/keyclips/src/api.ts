import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { exportKeyMomentResponseSchema, jobStatusSchema, keyMomentsFindAnswerSchema, keyMomentsResponseSchema, videoSchema } from '@wordcut/contracts';
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

/** An analysis job that ended in an error (or was cancelled): its message is the one to show. */
export class AnalysisFailedError extends Error {
  override readonly name = 'AnalysisFailedError';
}

/** How often a running analysis is asked about, and for how long at most. */
export const ANALYSIS_POLL_MS = 1000;
const ANALYSIS_MAX_MS = 30 * 60_000;

/**
 * Waits for an analysis job: resolves when it completed, throws AnalysisFailedError with its error
 * when it failed or was cancelled. `progress` hears each status's message and percentage.
 */
export async function followAnalysis(
  jobId: string,
  status: (jobId: string) => Promise<{ status: string; progress: number; message: string; error: string | null }>,
  o: { sleep?: (ms: number) => Promise<void>; progress?: (percent: number, message: string) => void; maxMs?: number } = {},
): Promise<void> {
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const until = Date.now() + (o.maxMs ?? ANALYSIS_MAX_MS);
  for (;;) {
    const s = await status(jobId);
    o.progress?.(s.progress, s.message);
    if (s.status === 'completed') return;
    if (s.status === 'error') throw new AnalysisFailedError(s.error || ANALYSIS_FAILED_FALLBACK);
    if (s.status === 'cancelled') throw new AnalysisFailedError('The analysis was cancelled.');
    if (Date.now() > until) throw new AnalysisFailedError('The analysis is taking too long. Please try again later.');
    await sleep(ANALYSIS_POLL_MS);
  }
}

/** The server's message of a failed call, else `fallback`. */
export function failureMessage(error: unknown, fallback: string): string {
  if (error instanceof AnalysisFailedError) return error.message;
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

/**
 * Finds the moments of the current version; the answer replaces the cached list. A long analysis
 * answers 202 with its job: the job is followed to its end, then the stored moments are read.
 */
export function useFindMoments(videoId: string, onProgress?: (percent: number, message: string) => void) {
  const queryClient = useQueryClient();
  return useMutation<KeyMomentsResponse, unknown, void>({
    mutationFn: async () => {
      const answer = keyMomentsFindAnswerSchema.parse(await apiJson(`/api/videos/${enc(videoId)}/find-key-moments`, { method: 'POST' }));
      if (!('jobId' in answer)) return answer;
      await followAnalysis(answer.jobId, async (jobId) => jobStatusSchema.parse(await apiJson(`/api/jobs/${enc(jobId)}/status`)), { progress: onProgress });
      return keyMomentsResponseSchema.parse(await apiJson(`/api/videos/${enc(videoId)}/key-moments`));
    },
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
