import { z } from 'zod';

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
  userId: z.string().trim().max(300).optional().default('all'),
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

export const MAX_BULK_DELETE = 100;
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
