import { useQuery } from '@tanstack/react-query';
import { cloneResponseSchema, exportCreatedSchema, exportJobStatusSchema, resetResponseSchema } from '@wordcut/contracts';
import type { CloneResponse, ExportError, ExportJobStatus, ExportRequestInput, QuotaUsage, ResetResponse, Video } from '@wordcut/contracts';
import {
  EXPORT_TOKEN_REQUIRED,
  ExportErrorCode,
  FETCH_CLIPS_FAILED,
  NO_AUTH_TOKEN,
  RESET_FAILED_FALLBACK,
  RESET_TOKEN_REQUIRED,
  STATUS_TOKEN_REQUIRED,
  EXPORT_ERROR_MESSAGES,
  parseExportError,
} from '@wordcut/publishing';
import type { PublishClip } from '@wordcut/publishing';
import { apiJson, bearerHeaders, getSessionToken, isApiError, refreshSessionToken } from '@wordcut/ui';
import type { ApiError } from '@wordcut/ui';

/**
 * The publish remote's calls. Every call carries cookies and JSON bodies a JSON
 * content type (libs/ui's apiFetch); the publishing calls carry the session token as bearer.
 * Failures are thrown as a {@link PublishError} holding the export error (code, message,
 * details, retryAfter, upgradeUrl) so the dialogs and toasts read one shape.
 */

const enc = encodeURIComponent;

/** Query keys shared with the editor through the shell's QueryClient. */
export const publishKeys = {
  video: (id: string) => ['/api/videos', id] as const,
  clips: (id: string) => ['/api/videos', id, 'clips'] as const,
};

export const CLONE_PATH = '/api/wordcut/clone';
export const EXPORT_PATH = '/api/jobs/export';
export const exportStatusPath = (jobId: string) => `/api/jobs/${enc(jobId)}/status`;
export const exportRetryPath = (jobId: string) => `/api/jobs/${enc(jobId)}/retry`;
export const resetPath = (sessionId: string) => `/api/provider/sessions/${enc(sessionId)}/reset`;

/** A clip as GET /api/videos/{id}/clips lists it, with the fields publishing reads. */
export interface PublishClipRecord extends PublishClip {
  videoId?: string;
  providerUploadStatus?: 'none' | 'pending' | 'uploading' | 'uploaded' | 'failed' | null;
  providerVideoId?: string | null;
}

/**
 * A failed publishing call: `detail` is the export error the UI shows; `status` is the HTTP
 * status of the server's answer that ended the call, null when none was read (nothing sent, a
 * network error, an unreadable body): it tells whether an export may have been created.
 */
export class PublishError extends Error {
  override readonly name = 'PublishError';
  constructor(
    readonly detail: ExportError,
    readonly status: number | null = null,
  ) {
    super(detail.message);
  }
}

/** The export error of anything a publishing call threw; `fallback` names the call's code. */
export function toExportError(error: unknown, fallback: string = ExportErrorCode.ExportFailed): ExportError {
  if (error instanceof PublishError) return error.detail;
  return parseExportError(error, fallback);
}

function publishError(code: string, message?: string, status: number | null = null): PublishError {
  return new PublishError({ error: code, message: message ?? EXPORT_ERROR_MESSAGES[code] ?? code }, status);
}

/** Clip statuses with no finished file yet: the list is polled while any clip has one. */
export function clipsProcessing(clips: readonly Pick<PublishClip, 'status'>[] | undefined): boolean {
  return (clips ?? []).some((c) => c.status === 'pending' || c.status === 'processing');
}

/** Clip list polling: every 2000 ms while a clip is pending or processing. */
export const CLIPS_POLL_INTERVAL_MS = 2000;

export function fetchVideo(id: string, signal?: AbortSignal): Promise<Video> {
  return apiJson<Video>(`/api/videos/${enc(id)}`, { signal });
}

