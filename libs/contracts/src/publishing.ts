import { z } from 'zod';
import { MAX_EDIT_RANGES, MAX_EXPORT_CLIPS } from './limits';
import { muteLevelSchema } from './mute-levels';
import { planSchema } from './provider';

/**
 * Publishing to the provider: the export request, export job status, export errors,
 * token refresh, clone and session reset answers, the provider's webhook events, and the NATS
 * messages between the gateway and the export service. docs/PUBLISHING.md tells the whole flow.
 */

export const EXPORT_ASPECT_RATIOS = ['16:9', '9:16', '1:1', '4:5', '21:9', 'Original'] as const;

/**
 * How deep a mute segment goes (the editor's three mute levels). Optional in the
 * request: a segment with start/end only is silence; the editor sends the level
 * of each pending mute so a whisper or background mute that was never processed is published as one.
 */
export const exportMuteLevelSchema = muteLevelSchema;
export type ExportMuteLevel = z.infer<typeof exportMuteLevelSchema>;

/** POST /api/jobs/export body: at most MAX_EDIT_RANGES mute segments and MAX_EXPORT_CLIPS clips. */
export const exportRequestSchema = z
  .object({
    videoId: z.string().uuid(),
    sessionId: z.string().min(1).max(200),
    saveMainVideo: z.boolean(),
    saveVtt: z.boolean(),
    mainVideoEdits: z
      .object({
        muteSegments: z
          .array(
            z
              .object({ start: z.number().nonnegative(), end: z.number().nonnegative(), level: exportMuteLevelSchema.optional() })
              .refine((s) => s.end > s.start, 'a mute segment must end after it starts'),
          )
          .max(MAX_EDIT_RANGES, `At most ${MAX_EDIT_RANGES} mute segments can be published at once.`)
          .default([]),
        captionsEnabled: z.boolean().default(false),
        effectsApplied: z.array(z.string()).max(0, 'no effects are supported').default([]),
      })
      .default({ muteSegments: [], captionsEnabled: false, effectsApplied: [] }),
    clips: z
      .array(
        z.object({
          clipId: z.string().uuid(),
          clipIndex: z.number().int().nonnegative(),
          aspectRatio: z.enum(EXPORT_ASPECT_RATIOS).default('16:9'),
          duration: z.number().nonnegative(),
        }),
      )
      .max(MAX_EXPORT_CLIPS, `At most ${MAX_EXPORT_CLIPS} clips can be published at once.`)
      .default([]),
    /** Stripe-style: the same key returns the first answer; 8-255 printable characters */
    idempotencyKey: z.string().regex(/^[\x21-\x7e]{8,255}$/, 'idempotencyKey must be 8-255 printable characters'),
    /** cloned videos: the new video's token, used instead of the Authorization header's */
    token: z.string().min(1).optional(),
  })
  .refine((r) => r.saveMainVideo || r.saveVtt || r.clips.length > 0, { message: 'Please select at least one item to export', path: ['saveMainVideo'] });
export type ExportRequest = z.infer<typeof exportRequestSchema>;
export type ExportRequestInput = z.input<typeof exportRequestSchema>;

export const exportStatusValueSchema = z.enum(['queued', 'processing', 'completed', 'failed']);
export type ExportStatusValue = z.infer<typeof exportStatusValueSchema>;

export const exportItemTypeSchema = z.enum(['main_video', 'vtt', 'word_by_word', 'clip']);
export type ExportItemType = z.infer<typeof exportItemTypeSchema>;

export const exportItemStatusSchema = z.enum(['pending', 'uploading', 'uploaded', 'failed']);

/** One uploaded (or to-be-uploaded) file of an export. */
export const exportItemSchema = z.object({
  type: exportItemTypeSchema,
  /** the clip id for clips, else the type */
  id: z.string(),
  name: z.string(),
  status: exportItemStatusSchema,
  bytes: z.number().int().nonnegative().nullable(),
  providerVideoId: z.string().nullable(),
  /** set once the provider's signed webhook confirmed it processed the upload */
  providerConfirmed: z.boolean(),
  error: z.string().nullable(),
});
export type ExportItem = z.infer<typeof exportItemSchema>;

/** Export error: error is the code (quota_exceeded, unauthorized, export_failed, ...). */
export const exportErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
  details: z.string().optional(),
  retryAfter: z.number().int().positive().optional(),
  upgradeUrl: z.string().url().optional(),
  /** export_in_progress: the video's export that is still running (the browser follows it) */
  jobId: z.string().optional(),
});
export type ExportError = z.infer<typeof exportErrorSchema>;

