import type { ProviderSessionResponse, Video } from '@wordcut/contracts';
import { apiJson } from '@wordcut/ui';

/**
 * The editor page's calls and query keys (video, transcript, stream, provider session). Query keys
 * are URL parts, so the shell's default fetcher (GET on the parts joined with '/') serves the plain
 * GETs, and other remotes that read the same resources share the cache entries.
 */

export const VTT_STATUS_PATH = '/api/vtt/status';
export const UPLOAD_PATH = '/api/videos/upload';
export const PROVIDER_SESSIONS_PATH = '/api/provider/sessions';

const enc = encodeURIComponent;

export const videoKeys = {
  vttStatus: [VTT_STATUS_PATH] as const,
  video: (id: string) => ['/api/videos', id] as const,
  transcript: (id: string) => ['/api/videos', id, 'transcript'] as const,
  waveform: (id: string, mediaVersion: string, points: number) => ['/api/videos', id, 'waveform', mediaVersion, points] as const,
};

export const videoPath = (id: string) => `/api/videos/${enc(id)}`;
export const transcribePath = (id: string) => `${videoPath(id)}/transcribe`;

/** What the stream URL of a video is built from. */
export type StreamSource = Pick<Video, 'id' | 'lastProcessedAt' | 'createdAt' | 'filename' | 'streamUrl'>;

/**
 * The processed stream, cache-busted by the last processing time, else the creation time,
 * else the file name, so a re-rendered video is never served from cache. The
 * server signs the URL for the owner (`streamUrl`): a `<video>` element sends no bearer header.
 */
export function streamUrl(video: StreamSource): string {
  const version = video.lastProcessedAt || video.createdAt || video.filename;
  const base = video.streamUrl ?? `${videoPath(video.id)}/stream/processed`;
  return `${base}${base.includes('?') ? '&' : '?'}t=${enc(version)}`;
}

/**
 * The captions track: the subtitles URL the server signed, cache-busted by the media version so
 * the track is fetched again when the media changes. Null without one.
 */
export function captionsTrackUrl(video: Pick<Video, 'subtitlesUrl' | 'mediaVersion'>): string | null {
  if (!video.subtitlesUrl) return null;
  return `${video.subtitlesUrl}${video.subtitlesUrl.includes('?') ? '&' : '?'}v=${enc(video.mediaVersion)}`;
}

/** Video polling: every 2 s while the video is uploaded or processing. */
export const VIDEO_POLL_INTERVAL_MS = 2000;
/** The video fetch retries 3 times, 1 s apart. */
export const VIDEO_FETCH_RETRIES = 3;
export const VIDEO_FETCH_RETRY_DELAY_MS = 1000;

export function isVideoPending(video: Pick<Video, 'status'> | undefined): boolean {
  return video?.status === 'uploaded' || video?.status === 'processing';
}

/** refetchInterval of the video query. */
export function videoPollInterval(video: Pick<Video, 'status'> | undefined): number | false {
  return isVideoPending(video) ? VIDEO_POLL_INTERVAL_MS : false;
}

export function startTranscription(id: string): Promise<Video> {
  return apiJson<Video>(transcribePath(id), { method: 'POST' });
}

/** POST /api/provider/sessions with the provider's token as bearer. */
export function openProviderSession(token: string): Promise<ProviderSessionResponse> {
  return apiJson<ProviderSessionResponse>(PROVIDER_SESSIONS_PATH, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
}

/** The editor route of a video under the remote's base path ('/' -> '/editor/<id>'). */
export function editorRoute(basePath: string, id: string): string {
  return `${basePath.replace(/\/+$/, '')}/editor/${enc(id)}`;
}
