import {
  jobCancelledEventSchema,
  jobCancelSubject,
  jobCompletedEventSchema,
  jobFailedEventSchema,
  jobProgressEventSchema,
  jobRequestedEventSchema,
  jobRequestedSubject,
  jobStartedEventSchema,
  mediaProbeCommandSchema,
  mediaKeyMomentsCommandSchema,
  mediaRenderCommandSchema,
  rpcJobCancelRequestSchema,
  rpcJobGetRequestSchema,
  rpcJobsDeleteOfVideosRequestSchema,
  rpcJobsOfVideosRequestSchema,
  rpcJobListRequestSchema,
  rpcJobsEstimateRequestSchema,
  Streams,
  Subjects,
  type JobCancelledEvent,
  type JobFailedEvent,
  type JobRequestedEvent,
  type JobStatus,
  type MediaProbeCommand,
  type MediaKeyMomentsCommand,
  type MediaRenderCommand,
  type RpcJobCancelReply,
  Consumers,
} from '@wordcut/contracts';
import { RetryLaterError, type ConsumerDef, type InboundMessage, type Messaging } from '@wordcut/messaging';
import { currentCorrelationId, type Logger } from '@wordcut/platform';
import { z } from 'zod';
import { interpretJobInput, jobOwner, type JobInput } from './job-input';
import { typicalSeconds } from './estimate';
import { isTerminal, type JobStore } from './job-store';

export const JOBS_CONSUMERS = {
  requests: Consumers.jobsRequests,
  lifecycle: Consumers.jobsLifecycle,
  deadLetters: Consumers.jobsDeadLetters,
} as const satisfies Record<string, ConsumerDef>;

/** The `worker` of the failure events this service publishes itself. */
export const JOBS_WORKER = 'jobs';
/** Code of the failure event published when a job's command was dead-lettered. */
export const DEAD_LETTERED_CODE = 'DEAD_LETTERED';
export const INVALID_INPUT_CODE = 'INVALID_INPUT';
const DEAD_LETTER_MESSAGE = 'Processing failed after several attempts. Please try again.';
/**
 * A worker reports its own failure just before its last delivery is dead-lettered, on another
 * stream: a dead letter of a job still running waits this long, so that report lands first and
 * the job keeps the real error.
 */
export const DEAD_LETTER_GRACE_MS = 2000;
const INVALID_INPUT_MESSAGE = 'This job could not be started: its request was invalid.';

/** Payload of `jobs.cancel.<jobId>` (core NATS and the JOBS stream): media workers stop the job. */
export interface JobCancelMessage {
  jobId: string;
  at: string;
}

/** Every dead-lettered media command names its job (media.probe, media.render; media.ingest jobs are not ours and match no row). */
const deadLetterPayload = z.object({ jobId: z.string() }).passthrough();
type RpcJobListRequest = z.infer<typeof rpcJobListRequestSchema>;
type RpcJobCancelRequest = z.infer<typeof rpcJobCancelRequestSchema>;

/**
 * The jobs service's behaviour: requests become records and worker commands (probe jobs
 * `media.probe`, every other kind `media.render`); lifecycle events move records forward
 * (never backward, never twice); dead-lettered commands fail their job and say so on
 * `jobs.events.failed`; owners cancel their unfinished jobs (`rpc.jobs.cancel`) and list their
 * recent ones (`rpc.jobs.list`).
 */
export class JobsService {
  constructor(
    private readonly bus: Messaging,
    private readonly store: JobStore,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    await this.bus.provision([Streams.jobs, Streams.media], Object.values(JOBS_CONSUMERS));
    await this.bus.consume({ consumer: JOBS_CONSUMERS.requests, schema: jobRequestedEventSchema, handler: (m) => this.onRequested(m.data) });
    await this.bus.consume({ consumer: JOBS_CONSUMERS.lifecycle, schema: z.unknown(), handler: (m) => this.onLifecycle(m), concurrency: 4 });
    await this.bus.consume({ consumer: JOBS_CONSUMERS.deadLetters, schema: deadLetterPayload, handler: (m) => this.onDeadLetter(m) });
    this.bus.serve(Subjects.rpcJobGet, rpcJobGetRequestSchema, (req) => this.get(req.jobId));
    this.bus.serve(Subjects.rpcJobList, rpcJobListRequestSchema, (req) => this.list(req));
    this.bus.serve(Subjects.rpcJobCancel, rpcJobCancelRequestSchema, (req) => this.cancel(req));
    this.bus.serve(Subjects.rpcJobsOfVideos, rpcJobsOfVideosRequestSchema, (req) => this.store.ofVideos(req.videoIds));
    this.bus.serve(Subjects.rpcJobsEstimate, rpcJobsEstimateRequestSchema, async (req) => typicalSeconds(await this.store.recentDurations(req.kind), req.sizeSec));
    this.bus.serve(Subjects.rpcJobsDeleteOfVideos, rpcJobsDeleteOfVideosRequestSchema, async (req) => ({ deleted: await this.store.deleteOfVideos(req.videoIds, req.jobIds) }));
  }

