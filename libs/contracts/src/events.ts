import { z } from 'zod';
import { captionStyleSchema } from './caption-style';
import { jobKindSchema, jobStatusSchema, jobStatusValueSchema, probeResultSchema, renderSummarySchema } from './jobs';
import { keyMomentsJobInputSchema } from './keymoments';

/**
 * JetStream streams and the subjects they hold. Subjects here are relative: the messaging
 * library prefixes them with the deployment namespace (`<ns>.<subject>`), and stream
 * names with the upper-cased namespace (`<NS>_<stream>`), so that several stacks
 * (or test runs) share one NATS server without seeing each other.
 */
export const Streams = {
  jobs: { name: 'JOBS', subjects: ['jobs.>'] },
  media: { name: 'MEDIA', subjects: ['media.>'] },
  deadLetter: { name: 'DLQ', subjects: ['dlq.>'] },
  videos: { name: 'VIDEOS', subjects: ['videos.>'] },
  /** every service's error log entries (`logs.errors.<service>`), kept by the analytics service */
  logs: { name: 'LOGS', subjects: ['logs.>'] },
} as const;

export const Subjects = {
  /** gateway -> jobs: a user asked for a job; one subject per job (`jobs.requested.<jobId>`), see jobRequestedSubject */
  jobRequested: 'jobs.requested',
  /** workers -> jobs, analytics: lifecycle of a job */
  jobStarted: 'jobs.events.started',
  jobProgress: 'jobs.events.progress',
  jobCompleted: 'jobs.events.completed',
  jobFailed: 'jobs.events.failed',
  jobCancelled: 'jobs.events.cancelled',
  /** jobs -> media workers (core NATS and the JOBS stream): stop a job (`jobs.cancel.<jobId>`), see jobCancelSubject */
  jobCancel: 'jobs.cancel',
  /** jobs -> media workers: render a version of a video or a clip from its original and an edit */
  mediaRender: 'media.render',
  /** jobs -> media workers: find the key moments of a video version */
  mediaKeyMoments: 'media.keymoments',
  /** media workers -> gateway: key moments found (the gateway stores them, then completes the job) */
  videoKeyMomentsFound: 'videos.keymoments.found',
  /** media workers -> gateway: a render finished (the gateway applies it, then completes the job) */
  videoRenderCompleted: 'videos.render.completed',
  videoRenderFailed: 'videos.render.failed',
  /** core NATS request/reply: gateway -> jobs, a user's recent jobs / cancel a job */
  rpcJobList: 'rpc.jobs.list',
  rpcJobCancel: 'rpc.jobs.cancel',
  /** jobs -> media workers: commands */
  mediaProbe: 'media.probe',
  /** gateway -> media workers: bring a video in (import, probe, transcript, waveform, browser proxy) */
  mediaIngest: 'media.ingest',
  /** media workers -> gateway: ingest lifecycle of a video */
  videoIngestProgress: 'videos.ingest.progress',
  videoIngestCompleted: 'videos.ingest.completed',
  videoIngestFailed: 'videos.ingest.failed',
  /** core NATS request/reply (no stream): gateway -> jobs */
  rpcJobGet: 'rpc.jobs.get',
  /** core NATS request/reply: gateway -> jobs, the job records of videos (a deletion's preview) and removing them */
  rpcJobsOfVideos: 'rpc.jobs.of-videos',
  rpcJobsDeleteOfVideos: 'rpc.jobs.delete-of-videos',
  /** core NATS request/reply: gateway -> jobs, how long recent jobs of a kind and size took */
  rpcJobsEstimate: 'rpc.jobs.estimate',
  /** core NATS request/reply: gateway -> media workers (queue group), ffprobe of an uploaded object */
  rpcMediaProbe: 'rpc.media.probe',
  /** core NATS request/reply: gateway -> media workers, build and store the waveform of a media version */
  rpcMediaWaveform: 'rpc.media.waveform',
  /** every service -> analytics: an error log entry (`logs.errors.<service>`) */
  errorLog: 'logs.errors',
  /** core NATS request/reply: gateway -> analytics, the dashboard's figures and error log */
  rpcAnalyticsWorkers: 'rpc.analytics.workers',
  rpcAnalyticsEvents: 'rpc.analytics.events',
  rpcAnalyticsErrors: 'rpc.analytics.errors',
  rpcAnalyticsErrorsDelete: 'rpc.analytics.errors-delete',
  /** dead letters keep their original subject after this prefix */
  deadLetterPrefix: 'dlq',
} as const;

