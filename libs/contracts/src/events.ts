import { z } from 'zod';
import { jobKindSchema, probeResultSchema } from './jobs';

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
} as const;

export const Subjects = {
  /** gateway -> jobs: a user asked for a job; one subject per job (`jobs.requested.<jobId>`), see jobRequestedSubject */
  jobRequested: 'jobs.requested',
  /** workers -> jobs, analytics: lifecycle of a job */
  jobStarted: 'jobs.events.started',
  jobProgress: 'jobs.events.progress',
  jobCompleted: 'jobs.events.completed',
  jobFailed: 'jobs.events.failed',
  /** jobs -> media workers: commands */
  mediaProbe: 'media.probe',
  /** core NATS request/reply (no stream): gateway -> jobs */
  rpcJobGet: 'rpc.jobs.get',
  /** dead letters keep their original subject after this prefix */
  deadLetterPrefix: 'dlq',
} as const;

/**
 * Each request has its own subject so the newest request of a job can be read back from the
 * stream by subject: the job is visible (as pending) from the moment the gateway answers 202,
 * before the jobs service has written its row.
 */
export const jobRequestedSubject = (jobId: string): string => `${Subjects.jobRequested}.${jobId}`;

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

export const jobRequestedEventSchema = z.object({
  jobId: z.string(),
  kind: jobKindSchema,
  input: z.object({
    objectKey: z.string().min(1),
    originalName: z.string(),
    sizeBytes: z.number().int().nonnegative(),
  }),
  requestedAt: z.string(),
});
export type JobRequestedEvent = z.infer<typeof jobRequestedEventSchema>;

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
  result: probeResultSchema,
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

export const rpcJobGetRequestSchema = z.object({ jobId: z.string() });
export type RpcJobGetRequest = z.infer<typeof rpcJobGetRequestSchema>;
