import {
  bulkDeleteCountSchema,
  DEAD_LETTER_CRITICAL,
  DEAD_LETTER_WARNING,
  ErrorCode,
  errorLogPageSchema,
  ExportSubjects,
  failedWebhookPageSchema,
  metricsSchema,
  Streams,
  Subjects,
  webhookRetryResultSchema,
  workerMetricsSchema,
  type BulkDeleteCount,
  type ErrorLogPage,
  type ErrorLogQuery,
  type FailedWebhookPage,
  type FailedWebhookQuery,
  type Metrics,
  type WebhookRetryResult,
  type WorkerMetrics,
  consumersOf,
} from '@wordcut/contracts';
import { consumerFigures, storedCount, type ConsumerFigures, type Messaging } from '@wordcut/messaging';
import { AppError } from '@wordcut/platform';
import { totalmem } from 'node:os';
import { z } from 'zod';

/** The media workers' durable consumers: the work queue the dashboard watches. */
export const MEDIA_CONSUMERS = consumersOf('media').map((c) => c.durable);
const MEDIA_DEAD_LETTERS = `${Subjects.deadLetterPrefix}.media.>`;
const RPC_TIMEOUT_MS = 4000;
const MB = 1024 * 1024;

const analyticsAnswerSchema = metricsSchema.shape.analytics.omit({ error: true });

/**
 * The operators' figures and lists, gathered from where they live: JetStream (queue and dead
 * letters), the analytics service (worker pool, events, error log) and the export service
 * (publishing health, failed webhooks). A part that does not answer is reported in its section,
 * never as a failure of the whole page.
 */
export class OperatorFigures {
  constructor(
    private readonly bus: Messaging,
    private readonly settings: { workQueueMetrics: boolean },
  ) {}

  async metrics(): Promise<Metrics> {
    const [queue, provider, analytics] = await Promise.all([this.queue(), this.providerIntegration(), this.analytics()]);
    const memory = process.memoryUsage();
    const deadLetters = queue.deadLetters;
    return metricsSchema.parse({
      features: { REDIS_QUEUE: true, ENABLE_ANALYTICS: analytics.enabled },
      queue: {
        health: queue.health,
        runtimeMode: 'jetstream',
        configMode: 'durable pull consumers',
        redisActive: queue.health.status !== 'unhealthy',
        stats: { active: sum(queue.consumers, 'ackPending'), waiting: sum(queue.consumers, 'pending'), failed: deadLetters },
        consumers: queue.consumers.map((c) => ({ name: c.name, active: c.ackPending, waiting: c.pending, failed: c.deadLetters })),
      },
      system: {
        nodeVersion: process.version,
        platform: `${process.platform} ${process.arch}`,
        memory: { used: Math.round(memory.rss / MB), total: Math.round(totalmem() / MB), unit: 'MB' },
        uptime: Math.floor(process.uptime()),
      },
      sqs: {
        enabled: this.settings.workQueueMetrics,
        name: this.bus.streamName(Streams.media.name),
        deadLetterName: this.bus.streamName(Streams.deadLetter.name),
        health: { status: queue.health.status === 'unhealthy' || deadLetters > DEAD_LETTER_CRITICAL ? 'critical' : deadLetters > DEAD_LETTER_WARNING || queue.health.status === 'degraded' ? 'warning' : 'healthy' },
        mainQueue: {
          approximateNumberOfMessages: sum(queue.consumers, 'pending'),
          approximateNumberOfMessagesNotVisible: sum(queue.consumers, 'ackPending'),
          approximateNumberOfMessagesDelayed: sum(queue.consumers, 'redelivered'),
        },
        deadLetterQueue: { approximateNumberOfMessages: deadLetters },
      },
      providerIntegration: provider,
      analytics,
    });
  }

  workers(periodMinutes: number): Promise<WorkerMetrics> {
    return this.ask('The analytics service', Subjects.rpcAnalyticsWorkers, { periodMinutes }, workerMetricsSchema);
  }

  errors(q: ErrorLogQuery): Promise<ErrorLogPage> {
    return this.ask('The analytics service', Subjects.rpcAnalyticsErrors, q, errorLogPageSchema);
  }

