import { Streams, Subjects } from './events';
import { ExportStream, ExportSubjects } from './publishing';
import { Retry, type RetryPolicy } from './retry';

/** The services that consume from JetStream. */
export type ConsumerService = 'gateway' | 'media' | 'jobs' | 'export' | 'analytics';

/** A durable pull consumer: where it reads, what, and how deliveries are retried. */
export interface ConsumerSpec {
  service: ConsumerService;
  /** relative stream name */
  stream: string;
  durable: string;
  /** one relative subject filter (NATS servers before 2.10 take only one); its dead letters go to `dlq.<filter>` */
  filterSubject: string;
  ackWaitMs: number;
  maxDeliver: number;
  maxAckPending?: number;
  /** the wait before a failed message is delivered again (the curve of libs/contracts retry.ts) */
  backoff: Pick<RetryPolicy, 'baseMs' | 'maxMs'>;
}

/** A consumer retried by `policy`: its tries are the deliveries. */
const c = (service: ConsumerService, stream: string, durable: string, filterSubject: string, ackWaitMs = 30_000, policy: RetryPolicy = Retry.redelivery, extra: Partial<ConsumerSpec> = {}): ConsumerSpec => ({
  service,
  stream,
  durable,
  filterSubject,
  ackWaitMs,
  maxDeliver: policy.tries,
  backoff: { baseMs: policy.baseMs, maxMs: policy.maxMs },
  ...extra,
});
/** Consumers whose messages are delivered three times in all. */
const thrice: RetryPolicy = { ...Retry.redelivery, tries: 3 };

/**
 * Every durable JetStream consumer of the system, as the subjects are listed in one place: the
 * services consume through these (media workers and the export service take their ack wait and
 * deliveries from their configuration), and each service's NATS permissions are derived from them.
 */
export const Consumers = {
  gatewayIngest: c('gateway', Streams.videos.name, 'gateway-ingest', 'videos.ingest.>'),
  gatewayIngestDeadLetters: c('gateway', Streams.deadLetter.name, 'gateway-ingest-dlq', `${Subjects.deadLetterPrefix}.${Subjects.mediaIngest}`),
  gatewayRenders: c('gateway', Streams.videos.name, 'gateway-renders', Subjects.videoRenderCompleted, 60_000),
  gatewayKeyMoments: c('gateway', Streams.videos.name, 'gateway-keymoments', Subjects.videoKeyMomentsFound),
  gatewayJobFailures: c('gateway', Streams.jobs.name, 'gateway-job-failures', Subjects.jobFailed),
  gatewayJobCancels: c('gateway', Streams.jobs.name, 'gateway-job-cancels', Subjects.jobCancelled),
  gatewayExportItems: c('gateway', ExportStream.name, 'gateway-export-items', ExportSubjects.itemUploaded),

  mediaProbe: c('media', Streams.media.name, 'media-probe', Subjects.mediaProbe),
  mediaIngest: c('media', Streams.media.name, 'media-ingest', Subjects.mediaIngest),
  mediaRender: c('media', Streams.media.name, 'media-render', Subjects.mediaRender),
  mediaKeyMoments: c('media', Streams.media.name, 'media-keymoments', Subjects.mediaKeyMoments),

  jobsRequests: c('jobs', Streams.jobs.name, 'jobs-requests', `${Subjects.jobRequested}.>`, 30_000, thrice),
  jobsLifecycle: c('jobs', Streams.jobs.name, 'jobs-lifecycle', 'jobs.events.>', 30_000, thrice),
  jobsDeadLetters: c('jobs', Streams.deadLetter.name, 'jobs-dead-letters', `${Subjects.deadLetterPrefix}.media.>`, 30_000, thrice),

  // a pull consumer holds at most 64 unacknowledged runs: more would only wait in memory
  exportRun: c('export', ExportStream.name, 'export-run', `${ExportSubjects.run}.>`, 30_000, Retry.exportRun, { maxAckPending: 64 }),
  exportWebhooks: c('export', ExportStream.name, 'export-webhooks', ExportSubjects.webhook, 30_000, Retry.providerWebhook),
  exportRenderCompleted: c('export', Streams.jobs.name, 'export-render-completed', Subjects.jobCompleted),
  exportRenderFailed: c('export', Streams.jobs.name, 'export-render-failed', Subjects.jobFailed),
  exportRenderCancelled: c('export', Streams.jobs.name, 'export-render-cancelled', Subjects.jobCancelled),

  analyticsJobEvents: c('analytics', Streams.jobs.name, 'analytics-job-events', 'jobs.events.>', 30_000, thrice),
  // requests too: the time a job waited for a worker is its start minus its request
  analyticsJobRequests: c('analytics', Streams.jobs.name, 'analytics-job-requests', `${Subjects.jobRequested}.>`, 30_000, thrice),
  analyticsErrorLogs: c('analytics', Streams.logs.name, 'analytics-error-logs', `${Subjects.errorLog}.>`, 30_000, thrice),
} as const satisfies Record<string, ConsumerSpec>;

/** The consumers of one service. */
export const consumersOf = (service: ConsumerService): ConsumerSpec[] => Object.values(Consumers).filter((x) => x.service === service);

/** A consumer with its delivery settings from configuration. */
export const withDelivery = (spec: ConsumerSpec, o: { ackWaitMs?: number; maxDeliver?: number; retryBaseMs?: number }): ConsumerSpec => ({
  ...spec,
  ackWaitMs: o.ackWaitMs ?? spec.ackWaitMs,
  maxDeliver: o.maxDeliver ?? spec.maxDeliver,
  backoff: { ...spec.backoff, baseMs: o.retryBaseMs ?? spec.backoff.baseMs },
});