/** GET /api/jobs/{id}/status for export jobs. */
export const exportJobStatusSchema = z.object({
  jobId: z.string(),
  status: exportStatusValueSchema,
  /** 0-100 */
  progress: z.number().min(0).max(100),
  currentStep: z.string(),
  /** ISO time; null while unknown */
  estimatedCompletion: z.string().nullable(),
  videoId: z.string(),
  items: z.array(exportItemSchema),
  error: exportErrorSchema.nullable(),
  /** the job this one retries, if any */
  retryOf: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ExportJobStatus = z.infer<typeof exportJobStatusSchema>;

/** POST /api/jobs/export and POST /api/jobs/{id}/retry success (202). */
export const exportCreatedSchema = z.object({
  jobId: z.string(),
  status: exportStatusValueSchema,
  itemCount: z.number().int().nonnegative(),
  quota: z.lazy(() => quotaUsageSchema),
});
export type ExportCreated = z.infer<typeof exportCreatedSchema>;

/** Server-counted export usage against the plan. null max = unlimited. */
export const quotaUsageSchema = z.object({
  exportsToday: z.number().int().nonnegative(),
  maxPerDay: z.number().int().nullable(),
  exportsThisMonth: z.number().int().nonnegative(),
  maxPerMonth: z.number().int().nullable(),
  /** ISO: next UTC midnight / first of next month (UTC) */
  nextDailyReset: z.string(),
  nextMonthlyReset: z.string(),
});
export type QuotaUsage = z.infer<typeof quotaUsageSchema>;

export const mediaUrlsSchema = z.object({
  video: z.string().url().optional(),
  vtt: z.string().url().optional(),
  wordByword: z.string().url().optional(),
});
export type MediaUrls = z.infer<typeof mediaUrlsSchema>;

/** POST /api/wordcut/refresh-token answer, plus the server's count of usage. */
export const refreshTokenResponseSchema = z.object({
  newToken: z.string(),
  newUploadUrls: mediaUrlsSchema.optional(),
  newDownloadUrls: mediaUrlsSchema.optional(),
  plan: planSchema,
  usage: quotaUsageSchema,
  languageCode: z.string().optional(),
});
export type RefreshTokenResponse = z.infer<typeof refreshTokenResponseSchema>;

/** POST /api/wordcut/clone body and answer. */
export const cloneRequestSchema = z.object({ videoId: z.string().uuid() });
export const cloneResponseSchema = z.object({
  token: z.string(),
  sessionId: z.string(),
  providerVideoId: z.string(),
});
export type CloneResponse = z.infer<typeof cloneResponseSchema>;

/** POST /api/provider/sessions/{sessionId}/reset answer. */
export const resetResponseSchema = z.object({
  success: z.literal(true),
  filesUpdated: z.object({ video: z.boolean(), transcript: z.boolean() }),
  message: z.string(),
  /** the provider still holds what was published before the revert (publishing puts the original back) */
  providerHasEdits: z.boolean().optional(),
  /** the revert as a step between edit versions (undo shows the version before again) */
  version: z.object({ before: z.number().int().nonnegative(), after: z.number().int().nonnegative() }).optional(),
});
export type ResetResponse = z.infer<typeof resetResponseSchema>;

/** The provider's signed webhook event (header `Provider-Signature: t=<unix>,v1=<hex hmac>`). */
export const providerWebhookEventSchema = z.object({
  id: z.string().min(1).max(200),
  type: z.enum(['upload.completed', 'video.ready', 'upload.failed']),
  createdAt: z.string(),
  data: z.object({
    sessionId: z.string(),
    uploadId: z.string(),
    kind: z.string(),
    providerVideoId: z.string().nullable(),
    bytes: z.number().int().nonnegative().optional(),
    sha256: z.string().optional(),
  }),
});
export type ProviderWebhookEvent = z.infer<typeof providerWebhookEventSchema>;

// ---------------------------------------------------------------------------------------------
// gateway <-> export service (NATS)

/** What the gateway has verified about the caller (from the session token). */
export const exportCallerSchema = z.object({
  userId: z.string(),
  plan: planSchema,
  sessionId: z.string(),
  providerVideoId: z.string(),
  /** the caller's token: the export service presents it to the provider (its upload URLs are in it) */
  token: z.string(),
  uploadUrls: z.object({ video: z.string().url().optional(), vtt: z.string().url().optional(), wordByword: z.string().url().optional() }),
});
export type ExportCaller = z.infer<typeof exportCallerSchema>;

/** rpc.export.create (gateway -> export): verified caller + validated request. */
export const rpcExportCreateSchema = z.object({
  caller: exportCallerSchema,
  request: z.custom<ExportRequest>((v) => typeof v === 'object' && v !== null),
  /** names for the items, resolved by the gateway (video title, clip names) */
  names: z.object({ mainVideo: z.string(), clips: z.record(z.string(), z.string()) }),
  /** the mute render the gateway started for this export: the job waits for it before its first run */
  renderJobId: z.string().nullable().optional(),
});
export type RpcExportCreate = z.infer<typeof rpcExportCreateSchema>;

/** A domain refusal carried over NATS (the HTTP status and the export error body). */
export const exportRefusalSchema = exportErrorSchema.extend({ status: z.number().int() });
export type ExportRefusal = z.infer<typeof exportRefusalSchema>;

export const rpcExportCreateReplySchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), created: exportCreatedSchema, replayed: z.boolean() }),
  z.object({ ok: z.literal(false), refusal: exportRefusalSchema }),
]);
export type RpcExportCreateReply = z.infer<typeof rpcExportCreateReplySchema>;