export async function fetchClips(id: string, signal?: AbortSignal): Promise<PublishClipRecord[]> {
  try {
    return await apiJson<PublishClipRecord[]>(`/api/videos/${enc(id)}/clips`, { signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new Error(FETCH_CLIPS_FAILED, { cause: error });
  }
}

/** The video record (GET /api/videos/{id}); the cache entry is the editor's. */
export function useVideo(id: string | null) {
  return useQuery<Video>({
    queryKey: publishKeys.video(id ?? ''),
    queryFn: ({ signal }) => fetchVideo(id!, signal),
    enabled: Boolean(id),
  });
}

/** The clip list, polled while any clip is pending or processing. */
export function useClips(id: string | null) {
  return useQuery<PublishClipRecord[]>({
    queryKey: publishKeys.clips(id ?? ''),
    queryFn: ({ signal }) => fetchClips(id!, signal),
    enabled: Boolean(id),
    refetchInterval: (query) => (clipsProcessing(query.state.data) ? CLIPS_POLL_INTERVAL_MS : false),
  });
}

/**
 * POST /api/wordcut/clone {videoId} with the session token. Without a token:
 * 'No authentication token'; a failure's message is the server's, else 'Clone request failed'.
 */
export async function cloneVideo(videoId: string): Promise<CloneResponse> {
  const token = getSessionToken();
  if (!token) throw publishError(ExportErrorCode.CloneFailed, NO_AUTH_TOKEN);
  try {
    const body = await apiJson<unknown>(CLONE_PATH, { method: 'POST', headers: bearerHeaders(token), json: { videoId } });
    const parsed = cloneResponseSchema.safeParse(body);
    if (!parsed.success) throw publishError(ExportErrorCode.CloneFailed);
    return parsed.data;
  } catch (error) {
    throw new PublishError(toExportError(error, ExportErrorCode.CloneFailed));
  }
}

/** A started export job (POST /api/jobs/export or /retry answered 202). */
export interface ExportStarted {
  jobId: string;
  /** how many items it uploads, when the server said */
  itemCount: number | null;
  /** the caller's usage after this export, when the server said */
  quota: QuotaUsage | null;
}

/**
 * The job of a 202 answer. Only the job id matters (the rest of the body is not shown): an answer
 * with fewer fields than the contract still started a job.
 */
function startedFrom(body: unknown, code: string): ExportStarted {
  const parsed = exportCreatedSchema.safeParse(body);
  if (parsed.success) return { jobId: parsed.data.jobId, itemCount: parsed.data.itemCount, quota: parsed.data.quota };
  const jobId = (body as { jobId?: unknown } | null)?.jobId;
  if (typeof jobId === 'string' && jobId) return { jobId, itemCount: null, quota: null };
  throw publishError(code);
}

async function postExport(request: ExportRequestInput, token: string): Promise<ExportStarted> {
  const body = await apiJson<unknown>(EXPORT_PATH, { method: 'POST', headers: bearerHeaders(token), json: request });
  return startedFrom(body, ExportErrorCode.ExportFailed);
}

const isAuthFailure = (error: unknown): error is ApiError => isApiError(error) && (error.status === 401 || error.status === 403);

/** A failed export creation, with the status of the server's answer when there was one. */
function exportFailure(error: unknown): PublishError {
  return new PublishError(toExportError(error), isApiError(error) ? error.status : null);
}

/**
 * POST /api/jobs/export: answered 401 or 403, the token is refreshed once and the
 * same body (same idempotency key) is sent again with the new token. Errors: 'unauthorized'
 * without a token, 'token_refresh_failed' when the refresh fails (with the status of the refusal),
 * else the server's export error ('export_failed' / 'network_error' when it gave none).
 */
export async function createExport(request: ExportRequestInput): Promise<ExportStarted> {
  const token = getSessionToken();
  if (!token) throw publishError(ExportErrorCode.Unauthorized, EXPORT_TOKEN_REQUIRED);
  let refusal: ApiError;
  try {
    return await postExport(request, token);
  } catch (error) {
    if (!isAuthFailure(error)) throw exportFailure(error);
    refusal = error;
  }
  const refreshed = await refreshSessionToken();
  const next = getSessionToken();
  if (!refreshed || !next) throw publishError(ExportErrorCode.TokenRefreshFailed, undefined, refusal.status);
  try {
    return await postExport(request, next);
  } catch (error) {
    throw exportFailure(error);
  }
}

/**
 * The status answer as the dialog reads it: `status` is required, the rest falls back to
 * defaults, so an answer that lacks an optional part (items, timestamps) still drives the dialog.
 */
const statusAnswerSchema = exportJobStatusSchema.partial().required({ status: true });

function statusFrom(jobId: string, answer: ReturnType<typeof statusAnswerSchema.parse>): ExportJobStatus {
  return {
    jobId: answer.jobId ?? jobId,
    status: answer.status,
    progress: answer.progress ?? 0,
    currentStep: answer.currentStep ?? '',
    estimatedCompletion: answer.estimatedCompletion ?? null,
    videoId: answer.videoId ?? '',
    items: answer.items ?? [],
    error: answer.error ?? null,
    retryOf: answer.retryOf ?? null,
    createdAt: answer.createdAt ?? '',
    updatedAt: answer.updatedAt ?? '',
  };
}

/** GET /api/jobs/{id}/status with the session token. */
export async function fetchExportStatus(jobId: string, signal?: AbortSignal): Promise<ExportJobStatus> {
  const token = getSessionToken();
  if (!jobId || !token) throw publishError(ExportErrorCode.InvalidRequest, STATUS_TOKEN_REQUIRED);
  try {
    const body = await apiJson<unknown>(exportStatusPath(jobId), { headers: bearerHeaders(token), signal });
    const parsed = statusAnswerSchema.safeParse(body);
    if (!parsed.success) throw publishError(ExportErrorCode.StatusFetchFailed);
    return statusFrom(jobId, parsed.data);
  } catch (error) {
    throw new PublishError(toExportError(error, ExportErrorCode.StatusFetchFailed));
  }
}

/** POST /api/jobs/{id}/retry with the session token: the new job. */
export async function retryExport(jobId: string): Promise<ExportStarted> {
  const token = getSessionToken();
  if (!token) throw publishError(ExportErrorCode.Unauthorized, EXPORT_TOKEN_REQUIRED);
  try {
    const body = await apiJson<unknown>(exportRetryPath(jobId), { method: 'POST', headers: bearerHeaders(token) });
    return startedFrom(body, ExportErrorCode.RetryFailed);
  } catch (error) {
    throw new PublishError(toExportError(error, ExportErrorCode.RetryFailed));
  }
}

/**
 * POST /api/provider/sessions/{sessionId}/reset {videoId}. Without a token:
 * 'JWT token required'; a failure's message is the server's, else 'Failed to reset session'.
 */
export async function resetSession(sessionId: string, videoId: string): Promise<ResetResponse> {
  const token = getSessionToken();
  if (!token) throw new Error(RESET_TOKEN_REQUIRED);
  try {
    const body = await apiJson<unknown>(resetPath(sessionId), { method: 'POST', headers: bearerHeaders(token), json: { videoId } });
    const parsed = resetResponseSchema.safeParse(body);
    if (!parsed.success) throw new Error(RESET_FAILED_FALLBACK);
    return parsed.data;
  } catch (error) {
    throw new Error(resetFailureMessage(error), { cause: error });
  }
}

/** The server's message of a failed reset, else 'Failed to reset session'. */
export function resetFailureMessage(error: unknown): string {
  if (isApiError(error)) {
    const body = error.body as { message?: unknown } | undefined;
    if (body && typeof body === 'object' && typeof body.message === 'string' && body.message.trim()) return body.message;
  }
  return RESET_FAILED_FALLBACK;
}
