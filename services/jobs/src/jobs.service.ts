import {
  jobCompletedEventSchema,
  jobFailedEventSchema,
  jobProgressEventSchema,
  jobRequestedEventSchema,
  jobStartedEventSchema,
  mediaProbeCommandSchema,
  rpcJobGetRequestSchema,
  Streams,
  Subjects,
  jobRequestedSubject,
  type JobRequestedEvent,
  type JobStatus,
  type MediaProbeCommand,
} from '@wordcut/contracts';
import type { ConsumerDef, InboundMessage, Messaging } from '@wordcut/messaging';
import { currentCorrelationId, type Logger } from '@wordcut/platform';
import { z } from 'zod';
import type { JobStore } from './job-store';

export const JOBS_CONSUMERS = {
  requests: { stream: Streams.jobs.name, durable: 'jobs-requests', filterSubject: `${Subjects.jobRequested}.>`, ackWaitMs: 30000, maxDeliver: 3 },
  lifecycle: { stream: Streams.jobs.name, durable: 'jobs-lifecycle', filterSubject: 'jobs.events.>', ackWaitMs: 30000, maxDeliver: 3 },
  deadLetters: { stream: Streams.deadLetter.name, durable: 'jobs-dead-letters', filterSubject: 'dlq.media.>', ackWaitMs: 30000, maxDeliver: 3 },
} as const satisfies Record<string, ConsumerDef>;

const deadLetterPayload = z.object({ jobId: z.string() }).passthrough();

/**
 * The jobs service's behaviour: requests become records and worker commands; lifecycle events
 * move records forward (never backward, never twice); dead-lettered commands fail their job.
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
  }

  /**
   * A job's status. A request the gateway has accepted but this service has not recorded yet
   * (milliseconds, or longer while this service was down) is read from the stream and shown
   * as pending, so a client polling right after its 202 never sees a 404.
   */
  async get(jobId: string): Promise<JobStatus | null> {
    const stored = await this.store.get(jobId);
    if (stored) return stored;
    const parsed = jobRequestedEventSchema.safeParse(await this.bus.lastOnSubject(Streams.jobs.name, jobRequestedSubject(jobId)));
    if (!parsed.success) return null;
    const e = parsed.data;
    return {
      id: e.jobId,
      kind: e.kind,
      status: 'pending',
      progress: 0,
      message: 'Waiting for a worker',
      estimatedTimeRemaining: null,
      error: null,
      result: null,
      attempts: 0,
      createdAt: e.requestedAt,
      updatedAt: e.requestedAt,
      completedAt: null,
    };
  }

  async onRequested(e: JobRequestedEvent): Promise<void> {
    const created = await this.store.create({ id: e.jobId, kind: e.kind, input: e.input, correlationId: currentCorrelationId() });
    const command: MediaProbeCommand = mediaProbeCommandSchema.parse({ jobId: e.jobId, objectKey: e.input.objectKey });
    // Published even when the record already existed: a crash between insert and publish must
    // not strand the job, and the stable msgId makes the re-publish a no-op inside the window.
    await this.bus.publish(Subjects.mediaProbe, command, { msgId: `${e.jobId}:${Subjects.mediaProbe}` });
    this.logger.info({ jobId: e.jobId, kind: e.kind, created }, 'job accepted');
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
        const e = jobFailedEventSchema.parse(m.data);
        const won = await this.store.markFailed(e.jobId, e.error, e.worker);
        this.logger.warn({ jobId: e.jobId, error: e.error, applied: won }, 'job failed');
        return;
      }
      default:
        this.logger.debug({ subject: m.subject }, 'ignored lifecycle event');
    }
  }

  private async onDeadLetter(m: InboundMessage<z.infer<typeof deadLetterPayload>>): Promise<void> {
    const won = await this.store.markFailed(m.data.jobId, 'Processing failed after several attempts. Please try again.', null);
    this.logger.error({ jobId: m.data.jobId, subject: m.subject, applied: won }, 'job failed: its command was dead-lettered');
  }
}