/**
 * Each request has its own subject so the newest request of a job can be read back from the
 * stream by subject: the job is visible (as pending) from the moment the gateway answers 202,
 * before the jobs service has written its row.
 */
export const jobRequestedSubject = (jobId: string): string => `${Subjects.jobRequested}.${jobId}`;
export const jobCancelSubject = (jobId: string): string => `${Subjects.jobCancel}.${jobId}`;

/** Headers the messaging library sets on every message. */
export const Headers = {
  msgId: 'Nats-Msg-Id',
  correlationId: 'X-Correlation-Id',
  traceparent: 'traceparent',
  tracestate: 'tracestate',
  dlqOriginalSubject: 'WordCut-Original-Subject',
  dlqError: 'WordCut-Error',
  dlqDeliveryCount: 'WordCut-Delivery-Count',
  dlqStream: 'WordCut-Original-Stream',
  dlqConsumer: 'WordCut-Consumer',
} as const;

export const probeJobInputSchema = z.object({
  objectKey: z.string().min(1),
  originalName: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  /** who asked for the probe (the job's owner) */
  userId: z.string().nullable().optional(),
});

const secondsRange = z.object({ start: z.number().nonnegative(), end: z.number().nonnegative() }).refine((r) => r.end > r.start, 'end must be after start');

/** What a media worker needs to render: everything in seconds, segments in source time, the rest in output time. */
export const renderJobInputSchema = z.object({
  videoId: z.string().uuid(),
  userId: z.string().nullable(),
  /** the original media (renders are always made from it) */
  inputKey: z.string().min(1),
  /** where the result goes; keyed by job id so a redelivered job overwrites, never duplicates */
  outputKey: z.string().min(1),
  /** kept source ranges in play order */
  segments: z.array(secondsRange).min(1),
  /** gains on the output timeline (mutes: MUTE_VOLUME of their level) */
  volumes: z.array(z.object({ start: z.number().nonnegative(), end: z.number().nonnegative(), volume: z.number().min(0).max(1) })),
  /** words on the output timeline to burn in as captions, or null */
  captions: z.array(z.object({ text: z.string(), start: z.number(), end: z.number() })).nullable(),
  /** how burned captions look (absent: the default style) */
  captionStyle: captionStyleSchema.nullable().optional(),
  /** clips: the aspect ratio and reframe; null keeps the native frame */
  reframe: z
    .object({
      aspectRatio: z.enum(['16:9', '9:16', '1:1', '4:5', '21:9', 'Original']),
      offsetX: z.number().min(-100).max(100),
      offsetY: z.number().min(-100).max(100),
      scale: z.number().min(0.25).max(4),
    })
    .nullable(),
  /** a short description for logs and the job message */
  summary: z.string(),
});
export type RenderJobInput = z.infer<typeof renderJobInputSchema>;

export const jobRequestedEventSchema = z.object({
  jobId: z.string(),
  kind: jobKindSchema,
  input: z.union([probeJobInputSchema, renderJobInputSchema, keyMomentsJobInputSchema]),
  requestedAt: z.string(),
});
export type JobRequestedEvent = z.infer<typeof jobRequestedEventSchema>;

/** jobs -> media workers (`media.keymoments`, msgId `<jobId>:media.keymoments`). */
export const mediaKeyMomentsCommandSchema = keyMomentsJobInputSchema.extend({ jobId: z.string(), requestedAt: z.string() });
export type MediaKeyMomentsCommand = z.infer<typeof mediaKeyMomentsCommandSchema>;

/** media workers -> gateway: the moments of a job are written at `resultKey`. */
export const keyMomentsFoundEventSchema = z.object({
  jobId: z.string(),
  videoId: z.string(),
  resultKey: z.string(),
  editVersion: z.number().int(),
  transcriptVersion: z.number().int(),
  params: z.string(),
  worker: z.string(),
  at: z.string(),
});
export type KeyMomentsFoundEvent = z.infer<typeof keyMomentsFoundEventSchema>;

export const mediaProbeCommandSchema = z.object({
  jobId: z.string(),
  objectKey: z.string().min(1),
});
export type MediaProbeCommand = z.infer<typeof mediaProbeCommandSchema>;

