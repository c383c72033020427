import { z } from 'zod';
import { MAX_BULK_DELETE } from './limits';

/** The operator dashboard's HTTP paths (cookie session; never an editor's bearer token). */
export const AnalyticsPaths = {
  status: '/api/analytics/status',
  login: '/api/analytics/login',
  logout: '/api/analytics/logout',
  videos: '/api/analytics/videos',
  bulkPreview: '/api/analytics/videos/bulk-preview',
  bulkDelete: '/api/analytics/videos/bulk-delete',
  deletionPreview: (videoId: string) => `/api/videos/${encodeURIComponent(videoId)}/deletion-preview`,
  deleteVideo: (videoId: string) => `/api/videos/${encodeURIComponent(videoId)}`,
} as const;

/** The operator session cookie (httpOnly, SameSite=Strict). */
export const OPERATOR_COOKIE = 'wordcut_operator';
/** Every state-changing operator call carries the session's CSRF token in this header. */
export const OPERATOR_CSRF_HEADER = 'x-csrf-token';
/** The one answer to a wrong password, an unset one and a throttled client alike. */
export const OPERATOR_ACCESS_DENIED = 'Access denied: Incorrect password';

export const operatorLoginSchema = z.object({ password: z.string().min(1, 'Password is required').max(1024) });
export type OperatorLogin = z.infer<typeof operatorLoginSchema>;

/** `GET /api/analytics/status` and the answer to a login: the CSRF token only while signed in. */
export const operatorStatusSchema = z.object({
  authenticated: z.boolean(),
  csrfToken: z.string().optional(),
  expiresAt: z.string().optional(),
});
export type OperatorStatus = z.infer<typeof operatorStatusSchema>;

export const ANALYTICS_PAGE_SIZES = [10, 20, 50, 100] as const;
export const ANALYTICS_DEFAULT_PAGE_SIZE = 20;
export const VIDEO_SORTS = ['newest', 'oldest', 'name-asc', 'name-desc', 'size-desc', 'size-asc'] as const;
export type VideoSort = (typeof VIDEO_SORTS)[number];
export const VIDEO_STATUS_FILTERS = ['all', 'uploaded', 'processing', 'completed', 'failed'] as const;
export type VideoStatusFilter = (typeof VIDEO_STATUS_FILTERS)[number];
/** The user filter's value for videos without an owner. */
export const UNKNOWN_USER_FILTER = 'unknown';

const pageSize = z.coerce
  .number()
  .int()
  .refine((n) => (ANALYTICS_PAGE_SIZES as readonly number[]).includes(n), 'limit must be 10, 20, 50 or 100');

export const analyticsVideoQuerySchema = z.object({
  search: z.string().trim().max(200).optional().default(''),
  /** 'all', 'unknown' (no owner) or an owner id */
  userId: z.string().trim().max(600).optional().default('all'),
  status: z.enum(VIDEO_STATUS_FILTERS).optional().default('all'),
  sortBy: z.enum(VIDEO_SORTS).optional().default('newest'),
  page: z.coerce.number().int().min(1).max(100000).optional().default(1),
  limit: pageSize.optional().default(ANALYTICS_DEFAULT_PAGE_SIZE),
});
export type AnalyticsVideoQuery = z.infer<typeof analyticsVideoQuerySchema>;

export const analyticsVideoRowSchema = z.object({
  id: z.string(),
  originalName: z.string(),
  title: z.string(),
  userId: z.string().nullable(),
  createdAt: z.string(),
  duration: z.number().nullable(),
  fileSize: z.number().nullable(),
  status: z.enum(['uploaded', 'processing', 'completed', 'failed']),
  transcriptCount: z.number().int(),
  clipCount: z.number().int(),
  keyMomentCount: z.number().int(),
});
export type AnalyticsVideoRow = z.infer<typeof analyticsVideoRowSchema>;

export const paginationSchema = z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), totalPages: z.number().int() });
export type Pagination = z.infer<typeof paginationSchema>;

