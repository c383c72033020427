import {
  Streams,
  Subjects,
  type JobCompletedEvent,
  type JobFailedEvent,
  type JobStartedEvent,
  type MediaProbeCommand,
  mediaProbeCommandSchema,
  Consumers,
  withDelivery,
} from '@wordcut/contracts';
import { MediaProbeError, type MediaTools } from '@wordcut/ffmpeg';
import type { ConsumerDef, InboundMessage, Messaging } from '@wordcut/messaging';
import type { Logger } from '@wordcut/platform';
import { ObjectNotFoundError, type ObjectStorage } from '@wordcut/storage';
import { isHostileRefusal } from './ingest-failure';

export interface ProbeWorkerOptions {
  workerId: string;
  concurrency: number;
  ackWaitMs: number;
  maxDeliver: number;
  probeTimeoutMs: number;
  faultDelayMs: number;
}

export const probeConsumer = (o: Pick<ProbeWorkerOptions, 'ackWaitMs' | 'maxDeliver'>): ConsumerDef => withDelivery(Consumers.mediaProbe, o);

/**
 * Runs ffprobe on the object a probe command names, reading it from S3 through a presigned
 * URL (no local copy), and reports started / completed / failed events. Outcomes that a retry
 * cannot change (not a media file, object gone) are reported as failures and acknowledged;
 * anything else is thrown so JetStream redelivers it.
 */
export class ProbeWorker {
  constructor(
    private readonly bus: Messaging,
    private readonly storage: ObjectStorage,
    private readonly tools: MediaTools,
    private readonly logger: Logger,
    private readonly options: ProbeWorkerOptions,
  ) {}

  async start(): Promise<void> {
    const consumer = probeConsumer(this.options);
    await this.bus.provision([Streams.jobs, Streams.media], [consumer]);
    this.bus.watchMaxDeliveries(consumer);
    await this.bus.consume({ consumer, schema: mediaProbeCommandSchema, concurrency: this.options.concurrency, handler: (m) => this.handle(m) });
  }

  async handle(m: InboundMessage<MediaProbeCommand>): Promise<void> {
    const { jobId, objectKey } = m.data;
    const started: JobStartedEvent = { jobId, worker: this.options.workerId, attempt: m.deliveryCount, at: new Date().toISOString() };
    await this.bus.publish(Subjects.jobStarted, started, { msgId: `${jobId}:started:${m.deliveryCount}` });
    this.logger.info({ jobId, objectKey, attempt: m.deliveryCount }, 'probe started');
    if (this.options.faultDelayMs > 0) await new Promise((r) => setTimeout(r, this.options.faultDelayMs));

    try {
      if (!(await this.storage.head(objectKey))) throw new ObjectNotFoundError(this.storage.bucket, objectKey);
      const url = await this.storage.presignGet(objectKey, Math.ceil(this.options.probeTimeoutMs / 1000) + 60);
      const result = await this.tools.probe(url, { timeoutMs: this.options.probeTimeoutMs });
      const done: JobCompletedEvent = { jobId, result, worker: this.options.workerId, at: new Date().toISOString() };
      await this.bus.publish(Subjects.jobCompleted, done, { msgId: `${jobId}:completed` });
      this.logger.info({ jobId, durationSec: result.durationSec, streams: result.streams.length }, 'probe completed');
      await this.discard(jobId, objectKey);
    } catch (err) {
      if (err instanceof MediaProbeError || err instanceof ObjectNotFoundError) {
        const failed: JobFailedEvent = {
          jobId,
          error: err instanceof ObjectNotFoundError ? 'The uploaded file is no longer available.' : err.message,
          code: err instanceof ObjectNotFoundError ? 'NOT_FOUND' : 'UNSUPPORTED_MEDIA',
          worker: this.options.workerId,
          at: new Date().toISOString(),
        };
        await this.bus.publish(Subjects.jobFailed, failed, { msgId: `${jobId}:failed` });
        this.logger.warn({ jobId, error: failed.error, ...(err instanceof MediaProbeError && isHostileRefusal(err.code) ? { report: true } : {}) }, 'probe failed');
        await this.discard(jobId, objectKey);
        return;
      }
      // the last delivery: the job fails (dead letter), so its upload goes now
      if (m.deliveryCount >= this.options.maxDeliver) await this.discard(jobId, objectKey);
      throw err;
    }
  }

  /** A probe upload lives only as long as its job. */
  private async discard(jobId: string, objectKey: string): Promise<void> {
    await this.storage.delete(objectKey).catch((err: unknown) => this.logger.warn({ err, jobId, objectKey }, 'probe upload not deleted'));
  }
}
