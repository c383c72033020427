import {
  captionWarningSchema,
  ErrorCode,
  mediaIngestCommandSchema,
  Streams,
  Subjects,
  videoIngestCompletedEventSchema,
  videoIngestFailedEventSchema,
  videoIngestProgressEventSchema,
  wordSchema,
  paragraphSchema,
  type IngestSource,
  type MediaIngestCommand,
  Consumers,
} from '@wordcut/contracts';
import type { ConsumerDef, InboundMessage, Messaging } from '@wordcut/messaging';
import { AppError, type Logger } from '@wordcut/platform';
import type { ObjectStorage } from '@wordcut/storage';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import type { TranscriptStore } from '../transcripts/transcript-store';
import type { VideoStore } from './video-store';

export const INGEST_JOB_PREFIX = 'ingest_';

export const GATEWAY_CONSUMERS = {
  ingestEvents: Consumers.gatewayIngest,
  ingestDeadLetters: Consumers.gatewayIngestDeadLetters,
} as const satisfies Record<string, ConsumerDef>;

const storedTranscriptSchema = z.object({
  languageCode: z.string(),
  words: z.array(wordSchema),
  paragraphs: z.array(paragraphSchema),
  fillerWords: z.array(z.number().int().nonnegative()),
  warnings: z.array(captionWarningSchema).default([]),
});

/**
 * The gateway's side of ingest: it asks media workers to bring a video in (`media.ingest`)
 * and applies what they report (`videos.ingest.*`) to the video and its transcript. A command
 * that exhausted its deliveries (dead-lettered) fails its video with a message for the person.
 */
export class IngestCoordinator {
  constructor(
    private readonly ds: DataSource,
    private readonly bus: Messaging,
    private readonly storage: ObjectStorage,
    private readonly videos: VideoStore,
    private readonly transcripts: TranscriptStore,
    private readonly logger: Logger,
  ) {}

  static newJobId(): string {
    return `${INGEST_JOB_PREFIX}${randomUUID()}`;
  }

  async start(): Promise<void> {
    await this.bus.provision([Streams.videos, Streams.media, Streams.deadLetter], Object.values(GATEWAY_CONSUMERS));
    await this.bus.consume({ consumer: GATEWAY_CONSUMERS.ingestEvents, schema: z.unknown(), handler: (m) => this.onEvent(m), concurrency: 4 });
    await this.bus.consume({ consumer: GATEWAY_CONSUMERS.ingestDeadLetters, schema: mediaIngestCommandSchema, handler: (m) => this.onDeadLetter(m) });
  }

  /** Publishes the command; 503 when the queue is unreachable (the caller cleans up). */
  async request(jobId: string, videoId: string, source: IngestSource, languageHint?: string): Promise<void> {
    const command: MediaIngestCommand = { jobId, videoId, source, languageHint, requestedAt: new Date().toISOString() };
    try {
      await this.bus.publish(Subjects.mediaIngest, command, { msgId: `${jobId}:${Subjects.mediaIngest}` });
    } catch (err) {
      this.logger.error({ err, videoId, jobId }, 'could not publish ingest command');
      throw new AppError(503, ErrorCode.ServiceUnavailable, 'Video processing is unavailable right now. Please try again in a moment.');
    }
  }

  async onEvent(m: InboundMessage<unknown>): Promise<void> {
    switch (m.subject) {
      case Subjects.videoIngestProgress: {
        const e = videoIngestProgressEventSchema.parse(m.data);
        await this.videos.ingestProgress(e.videoId, e.jobId, e.progress);
        return;
      }
      case Subjects.videoIngestFailed: {
        const e = videoIngestFailedEventSchema.parse(m.data);
        const applied = await this.videos.ingestFailed(e.videoId, e.jobId, e.error);
        this.logger.warn({ videoId: e.videoId, jobId: e.jobId, code: e.code, error: e.error, applied }, 'video ingest failed');
        return;
      }
      case Subjects.videoIngestCompleted: {
        const e = videoIngestCompletedEventSchema.parse(m.data);
        const { body } = await this.storage.getStream(e.transcriptKey);
        const chunks: Buffer[] = [];
        for await (const c of body) chunks.push(c as Buffer);
        const transcript = storedTranscriptSchema.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        const applied = await this.ds.transaction(async (tx) => {
          if (!(await this.videos.ingestCompleted(tx, e))) return false;
          await this.transcripts.replaceForVideo(tx, e.videoId, transcript);
          return true;
        });
        this.logger.info({ videoId: e.videoId, jobId: e.jobId, words: transcript.words.length, applied }, 'video ingest completed');
        return;
      }
      default:
        this.logger.debug({ subject: m.subject }, 'ignored video event');
    }
  }

  private async onDeadLetter(m: InboundMessage<MediaIngestCommand>): Promise<void> {
    const applied = await this.videos.ingestFailed(m.data.videoId, m.data.jobId, 'Processing failed after several attempts. Please try again.');
    this.logger.error({ videoId: m.data.videoId, jobId: m.data.jobId, applied }, 'video ingest dead-lettered');
  }
}
