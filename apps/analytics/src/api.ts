import {
  AnalyticsPaths,
  OPERATOR_CSRF_HEADER,
  type AnalyticsVideoPage,
  type BulkDeletionPreview,
  type DeletionPreview,
  type DeletionResult,
  type OperatorStatus,
} from '@wordcut/contracts';
import { throwIfNotOk } from '@wordcut/ui';

/**
 * The operator's calls: the session cookie only (never the editor's bearer token, so a browser
 * that also edits stays an operator here), and the session's CSRF token on every state-changing call.
 */
let csrfToken: string | null = null;

/** Remembers the CSRF token the status or the login answered. */
export function rememberSession(status: OperatorStatus): OperatorStatus {
  csrfToken = status.authenticated ? (status.csrfToken ?? null) : null;
  return status;
}

async function operatorJson<T>(path: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers[OPERATOR_CSRF_HEADER] = csrfToken;
  const res = await fetch(path, { method, headers, credentials: 'same-origin', body: init.json === undefined ? undefined : JSON.stringify(init.json) });
  await throwIfNotOk(res);
  return (await res.json()) as T;
}

export const ANALYTICS_KEYS = {
  status: ['analytics', 'status'] as const,
  videos: (query: string) => ['analytics', 'videos', query] as const,
  allVideos: ['analytics', 'videos'] as const,
};

export const fetchStatus = async (): Promise<OperatorStatus> => rememberSession(await operatorJson<OperatorStatus>(AnalyticsPaths.status));
export const login = async (password: string): Promise<OperatorStatus> => rememberSession(await operatorJson<OperatorStatus>(AnalyticsPaths.login, { method: 'POST', json: { password } }));
export const logout = async (): Promise<OperatorStatus> => rememberSession(await operatorJson<OperatorStatus>(AnalyticsPaths.logout, { method: 'POST' }));
export const fetchVideos = (query: string): Promise<AnalyticsVideoPage> => operatorJson(`${AnalyticsPaths.videos}?${query}`);
export const fetchDeletionPreview = (videoId: string): Promise<DeletionPreview> => operatorJson(AnalyticsPaths.deletionPreview(videoId));
export const deleteVideo = (videoId: string): Promise<DeletionResult> => operatorJson(AnalyticsPaths.deleteVideo(videoId), { method: 'DELETE' });
export const fetchBulkPreview = (ids: readonly string[]): Promise<BulkDeletionPreview> => operatorJson(`${AnalyticsPaths.bulkPreview}?ids=${ids.map(encodeURIComponent).join(',')}`);
export const bulkDelete = (videoIds: readonly string[]): Promise<DeletionResult> => operatorJson(AnalyticsPaths.bulkDelete, { method: 'POST', json: { videoIds } });