export const analyticsVideoPageSchema = z.object({
  videos: z.array(analyticsVideoRowSchema),
  pagination: paginationSchema,
  /** owners to offer in the user filter (most videos first, at most 100) */
  users: z.array(z.string()),
});
export type AnalyticsVideoPage = z.infer<typeof analyticsVideoPageSchema>;

/** One stored object a deletion removes. */
export const storedObjectSchema = z.object({ key: z.string(), size: z.number() });

/** What deleting one video removes: its rows by table, and every object under its storage prefix. */
export const deletionPreviewSchema = z.object({
  video: z.object({ id: z.string(), originalName: z.string(), title: z.string(), userId: z.string().nullable() }),
  transcripts: z.number().int(),
  transcriptWords: z.number().int(),
  clips: z.number().int(),
  keyMoments: z.number().int(),
  /** renders that burned captions */
  captionJobs: z.number().int(),
  /** renders that reordered paragraphs */
  reorderJobs: z.number().int(),
  /** every render (edits, captions, reorders, clips) */
  renders: z.number().int(),
  silenceAnalyses: z.number().int(),
  /** job records of the jobs service */
  jobs: z.number().int(),
  files: z.array(z.string()),
  objects: z.array(storedObjectSchema),
  totalSize: z.number(),
});
export type DeletionPreview = z.infer<typeof deletionPreviewSchema>;

export const bulkDeletionPreviewSchema = z.object({
  videos: z.array(deletionPreviewSchema),
  totalTranscripts: z.number().int(),
  totalClips: z.number().int(),
  totalKeyMoments: z.number().int(),
  totalCaptionJobs: z.number().int(),
  totalReorderJobs: z.number().int(),
  totalRenders: z.number().int(),
  totalSilenceAnalyses: z.number().int(),
  totalJobs: z.number().int(),
  totalFiles: z.array(z.string()),
  totalSize: z.number(),
});
export type BulkDeletionPreview = z.infer<typeof bulkDeletionPreviewSchema>;

/** ids: at most MAX_BULK_DELETE */
const videoIds = z.array(z.string().uuid()).min(1).max(MAX_BULK_DELETE);
export const bulkPreviewQuerySchema = z.object({
  ids: z
    .string()
    .transform((s) => [...new Set(s.split(',').map((id) => id.trim()).filter(Boolean))])
    .pipe(videoIds),
});
export const bulkDeleteSchema = z.object({ videoIds: videoIds.transform((ids) => [...new Set(ids)]) });

/** The answer to a deletion: the videos gone, with what went with them. */
export const deletionResultSchema = z.object({
  deleted: z.array(z.string()),
  objects: z.number().int(),
  message: z.string(),
});
export type DeletionResult = z.infer<typeof deletionResultSchema>;

// ---------------------------------------------------------------------------------------------
// Figures: GET /api/metrics (every 30 s) and GET /api/analytics/lambda-metrics (every 60 s)

export const OperatorPaths = {
  metrics: '/api/metrics',
  workerMetrics: '/api/analytics/lambda-metrics',
  errors: '/api/analytics/errors',
  errorsBulkDelete: '/api/analytics/errors/bulk-delete',
  failedWebhooks: '/api/analytics/webhooks/failed',
  retryWebhook: (jobId: string) => `/api/analytics/webhooks/${encodeURIComponent(jobId)}/retry`,
  webhooksBulkDelete: '/api/analytics/webhooks/bulk-delete',
} as const;

/** Dead letters above these counts colour the dead-letter figure yellow, then red. */
export const DEAD_LETTER_WARNING = 10;
export const DEAD_LETTER_CRITICAL = 50;
/** How many deliveries a message gets before it is dead-lettered (the consumers' MaxDeliver). */
export const DELIVERIES_BEFORE_DEAD_LETTER = 3;

export const queueHealthSchema = z.enum(['healthy', 'degraded', 'unhealthy', 'unknown']);
export const workQueueHealthSchema = z.enum(['healthy', 'warning', 'critical']);

const consumerStatsSchema = z.object({
  /** the durable consumer's name */
  name: z.string(),
  /** delivered, not yet acknowledged */
  active: z.number().int(),
  /** stored, not yet delivered */
  waiting: z.number().int(),
  /** dead-lettered after the last delivery */
  failed: z.number().int(),
});