export const jobStartedEventSchema = z.object({
  jobId: z.string(),
  worker: z.string(),
  attempt: z.number().int().positive(),
  at: z.string(),
});
export type JobStartedEvent = z.infer<typeof jobStartedEventSchema>;

export const jobProgressEventSchema = z.object({
  jobId: z.string(),
  progress: z.number().min(0).max(100),
  message: z.string(),
  estimatedTimeRemaining: z.number().nullable(),
  at: z.string(),
});
export type JobProgressEvent = z.infer<typeof jobProgressEventSchema>;

export const jobCompletedEventSchema = z.object({
  jobId: z.string(),
  result: z.record(z.string(), z.unknown()),
  worker: z.string(),
  at: z.string(),
});
export type JobCompletedEvent = z.infer<typeof jobCompletedEventSchema>;

export const jobFailedEventSchema = z.object({
  jobId: z.string(),
  error: z.string(),
  code: z.string(),
  worker: z.string(),
  at: z.string(),
});
export type JobFailedEvent = z.infer<typeof jobFailedEventSchema>;

export const jobCancelledEventSchema = z.object({ jobId: z.string(), by: z.string().nullable(), at: z.string() });
export type JobCancelledEvent = z.infer<typeof jobCancelledEventSchema>;

/** jobs -> media workers (`media.render`, msgId `<jobId>:media.render`). */
export const mediaRenderCommandSchema = renderJobInputSchema.extend({
  jobId: z.string(),
  kind: jobKindSchema,
  requestedAt: z.string(),
});
export type MediaRenderCommand = z.infer<typeof mediaRenderCommandSchema>;

export const videoRenderCompletedEventSchema = z.object({
  jobId: z.string(),
  videoId: z.string().uuid(),
  kind: jobKindSchema,
  outputKey: z.string(),
  summary: renderSummarySchema,
  worker: z.string(),
  at: z.string(),
});
export type VideoRenderCompletedEvent = z.infer<typeof videoRenderCompletedEventSchema>;

export const videoRenderFailedEventSchema = z.object({
  jobId: z.string(),
  videoId: z.string().uuid(),
  kind: jobKindSchema,
  error: z.string(),
  code: z.string(),
  worker: z.string(),
  at: z.string(),
});
export type VideoRenderFailedEvent = z.infer<typeof videoRenderFailedEventSchema>;

export const rpcJobListRequestSchema = z.object({ userId: z.string().min(1), limit: z.number().int().min(1).max(200).default(50) });
export const rpcJobCancelRequestSchema = z.object({ jobId: z.string(), userId: z.string().nullable() });
/** ok: cancelled now; not_found / forbidden / finished (already terminal, with its status). */
export const rpcJobCancelReplySchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), job: jobStatusSchema }),
  z.object({ ok: z.literal(false), reason: z.enum(['not_found', 'forbidden', 'finished']), status: jobStatusValueSchema.nullable() }),
]);
export type RpcJobCancelReply = z.infer<typeof rpcJobCancelReplySchema>;

export const rpcJobGetRequestSchema = z.object({ jobId: z.string() });
/** The job records of videos: ids, kinds and statuses (a deletion counts and guards with them). */
export const rpcJobsOfVideosRequestSchema = z.object({ videoIds: z.array(z.string().uuid()).min(1).max(100) });
export const rpcJobsOfVideosReplySchema = z.array(z.object({ id: z.string(), videoId: z.string(), kind: z.string(), status: jobStatusValueSchema }));
export type RpcJobsOfVideosReply = z.infer<typeof rpcJobsOfVideosReplySchema>;
/** Removes exactly the named finished job records of these videos; answers how many went. */
export const rpcJobsDeleteOfVideosRequestSchema = z.object({ videoIds: z.array(z.string().uuid()).min(1).max(100), jobIds: z.array(z.string()).max(100000) });
export const rpcJobsDeleteOfVideosReplySchema = z.object({ deleted: z.number().int() });
export type RpcJobGetRequest = z.infer<typeof rpcJobGetRequestSchema>;
/** How long recent completed jobs of a kind took, for media about `sizeSec` long (null: any). */
export const rpcJobsEstimateRequestSchema = z.object({ kind: jobKindSchema, sizeSec: z.number().nonnegative().max(1e7).nullable() });
/** `typicalSec`: their median time from request to completion, null when too few to tell; `basedOn`: how many. */
export const jobEstimateSchema = z.object({ typicalSec: z.number().nonnegative().nullable(), basedOn: z.number().int().nonnegative() });
export type JobEstimate = z.infer<typeof jobEstimateSchema>;