  /**
   * A job's status. A request the gateway has accepted but this service has not recorded yet
   * (milliseconds, or longer while this service was down) is read from the stream and shown
   * as pending, so a client polling right after its 202 never sees a 404.
   */
  async get(jobId: string): Promise<JobStatus | null> {
    const stored = await this.store.get(jobId);
    if (stored) return stored;
    const e = await this.requestedOnStream(jobId);
    if (!e) return null;
    return {
      id: e.jobId,
      kind: e.kind,
      status: 'pending',
      progress: 0,
      message: 'Waiting for a worker',
      estimatedTimeRemaining: null,
      error: null,
      result: null,
      ...jobOwner(e.kind, e.input),
      attempts: 0,
      createdAt: e.requestedAt,
      updatedAt: e.requestedAt,
      completedAt: null,
    };
  }

  /** A user's jobs of the last 24 hours, newest first (recorded jobs only). */
  async list(req: RpcJobListRequest): Promise<JobStatus[]> {
    return this.store.listForUser(req.userId, req.limit);
  }

  /**
   * Cancels a job for its owner. A cancel can overtake the request it cancels (the request is
   * on the stream, not yet recorded): the record is made from the stream first, so the later
   * request finds the job cancelled and dispatches nothing. The transition and both messages
   * (`jobs.events.cancelled` for listeners, `jobs.cancel.<id>` for the worker running it) are
   * one unit: a publish that fails rolls the cancel back and the caller may retry.
   */
  async cancel(req: RpcJobCancelRequest): Promise<RpcJobCancelReply> {
    let job = await this.store.get(req.jobId);
    if (!job) {
      const requested = await this.requestedOnStream(req.jobId);
      if (!requested) return { ok: false, reason: 'not_found', status: null };
      await this.record(requested);
      job = await this.store.get(req.jobId);
      if (!job) return { ok: false, reason: 'not_found', status: null };
    }
    // only the owner cancels; a job without an owner is nobody's to cancel
    if (job.userId === null || job.userId !== req.userId) return { ok: false, reason: 'forbidden', status: null };
    if (isTerminal(job.status)) return { ok: false, reason: 'finished', status: job.status };

    const at = new Date().toISOString();
    const won = await this.store.markCancelled(job.id, async () => {
      const event: JobCancelledEvent = jobCancelledEventSchema.parse({ jobId: job.id, by: req.userId, at });
      const stop: JobCancelMessage = { jobId: job.id, at };
      await this.bus.publish(Subjects.jobCancelled, event, { msgId: `${job.id}:cancelled` });
      await this.bus.publish(jobCancelSubject(job.id), stop, { msgId: `${job.id}:cancel` });
    });
    const now = await this.store.get(job.id);
    if (!won || !now) return { ok: false, reason: 'finished', status: now?.status ?? null };
    this.logger.info({ jobId: job.id, kind: job.kind, by: req.userId, from: job.status }, 'job cancelled');
    return { ok: true, job: now };
  }

  async onRequested(e: JobRequestedEvent): Promise<void> {
    const created = await this.record(e);
    const parsed = interpretJobInput(e.kind, e.input);
    if (!parsed.ok) {
      const applied = await this.store.markFailed(e.jobId, INVALID_INPUT_MESSAGE, JOBS_WORKER, () =>
        this.publishFailed(e.jobId, INVALID_INPUT_MESSAGE, INVALID_INPUT_CODE),
      );
      this.logger.error({ jobId: e.jobId, kind: e.kind, applied, detail: parsed.error }, 'job failed: invalid input for its kind');
      return;
    }
    // Dispatched even when the record already existed (a crash between insert and publish must
    // not strand the job; the stable msgId makes the re-publish a no-op inside the window), but
    // only while the job is pending: never for a job cancelled (or finished) in the meantime.
    const dispatched = await this.store.whilePending(e.jobId, () => this.dispatch(e, parsed.value));
    this.logger.info({ jobId: e.jobId, kind: e.kind, created, dispatched }, 'job accepted');
  }