export const metricsSchema = z.object({
  features: z.object({
    /** the durable job queue (JetStream here; the key keeps the dashboard's name) */
    REDIS_QUEUE: z.boolean(),
    ENABLE_ANALYTICS: z.boolean(),
  }),
  queue: z.object({
    health: z.object({ status: queueHealthSchema, message: z.string().optional() }),
    runtimeMode: z.string(),
    configMode: z.string(),
    redisActive: z.boolean(),
    stats: z.object({ active: z.number().int(), waiting: z.number().int(), failed: z.number().int() }),
    consumers: z.array(consumerStatsSchema),
  }),
  system: z.object({
    nodeVersion: z.string(),
    platform: z.string(),
    memory: z.object({ used: z.number(), total: z.number(), unit: z.literal('MB') }),
    /** seconds */
    uptime: z.number(),
  }),
  /** the media work queue (the dashboard's "cloud message queue" section) */
  sqs: z.object({
    enabled: z.boolean(),
    name: z.string(),
    deadLetterName: z.string(),
    health: z.object({ status: workQueueHealthSchema }),
    mainQueue: z.object({
      approximateNumberOfMessages: z.number().int(),
      approximateNumberOfMessagesNotVisible: z.number().int(),
      approximateNumberOfMessagesDelayed: z.number().int(),
    }),
    deadLetterQueue: z.object({ approximateNumberOfMessages: z.number().int() }),
  }),
  /** publishing to the provider over the last 24 h (the export service's records) */
  providerIntegration: z.object({
    error: z.string().nullable(),
    last24h: z.object({ total: z.number().int(), completed: z.number().int(), processing: z.number().int(), failed: z.number().int(), successRate: z.number() }),
    webhooks: z.object({ successRate: z.number(), pendingRetries: z.number().int() }),
    performance: z.object({ avgProcessingTimeSeconds: z.number() }),
    recentFailures: z.array(z.object({ errorCode: z.string(), jobId: z.string(), errorMessage: z.string(), failedAt: z.string() })),
  }),
  analytics: z.object({
    enabled: z.boolean(),
    error: z.string().nullable(),
    summary: z.object({ todayCount: z.number().int(), weekCount: z.number().int() }),
    last7Days: z.array(z.object({ metricName: z.string(), value: z.number() })),
  }),
});
export type Metrics = z.infer<typeof metricsSchema>;
export type ProviderIntegrationHealth = Metrics['providerIntegration'];
export type AnalyticsEventSummary = Omit<Metrics['analytics'], 'enabled' | 'error'>;

export const workerMetricsQuerySchema = z.object({ periodMinutes: z.coerce.number().int().min(5).max(1440).optional().default(60) });

/** The media worker pool over a period (the dashboard's "serverless worker" section). */
export const workerMetricsSchema = z.object({
  enabled: z.boolean(),
  functionName: z.string(),
  runtime: z.string(),
  /** each worker's configured memory, MB */
  memorySize: z.number(),
  /** a job's time limit, seconds */
  timeout: z.number(),
  metrics: z.object({
    invocations: z.object({ total: z.number().int(), period: z.string() }),
    errors: z.object({ total: z.number().int(), errorRate: z.number() }),
    /** milliseconds */
    duration: z.object({ average: z.number(), maximum: z.number() }),
    /** the most jobs running at once in the period */
    concurrentExecutions: z.number().int(),
    /** jobs that waited for a free worker */
    throttles: z.number().int(),
  }),
  cost: z.object({
    period: z.string(),
    requestCost: z.number(),
    computeCost: z.number(),
    totalCost: z.number(),
    currency: z.literal('USD'),
    pricePerMillionRequests: z.number(),
    pricePerGbSecond: z.number(),
  }),
  recentErrors: z.array(z.object({ requestId: z.string(), jobId: z.string(), timestamp: z.string(), message: z.string() })),
});
export type WorkerMetrics = z.infer<typeof workerMetricsSchema>;