/** Where a video's media comes from for an ingest. */
export const ingestSourceSchema = z.discriminatedUnion('kind', [
  /** already in our bucket (legacy upload): the original media and the VTT */
  z.object({ kind: z.literal('upload'), videoKey: z.string().min(1), vttKey: z.string().min(1).nullable() }),
  /** to be fetched from the provider (session token's media URLs), through the SSRF guard */
  z.object({
    kind: z.literal('provider'),
    videoUrl: z.string().url(),
    vttUrl: z.string().url().optional(),
    wordBywordUrl: z.string().url().optional(),
  }),
]);
export type IngestSource = z.infer<typeof ingestSourceSchema>;

/**
 * gateway -> media workers (`media.ingest`, msgId `<jobId>:media.ingest`): bring a video in.
 * The worker writes under `videos/<videoId>/` (see docs/ARCHITECTURE.md, storage layout).
 */
export const mediaIngestCommandSchema = z.object({
  jobId: z.string(),
  videoId: z.string().uuid(),
  source: ingestSourceSchema,
  /** used when neither the VTT `Language:` header nor the word-by-word file names a language */
  languageHint: z.string().optional(),
  requestedAt: z.string(),
});
export type MediaIngestCommand = z.infer<typeof mediaIngestCommandSchema>;

export const videoIngestProgressEventSchema = z.object({
  jobId: z.string(),
  videoId: z.string().uuid(),
  progress: z.number().min(0).max(100),
  message: z.string(),
  at: z.string(),
});
export type VideoIngestProgressEvent = z.infer<typeof videoIngestProgressEventSchema>;

export const videoIngestCompletedEventSchema = z.object({
  jobId: z.string(),
  videoId: z.string().uuid(),
  /** the original media in our bucket (for provider imports: where the worker stored it) */
  originalKey: z.string(),
  /** browser-playable media: the original itself, or a proxy the worker made (HEVC, no faststart, ...) */
  playbackKey: z.string(),
  /** JSON {languageCode, words, paragraphs, fillerWords} the gateway loads into the transcript */
  transcriptKey: z.string(),
  /** stored peaks of the playback media, null when it has no audio */
  waveformKey: z.string().nullable(),
  probe: probeResultSchema,
  durationSec: z.number().nonnegative(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  hasAudio: z.boolean(),
  sizeBytes: z.number().int().nonnegative(),
  languageCode: z.string(),
  worker: z.string(),
  at: z.string(),
});
export type VideoIngestCompletedEvent = z.infer<typeof videoIngestCompletedEventSchema>;

export const videoIngestFailedEventSchema = z.object({
  jobId: z.string(),
  videoId: z.string().uuid(),
  /** a message for the person (shown as vttError) */
  error: z.string(),
  code: z.string(),
  worker: z.string(),
  at: z.string(),
});
export type VideoIngestFailedEvent = z.infer<typeof videoIngestFailedEventSchema>;

/** rpc.media.probe: probe an object in our bucket. Answer: {ok:true, result} or {ok:false, code, message}. */
export const rpcMediaProbeRequestSchema = z.object({ objectKey: z.string().min(1) });
export const rpcMediaProbeReplySchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), result: probeResultSchema }),
  z.object({ ok: z.literal(false), code: z.string(), message: z.string() }),
]);
export type RpcMediaProbeReply = z.infer<typeof rpcMediaProbeReplySchema>;

/**
 * rpc.media.waveform: build (or rebuild) the stored peaks of a media object, and with `energyKey`
 * its frame-energy series too (one decode for both).
 */
export const rpcMediaWaveformRequestSchema = z.object({ objectKey: z.string().min(1), waveformKey: z.string().min(1), energyKey: z.string().min(1).optional() });
export const rpcMediaWaveformReplySchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), durationSec: z.number().nonnegative(), peakCount: z.number().int().nonnegative() }),
  z.object({ ok: z.literal(false), code: z.string(), message: z.string() }),
]);
export type RpcMediaWaveformReply = z.infer<typeof rpcMediaWaveformReplySchema>;

/** The stored scene changes of a media version: seconds where the picture changes scene (keyframes compared). */
export const sceneChangesSchema = z.object({ version: z.literal(1), method: z.literal('keyframes'), times: z.array(z.number().nonnegative()) });
export type SceneChanges = z.infer<typeof sceneChangesSchema>;