/** rpc.export.status / rpc.export.retry (gateway -> export). */
export const rpcExportJobRequestSchema = z.object({ jobId: z.string(), caller: exportCallerSchema });
export const rpcExportStatusReplySchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), status: exportJobStatusSchema }),
  z.object({ ok: z.literal(false), refusal: exportRefusalSchema }),
]);
export const rpcExportRetryReplySchema = rpcExportCreateReplySchema;

/** rpc.export.quota (gateway -> export): the caller's usage against the plan. */
export const rpcExportQuotaRequestSchema = z.object({ userId: z.string(), plan: planSchema });

/**
 * rpc.library.export-sources (export -> gateway): what to upload. The gateway first applies mute
 * segments the current version lacks (a 'mute' render job; renderJobId is then set and the export
 * waits for it and asks again).
 */
export const rpcExportSourcesRequestSchema = z.object({
  exportJobId: z.string(),
  videoId: z.string().uuid(),
  userId: z.string(),
  muteSegments: z.array(z.object({ start: z.number(), end: z.number(), level: exportMuteLevelSchema.optional() })),
  mainVideo: z.boolean(),
  vtt: z.boolean(),
  clipIds: z.array(z.string().uuid()),
});
export type RpcExportSourcesRequest = z.infer<typeof rpcExportSourcesRequestSchema>;
export const exportSourceSchema = z.object({ key: z.string(), contentType: z.string(), name: z.string() });
export const rpcExportSourcesReplySchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('rendering'), renderJobId: z.string() }),
  z.object({
    state: z.literal('ready'),
    mainVideo: exportSourceSchema.nullable(),
    vtt: exportSourceSchema.nullable(),
    wordByword: exportSourceSchema.nullable(),
    clips: z.array(exportSourceSchema.extend({ clipId: z.string() })),
  }),
  z.object({ state: z.literal('refused'), message: z.string() }),
]);
export type RpcExportSourcesReply = z.infer<typeof rpcExportSourcesReplySchema>;

/** export -> gateway (stream EXPORT): an item reached the provider (or failed). */
export const exportItemUploadedEventSchema = z.object({
  exportJobId: z.string(),
  videoId: z.string().uuid(),
  type: exportItemTypeSchema,
  clipId: z.string().uuid().nullable(),
  status: z.enum(['uploaded', 'failed']),
  providerVideoId: z.string().nullable(),
});
export type ExportItemUploadedEvent = z.infer<typeof exportItemUploadedEventSchema>;

export const ExportSubjects = {
  /** export -> export workers (work queue): run an export job, `export.run.<jobId>` */
  run: 'export.run',
  /** export -> gateway: an item's upload result */
  itemUploaded: 'export.events.item',
  /** export webhook receiver -> export workers: a verified provider webhook to apply */
  webhook: 'export.webhooks.provider',
  rpcCreate: 'rpc.export.create',
  rpcStatus: 'rpc.export.status',
  rpcRetry: 'rpc.export.retry',
  rpcQuota: 'rpc.export.quota',
  rpcSources: 'rpc.library.export-sources',
  /** gateway -> export, for the operators' dashboard: publishing health, failed webhooks, their retry and deletion */
  rpcHealth: 'rpc.export.health',
  rpcFailedWebhooks: 'rpc.export.failed-webhooks',
  rpcRetryWebhook: 'rpc.export.retry-webhook',
  rpcDeleteWebhooks: 'rpc.export.delete-webhooks',
} as const;
export const ExportStream = { name: 'EXPORT', subjects: ['export.>'] } as const;

/** Export job ids carry this prefix (Active Jobs reads kinds from id prefixes). */
export const EXPORT_JOB_PREFIX = 'export_';