// ---------------------------------------------------------------------------------------------
// Error logs (every service's error and fatal entries, kept by the analytics service)

export const ERROR_SEVERITIES = ['error', 'warn', 'fatal'] as const;
export type ErrorSeverity = (typeof ERROR_SEVERITIES)[number];

/** One log entry a service reports to the error log (subject logs.errors.<service>). */
export const errorLogEntrySchema = z.object({
  id: z.string().uuid(),
  service: z.string().min(1).max(100),
  severity: z.enum(ERROR_SEVERITIES),
  message: z.string().max(4000),
  /** the HTTP route or message subject being handled, when known */
  endpoint: z.string().max(500).nullable(),
  correlationId: z.string().max(200).nullable(),
  at: z.string(),
});
export type ErrorLogEntry = z.infer<typeof errorLogEntrySchema>;

export const errorLogQuerySchema = z.object({
  severity: z.enum(['all', ...ERROR_SEVERITIES]).optional().default('all'),
  page: z.coerce.number().int().min(1).max(100000).optional().default(1),
  limit: pageSize.optional().default(ANALYTICS_DEFAULT_PAGE_SIZE),
});
export type ErrorLogQuery = z.infer<typeof errorLogQuerySchema>;

export const errorLogRowSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  severity: z.enum(ERROR_SEVERITIES),
  service: z.string(),
  endpoint: z.string().nullable(),
  message: z.string(),
  correlationId: z.string().nullable(),
});
export type ErrorLogRow = z.infer<typeof errorLogRowSchema>;
export const errorLogPageSchema = z.object({ errors: z.array(errorLogRowSchema), pagination: paginationSchema });
export type ErrorLogPage = z.infer<typeof errorLogPageSchema>;

/** ids: at most MAX_BULK_DELETE */
const bulkIds = z.array(z.string().uuid()).min(1).max(MAX_BULK_DELETE);
export const errorLogBulkDeleteSchema = z.object({ errorIds: bulkIds.transform((ids) => [...new Set(ids)]) });
export const bulkDeleteCountSchema = z.object({ deleted: z.number().int() });
export type BulkDeleteCount = z.infer<typeof bulkDeleteCountSchema>;

// ---------------------------------------------------------------------------------------------
// Failed webhooks (provider events the export service could not apply after its last delivery)

export const failedWebhookQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100000).optional().default(1),
  limit: pageSize.optional().default(ANALYTICS_DEFAULT_PAGE_SIZE),
});
export type FailedWebhookQuery = z.infer<typeof failedWebhookQuerySchema>;

export const failedWebhookRowSchema = z.object({
  /** the failed record's id (the key of retry and delete) */
  jobId: z.string(),
  /** the export job the event belongs to, when its upload is known */
  exportJobId: z.string().nullable(),
  userId: z.string().nullable(),
  eventType: z.string(),
  /** when the provider's event arrived */
  createdAt: z.string(),
  failedAt: z.string(),
  webhookRetryCount: z.number().int(),
  webhookDetails: z.object({
    /** the original error, after the last delivery */
    error: z.string().nullable(),
    /** the error of the latest retry from the dashboard, if one failed */
    latestRetryError: z.string().nullable(),
    webhookUrl: z.string(),
    /** the event's signature, masked; present when the event can be retried */
    jwtTokenMasked: z.string().nullable(),
    payload: z.unknown(),
    failedAt: z.string(),
  }),
});
export type FailedWebhookRow = z.infer<typeof failedWebhookRowSchema>;
export const failedWebhookPageSchema = z.object({ webhooks: z.array(failedWebhookRowSchema), pagination: paginationSchema });
export type FailedWebhookPage = z.infer<typeof failedWebhookPageSchema>;

/** The outcome of a retry: applied (the record is gone) or failed again (the error is kept). */
export const webhookRetryResultSchema = z.object({ jobId: z.string(), succeeded: z.boolean(), error: z.string().nullable() });
export type WebhookRetryResult = z.infer<typeof webhookRetryResultSchema>;
export const webhookBulkDeleteSchema = z.object({ jobIds: bulkIds.transform((ids) => [...new Set(ids)]) });
