import type { CreateClipBody } from '@wordcut/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiFetch, apiJson, isApiError } from '@wordcut/ui';
import { clipsPollInterval } from '@wordcut/editor-core';
import type { AspectRatio } from '@wordcut/editor-core';

/** A clip as GET /api/videos/{id}/clips lists it. */
export interface ClipItem {
  id: string;
  videoId: string;
  name: string;
  startTime: number;
  endTime: number;
  aspectRatio: AspectRatio;
  status: 'pending' | 'processing' | 'completed' | 'failed';
  outputPath: string;
  vttPath: string;
  s3ClipKey?: string;
  s3VttKey?: string;
  error?: string | null;
  createdAt?: string;
}

export interface NewClip {
  videoId: string;
  name: string;
  startTime: number;
  endTime: number;
  aspectRatio: AspectRatio;
  /** burn the clip's words into its picture */
  captions?: boolean;
}

export const clipKeys = {
  list: (videoId: string) => ['/api/videos', videoId, 'clips'] as const,
};

export const FETCH_CLIPS_FAILED = 'Failed to fetch clips';

/** The video's clips, polled every 2000 ms while any is pending or processing. */
export function useClips(videoId: string) {
  return useQuery<ClipItem[]>({
    queryKey: clipKeys.list(videoId),
    queryFn: async ({ signal }) => {
      try {
        return await apiJson<ClipItem[]>(`/api/videos/${encodeURIComponent(videoId)}/clips`, { signal });
      } catch (error) {
        if (signal.aborted) throw error;
        throw new Error(FETCH_CLIPS_FAILED, { cause: error });
      }
    },
    refetchInterval: (query) => clipsPollInterval(query.state.data),
  });
}

/** POST /api/clips: answers the new clip's name and aspect ratio (and its id and job). */
export function createClip(clip: NewClip): Promise<{ id: string; jobId: string; name: string; aspectRatio: AspectRatio }> {
  return apiJson('/api/clips', { method: 'POST', json: clip satisfies CreateClipBody });
}

export async function deleteClip(id: string): Promise<void> {
  await apiFetch(`/api/clips/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** Status and error body of a failed call, for the clip toasts (a 429 quota_exceeded is recognised by code or error field). */
export function failureOf(error: unknown): { status: number | null; body: { error?: string; message?: string } | null } {
  if (!isApiError(error)) return { status: null, body: null };
  const raw = error.body as { error?: unknown; code?: unknown; message?: unknown } | undefined;
  if (!raw || typeof raw !== 'object') return { status: error.status, body: null };
  const code = typeof raw.code === 'string' ? raw.code.toLowerCase() : undefined;
  const errorField = typeof raw.error === 'string' ? raw.error : undefined;
  return {
    status: error.status,
    body: {
      error: code === 'quota_exceeded' || errorField === 'quota_exceeded' ? 'quota_exceeded' : errorField,
      message: typeof raw.message === 'string' ? raw.message : undefined,
    },
  };
}
