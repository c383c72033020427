import type { ErrorLogPage, ErrorLogRow, FailedWebhookPage, FailedWebhookRow, Metrics, WorkerMetrics } from '@wordcut/contracts';

/** Fake answers and sample payloads for the dashboard's specs (typed against the contract). */

/** A time m minutes (and a few seconds) before now, so it reads "m minutes ago". */
export const minutesAgo = (m: number): string => new Date(Date.now() - m * 60_000 - 5_000).toISOString();

export const json = (status: number, body: unknown): Response =>
  ({ ok: status >= 200 && status < 300, status, statusText: String(status), json: async () => body, text: async () => JSON.stringify(body) }) as unknown as Response;

export type Handler = (init?: RequestInit, url?: string) => Response | Promise<Response>;
export type Routes = Record<string, Handler>;

/** A fetch that answers by "METHOD /path" (query left out); an unanswered call rejects. */
export function router(routes: Routes): (url: string, init?: RequestInit) => Promise<Response> {
  return async (url, init) => {
    const key = `${init?.method ?? 'GET'} ${url.split('?')[0]}`;
    const handler = routes[key];
    if (!handler) throw new Error(`unexpected call ${key}`);
    return handler(init, url);
  };
}

export function sampleMetrics(): Metrics {
  return {
    features: { REDIS_QUEUE: true, ENABLE_ANALYTICS: true },
    queue: {
      health: { status: 'healthy' },
      runtimeMode: 'jetstream',
      configMode: 'cluster',
      redisActive: true,
      stats: { active: 3, waiting: 12, failed: 1 },
      consumers: [{ name: 'media-render', active: 2, waiting: 10, failed: 1 }],
    },
    system: { nodeVersion: 'v22.11.0', platform: 'linux', memory: { used: 512, total: 2048, unit: 'MB' }, uptime: 3_725 },
    sqs: {
      enabled: true,
      name: 'MEDIA_WORK',
      deadLetterName: 'MEDIA_DEAD',
      health: { status: 'healthy' },
      mainQueue: { approximateNumberOfMessages: 7, approximateNumberOfMessagesNotVisible: 2, approximateNumberOfMessagesDelayed: 1 },
      deadLetterQueue: { approximateNumberOfMessages: 0 },
    },
    providerIntegration: {
      error: null,
      last24h: { total: 40, completed: 36, processing: 2, failed: 2, successRate: 94.7368 },
      webhooks: { successRate: 98.5, pendingRetries: 2 },
      performance: { avgProcessingTimeSeconds: 12.34 },
      recentFailures: [{ errorCode: 'UPLOAD_REJECTED', jobId: 'abcdef123456-7890', errorMessage: 'The provider refused the file', failedAt: minutesAgo(3) }],
    },
    analytics: {
      enabled: true,
      error: null,
      summary: { todayCount: 17, weekCount: 1_234 },
      last7Days: [
        { metricName: 'video_uploaded', value: 40 },
        { metricName: 'clip_exported', value: 12 },
      ],
    },
  };
}

export function sampleWorkerMetrics(): WorkerMetrics {
  return {
    enabled: true,
    functionName: 'wordcut-media-workers',
    runtime: 'node22',
    memorySize: 2048,
    timeout: 900,
    metrics: {
      invocations: { total: 1_250, period: 'last 60 minutes' },
      errors: { total: 5, errorRate: 0.4 },
      duration: { average: 12_345.6, maximum: 45_000 },
      concurrentExecutions: 4,
      throttles: 0,
    },
    cost: {
      period: 'last 60 minutes',
      requestCost: 0.00025,
      computeCost: 0.51234,
      totalCost: 0.51259,
      currency: 'USD',
      pricePerMillionRequests: 0.2,
      pricePerGbSecond: 0.0000166667,
    },
    recentErrors: [{ requestId: 'req-0123456789abcdef', jobId: 'job-1', timestamp: minutesAgo(5), message: 'ffmpeg exited with 1' }],
  };
}

export const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export function errorLog(n: number, extra: Partial<ErrorLogRow> = {}): ErrorLogRow {
  return { id: uuid(n), createdAt: minutesAgo(n), severity: 'error', service: 'gateway', endpoint: '/api/videos', message: `boom ${n}`, correlationId: null, ...extra };
}

export function errorLogPage(errors: ErrorLogRow[], total = errors.length, page = 1, limit = 20): ErrorLogPage {
  return { errors, pagination: { page, limit, total, totalPages: Math.ceil(total / limit) } };
}

export function failedWebhook(n: number, extra: Partial<FailedWebhookRow['webhookDetails']> = {}): FailedWebhookRow {
  return {
    jobId: `wh${n}-${uuid(n)}`,
    exportJobId: null,
    userId: 'wordcut:owner',
    eventType: 'upload.completed',
    createdAt: minutesAgo(30),
    failedAt: minutesAgo(10),
    webhookRetryCount: 1,
    webhookDetails: {
      error: `original failure ${n}`,
      latestRetryError: null,
      webhookUrl: 'https://provider.example/hooks/wordcut',
      jwtTokenMasked: 'eyJh…c2ln',
      payload: { videoId: `v${n}`, status: 'done' },
      failedAt: minutesAgo(10),
      ...extra,
    },
  };
}

export function webhookPage(webhooks: FailedWebhookRow[], total = webhooks.length, page = 1, limit = 20): FailedWebhookPage {
  return { webhooks, pagination: { page, limit, total, totalPages: Math.ceil(total / limit) } };
}

/** What the dashboard's other calls answer when a spec is about one section. */
export function dashboardRoutes(): Routes {
  return {
    'GET /api/metrics': () => json(200, sampleMetrics()),
    'GET /api/analytics/lambda-metrics': () => json(200, sampleWorkerMetrics()),
    'GET /api/analytics/errors': () => json(200, errorLogPage([])),
    'GET /api/analytics/webhooks/failed': () => json(200, webhookPage([])),
    'GET /api/analytics/videos': () => json(200, { videos: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 }, users: [] }),
  };
}