  deleteErrors(errorIds: string[]): Promise<BulkDeleteCount> {
    return this.ask('The analytics service', Subjects.rpcAnalyticsErrorsDelete, { errorIds }, bulkDeleteCountSchema);
  }

  failedWebhooks(q: FailedWebhookQuery): Promise<FailedWebhookPage> {
    return this.ask('The export service', ExportSubjects.rpcFailedWebhooks, q, failedWebhookPageSchema);
  }

  async retryWebhook(id: string): Promise<WebhookRetryResult> {
    const result = await this.ask('The export service', ExportSubjects.rpcRetryWebhook, { id }, webhookRetryResultSchema.nullable());
    if (!result) throw new AppError(404, ErrorCode.NotFound, `There is no failed webhook with id '${id}'.`);
    return result;
  }

  deleteWebhooks(jobIds: string[]): Promise<BulkDeleteCount> {
    return this.ask('The export service', ExportSubjects.rpcDeleteWebhooks, { jobIds }, bulkDeleteCountSchema);
  }

  /** JetStream's health and the media consumers' figures, with each consumer's dead letters. */
  private async queue(): Promise<{ health: Metrics['queue']['health']; consumers: Array<ConsumerFigures & { deadLetters: number }>; deadLetters: number }> {
    try {
      await this.bus.ping();
      const found = await Promise.all(MEDIA_CONSUMERS.map((d) => consumerFigures(this.bus, Streams.media.name, d)));
      const consumers = await Promise.all(
        found.filter((c): c is ConsumerFigures => c !== null).map(async (c) => ({ ...c, deadLetters: await storedCount(this.bus, Streams.deadLetter.name, `${Subjects.deadLetterPrefix}.${subjectOf(c.name)}`) })),
      );
      const deadLetters = await storedCount(this.bus, Streams.deadLetter.name, MEDIA_DEAD_LETTERS);
      const missing = MEDIA_CONSUMERS.filter((d) => !consumers.some((c) => c.name === d));
      const health = missing.length === 0 ? { status: 'healthy' as const } : { status: 'degraded' as const, message: `No media worker has started yet (${missing.join(', ')} missing).` };
      return { health, consumers, deadLetters };
    } catch (err) {
      return { health: { status: 'unhealthy', message: `JetStream is not answering: ${(err as Error).message}` }, consumers: [], deadLetters: 0 };
    }
  }

  private async providerIntegration(): Promise<Metrics['providerIntegration']> {
    try {
      return await this.bus.request(ExportSubjects.rpcHealth, {}, metricsSchema.shape.providerIntegration, RPC_TIMEOUT_MS);
    } catch (err) {
      return {
        error: `The export service did not answer: ${(err as Error).message}`,
        last24h: { total: 0, completed: 0, processing: 0, failed: 0, successRate: 0 },
        webhooks: { successRate: 0, pendingRetries: 0 },
        performance: { avgProcessingTimeSeconds: 0 },
        recentFailures: [],
      };
    }
  }

  private async analytics(): Promise<Metrics['analytics']> {
    try {
      return { ...(await this.bus.request(Subjects.rpcAnalyticsEvents, {}, analyticsAnswerSchema, RPC_TIMEOUT_MS)), error: null };
    } catch (err) {
      return { enabled: true, error: `The analytics service did not answer: ${(err as Error).message}`, summary: { todayCount: 0, weekCount: 0 }, last7Days: [] };
    }
  }

  /** A question to another service; no answer is 503 naming the service. */
  private async ask<T>(who: string, subject: string, payload: unknown, schema: z.ZodType<T>): Promise<T> {
    try {
      return await this.bus.request(subject, payload, schema, RPC_TIMEOUT_MS);
    } catch (err) {
      throw new AppError(503, ErrorCode.ServiceUnavailable, `${who} is not answering. Please try again in a moment.`, { reason: (err as Error).message });
    }
  }
}

/** `media-render` consumes `media.render`. */
function subjectOf(durable: string): string {
  return durable.replace('-', '.');
}

function sum<K extends 'ackPending' | 'pending' | 'redelivered'>(consumers: ReadonlyArray<ConsumerFigures>, key: K): number {
  return consumers.reduce((n, c) => n + c[key], 0);
}