  async onLifecycle(m: InboundMessage<unknown>): Promise<void> {
    switch (m.subject) {
      case Subjects.jobStarted: {
        const e = jobStartedEventSchema.parse(m.data);
        await this.store.markStarted(e.jobId, e.attempt, e.worker);
        return;
      }
      case Subjects.jobProgress: {
        const e = jobProgressEventSchema.parse(m.data);
        await this.store.markProgress(e.jobId, e.progress, e.message, e.estimatedTimeRemaining);
        return;
      }
      case Subjects.jobCompleted: {
        const e = jobCompletedEventSchema.parse(m.data);
        const won = await this.store.markCompleted(e.jobId, e.result, e.worker);
        this.logger.info({ jobId: e.jobId, worker: e.worker, applied: won }, 'job completed');
        return;
      }
      case Subjects.jobFailed: {
        // also our own dead-letter and invalid-input failures: already applied, so a no-op
        const e = jobFailedEventSchema.parse(m.data);
        const won = await this.store.markFailed(e.jobId, e.error, e.worker);
        this.logger.warn({ jobId: e.jobId, error: e.error, applied: won }, 'job failed');
        return;
      }
      case Subjects.jobCancelled: {
        // Published by cancel() inside its transaction, so normally already applied (a no-op);
        // applying it keeps the record right should that transaction fail after the publish.
        const e = jobCancelledEventSchema.parse(m.data);
        const won = await this.store.markCancelled(e.jobId);
        this.logger.debug({ jobId: e.jobId, applied: won }, 'job cancelled event');
        return;
      }
      default:
        this.logger.debug({ subject: m.subject }, 'ignored lifecycle event');
    }
  }

  /**
   * A command no worker could handle fails its job, once: when a worker already reported the
   * failure (or the job finished or was cancelled) the guarded update loses and nothing is
   * published. Otherwise listeners (the gateway holds a per-video lock until it hears) learn
   * about it from a `jobs.events.failed` of our own.
   */
  private async onDeadLetter(m: InboundMessage<z.infer<typeof deadLetterPayload>>): Promise<void> {
    const jobId = m.data.jobId;
    const job = await this.store.get(jobId);
    if (job && isTerminal(job.status)) {
      this.logger.info({ jobId, status: job.status, subject: m.subject }, 'dead letter of a finished job: its worker already reported');
      return;
    }
    if (m.deliveryCount === 1) throw new RetryLaterError(`job ${jobId} dead-lettered: giving its worker's own failure report time to arrive`, DEAD_LETTER_GRACE_MS);
    const won = await this.store.markFailed(jobId, DEAD_LETTER_MESSAGE, null, () => this.publishFailed(jobId, DEAD_LETTER_MESSAGE, DEAD_LETTERED_CODE));
    this.logger.error({ jobId, subject: m.subject, applied: won }, 'job failed: its command was dead-lettered');
  }

  private async publishFailed(jobId: string, error: string, code: string): Promise<void> {
    const event: JobFailedEvent = { jobId, error, code, worker: JOBS_WORKER, at: new Date().toISOString() };
    await this.bus.publish(Subjects.jobFailed, event, { msgId: `${jobId}:failed:${code}` });
  }

  /** Writes the job's record (idempotent); true when this call created it. */
  private async record(e: JobRequestedEvent): Promise<boolean> {
    return this.store.create({ id: e.jobId, kind: e.kind, input: e.input, ...jobOwner(e.kind, e.input), correlationId: currentCorrelationId() });
  }

  private async dispatch(e: JobRequestedEvent, job: JobInput): Promise<void> {
    if (job.family === 'probe') {
      const command: MediaProbeCommand = mediaProbeCommandSchema.parse({ jobId: e.jobId, objectKey: job.input.objectKey });
      await this.bus.publish(Subjects.mediaProbe, command, { msgId: `${e.jobId}:${Subjects.mediaProbe}` });
      return;
    }
    if (job.family === 'keymoments') {
      const command: MediaKeyMomentsCommand = mediaKeyMomentsCommandSchema.parse({ ...job.input, jobId: e.jobId, requestedAt: e.requestedAt });
      await this.bus.publish(Subjects.mediaKeyMoments, command, { msgId: `${e.jobId}:${Subjects.mediaKeyMoments}` });
      return;
    }
    const command: MediaRenderCommand = mediaRenderCommandSchema.parse({ ...job.input, jobId: e.jobId, kind: e.kind, requestedAt: e.requestedAt });
    await this.bus.publish(Subjects.mediaRender, command, { msgId: `${e.jobId}:${Subjects.mediaRender}` });
  }

  private async requestedOnStream(jobId: string): Promise<JobRequestedEvent | null> {
    const parsed = jobRequestedEventSchema.safeParse(await this.bus.lastOnSubject(Streams.jobs.name, jobRequestedSubject(jobId)));
    return parsed.success && parsed.data.jobId === jobId ? parsed.data : null;
  }
}
