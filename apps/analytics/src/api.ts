import {
  AnalyticsPaths,
  OPERATOR_CSRF_HEADER,
  OperatorPaths,
  type AnalyticsVideoPage,
  type BulkDeleteCount,
  type BulkDeletionPreview,
  type DeletionPreview,
  type DeletionResult,
  type ErrorLogPage,
  type FailedWebhookPage,
  type Metrics,
  type OperatorStatus,
  type WebhookRetryResult,
  type WorkerMetrics,
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
  /** every query of the dashboard (the status too) */
  all: ['analytics'] as const,
  status: ['analytics', 'status'] as const,
  videos: (query: string) => ['analytics', 'videos', query] as const,
  allVideos: ['analytics', 'videos'] as const,
  metrics: ['analytics', 'metrics'] as const,
  workerMetrics: (periodMinutes: number) => ['analytics', 'worker-metrics', periodMinutes] as const,
  errors: (query: string) => ['analytics', 'errors', query] as const,
  allErrors: ['analytics', 'errors'] as const,
  webhooks: (query: string) => ['analytics', 'webhooks', query] as const,
  allWebhooks: ['analytics', 'webhooks'] as const,
};

/** Polling: the metrics every 30 s, the worker figures every 60 s (and on Refresh), over the last 60 minutes. */
export const METRICS_REFRESH_MS = 30_000;
export const WORKER_METRICS_REFRESH_MS = 60_000;
export const WORKER_METRICS_PERIOD_MINUTES = 60;

export const fetchStatus = async (): Promise<OperatorStatus> => rememberSession(await operatorJson<OperatorStatus>(AnalyticsPaths.status));
export const login = async (password: string): Promise<OperatorStatus> => rememberSession(await operatorJson<OperatorStatus>(AnalyticsPaths.login, { method: 'POST', json: { password } }));
export const logout = async (): Promise<OperatorStatus> => rememberSession(await operatorJson<OperatorStatus>(AnalyticsPaths.logout, { method: 'POST' }));
export const fetchVideos = (query: string): Promise<AnalyticsVideoPage> => operatorJson(`${AnalyticsPaths.videos}?${query}`);
export const fetchDeletionPreview = (videoId: string): Promise<DeletionPreview> => operatorJson(AnalyticsPaths.deletionPreview(videoId));
export const deleteVideo = (videoId: string): Promise<DeletionResult> => operatorJson(AnalyticsPaths.deleteVideo(videoId), { method: 'DELETE' });
export const fetchBulkPreview = (ids: readonly string[]): Promise<BulkDeletionPreview> => operatorJson(`${AnalyticsPaths.bulkPreview}?ids=${ids.map(encodeURIComponent).join(',')}`);
export const bulkDelete = (videoIds: readonly string[]): Promise<DeletionResult> => operatorJson(AnalyticsPaths.bulkDelete, { method: 'POST', json: { videoIds } });
export const fetchMetrics = (): Promise<Metrics> => operatorJson(OperatorPaths.metrics);
export const fetchWorkerMetrics = (periodMinutes: number = WORKER_METRICS_PERIOD_MINUTES): Promise<WorkerMetrics> =>
  operatorJson(`${OperatorPaths.workerMetrics}?periodMinutes=${periodMinutes}`);
export const fetchErrorLogs = (query: string): Promise<ErrorLogPage> => operatorJson(`${OperatorPaths.errors}?${query}`);
export const bulkDeleteErrorLogs = (errorIds: readonly string[]): Promise<BulkDeleteCount> => operatorJson(OperatorPaths.errorsBulkDelete, { method: 'POST', json: { errorIds } });
export const fetchFailedWebhooks = (query: string): Promise<FailedWebhookPage> => operatorJson(`${OperatorPaths.failedWebhooks}?${query}`);
export const retryWebhook = (jobId: string): Promise<WebhookRetryResult> => operatorJson(OperatorPaths.retryWebhook(jobId), { method: 'POST' });
export const bulkDeleteWebhooks = (jobIds: readonly string[]): Promise<BulkDeleteCount> => operatorJson(OperatorPaths.webhooksBulkDelete, { method: 'POST', json: { jobIds } });
