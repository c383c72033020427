import {
  ExportSubjects,
  rpcExportSourcesReplySchema,
  type ExportError,
  type RpcExportSourcesReply,
  type RpcExportSourcesRequest,
  Consumers,
  withDelivery,
} from '@wordcut/contracts';
import type { ConsumerDef, InboundMessage, Messaging } from '@wordcut/messaging';
import type { Logger } from '@wordcut/platform';
import { ProviderError, type ProviderClient } from '@wordcut/provider';
import { estimateCompletion } from '@wordcut/publishing';
import type { ObjectStorage } from '@wordcut/storage';
import { ExportCode, Messages, detailsOf } from './errors';
import { deleteExportCaptions } from './export-captions';
import { uploadProgress, uploadStep } from './export-plan';
import type { ExportItemRow } from './export-item-store';
import type { ExportJobRow } from './export-job-store';
import type { ExportStore } from './export-store';
import { exportRunMessageSchema, type ExportRunMessage } from './run-message';
import { announceItem, announceUnreached } from './item-events';
import type { ExportMetrics } from './metrics';
import type { RenderWaits } from './render-waits';
import { s3UploadSource } from './s3-upload-source';

export interface ExportWorkerOptions {
  /** jobs this process runs at once (EXPORT_CONCURRENCY) */
  concurrency: number;
  consumer?: Partial<Pick<ConsumerDef, 'ackWaitMs' | 'maxDeliver'>>;
  /** ceiling of the first redelivery wait after a failed run (default Retry.exportRun) */
  retryBaseMs?: number;
  /** progress is written at most this often (default 500 ms) */
  progressIntervalMs?: number;
  /** rpc.library.export-sources timeout (default 10 s) */
  rpcTimeoutMs?: number;
  now?: () => Date;
}

export const runConsumer = (o: ExportWorkerOptions['consumer'] & { retryBaseMs?: number } = {}): ConsumerDef => withDelivery(Consumers.exportRun, o);

/** A decided failure of the job (not worth another delivery): what the progress dialog shows. */
export class ExportJobFailure extends Error {
  constructor(readonly exportError: ExportError) {
    super(exportError.details ?? exportError.message);
    this.name = 'ExportJobFailure';
  }
}

/** An upload that failed, naming its item (marked failed and announced when the job fails). */
class ItemUploadError extends Error {
  constructor(
    readonly item: ExportItemRow,
    readonly reason: unknown,
  ) {
    super(detailsOf(reason));
    this.name = 'ItemUploadError';
  }
}

/** Item, and where its bytes are (S3 key and content type the gateway named). */
interface PlannedUpload {
  item: ExportItemRow;
  key: string;
  contentType: string;
  size: number;
}

/**
 * Runs export jobs: a durable pull consumer on `export.run.>` (EXPORT_CONCURRENCY at once).
 * A run asks the gateway what to upload; when the gateway answers with a mute render to wait
 * for, the run ends and the job waits (RenderWaits) until that render's end runs it again. It
 * uploads each item not yet uploaded, in order, with the caller's token, from S3 (ranged reads
 * so a resumed upload reads only the rest), writing progress at most every 500 ms and announcing
 * each item on `export.events.item`. A redelivered run skips what is already uploaded and
 * continues an item cut mid-upload in the provider's session it stored for it. A finished job's
 * caption objects are deleted.
 */
export class ExportWorker {
  readonly consumer: ConsumerDef;
  private readonly running = new Set<AbortController>();
  private stopping = false;
  private readonly now: () => Date;

  constructor(
    private readonly bus: Messaging,
    private readonly store: ExportStore,
    private readonly storage: ObjectStorage,
    private readonly client: ProviderClient,
    private readonly logger: Logger,
    private readonly metrics: ExportMetrics | null,
    private readonly renderWaits: RenderWaits,
    private readonly options: ExportWorkerOptions,
  ) {
    this.consumer = runConsumer({ ...options.consumer, ...(options.retryBaseMs !== undefined ? { retryBaseMs: options.retryBaseMs } : {}) });
    this.now = options.now ?? (() => new Date());
  }

  async start(): Promise<void> {
    await this.bus.consume({
      consumer: this.consumer,
      schema: exportRunMessageSchema,
      handler: (m) => this.handle(m),
      concurrency: this.options.concurrency,
    });
  }

  /** Aborts uploads in flight: their runs are not failed but redelivered to another worker. */
  stop(): void {
    this.stopping = true;
    for (const c of this.running) c.abort(new Error('the export service is shutting down'));
  }

  async handle(m: InboundMessage<ExportRunMessage>): Promise<void> {
    const jobId = m.data.jobId;
    const claimed = await this.store.jobs.claim(jobId, m.streamSequence);
    if (!claimed) {
      const job = await this.store.jobs.getJob(jobId);
      this.logger.info({ jobId, status: job?.status ?? null, seq: m.streamSequence }, job ? 'export run message ignored: the job is finished or taken' : 'export run message for an unknown job');
      return;
    }
    const abort = new AbortController();
    this.running.add(abort);
    try {
      await this.run(claimed, abort.signal);
    } catch (err) {
      if (this.stopping) throw err; // redelivered after the restart
      const failure = this.classify(err);
      if (!failure && m.deliveryCount < this.consumer.maxDeliver) {
        this.logger.warn({ err, jobId, delivery: m.deliveryCount }, 'export run failed; it will be delivered again');
        throw err;
      }
      await this.fail(claimed, err, failure ?? { error: ExportCode.ExportFailed, message: Messages.exportFailed, details: detailsOf(err) });
    } finally {
      this.running.delete(abort);
    }
  }

  private async run(job: ExportJobRow, signal: AbortSignal): Promise<void> {
    let items = await this.store.items.getItems(job.id);
    if (items.some((i) => i.status !== 'uploaded')) {
      const sources = await this.sources(job, items);
      if (!sources) return; // waiting for a mute render: its end runs the job again
      const plan = await this.plan(job, items, sources);
      items = await this.store.items.getItems(job.id);
      await this.upload(job, items, plan, signal);
    }
    if (await this.store.jobs.complete(job.id)) {
      this.metrics?.completed.inc({ status: 'completed' });
      this.logger.info({ jobId: job.id, items: items.length }, 'export job completed');
      await deleteExportCaptions(this.storage, this.logger, job);
    }
  }

  /**
   * What to upload, from the gateway; null when the gateway started (or is running) a mute
   * render the current version lacks: the job then waits for that render's end.
   */
  private async sources(job: ExportJobRow, items: ExportItemRow[]): Promise<Extract<RpcExportSourcesReply, { state: 'ready' }> | null> {
    const pending = items.filter((i) => i.status !== 'uploaded');
    const request: RpcExportSourcesRequest = {
      exportJobId: job.id,
      videoId: job.videoId,
      userId: job.userId,
      muteSegments: job.request.mainVideoEdits.muteSegments,
      mainVideo: pending.some((i) => i.type === 'main_video'),
      vtt: pending.some((i) => i.type === 'vtt' || i.type === 'word_by_word'),
      clipIds: pending.filter((i) => i.type === 'clip').map((i) => i.itemId),
    };
    const reply = await this.bus.request(ExportSubjects.rpcSources, request, rpcExportSourcesReplySchema, this.options.rpcTimeoutMs ?? 10_000);
    if (reply.state === 'ready') return reply;
    if (reply.state === 'refused') throw new ExportJobFailure({ error: ExportCode.ExportFailed, message: reply.message });
    await this.renderWaits.wait(job.id, reply.renderJobId, request.muteSegments.length);
    return null;
  }

  /**
   * Each pending item with its source and size. An item the library has no file for fails the
   * job, except word-by-word timing, which a video may simply not have: it leaves the export.
   */
  private async plan(job: ExportJobRow, items: ExportItemRow[], s: Extract<RpcExportSourcesReply, { state: 'ready' }>): Promise<PlannedUpload[]> {
    const plan: PlannedUpload[] = [];
    for (const item of items) {
      if (item.status === 'uploaded') continue;
      const source =
        item.type === 'main_video' ? s.mainVideo : item.type === 'vtt' ? s.vtt : item.type === 'word_by_word' ? s.wordByword : (s.clips.find((c) => c.clipId === item.itemId) ?? null);
      if (!source) {
        if (item.type === 'word_by_word') {
          await this.store.items.dropItem(job.id, item.type, item.itemId);
          continue;
        }
        throw new ExportJobFailure({ error: ExportCode.ExportFailed, message: Messages.exportFailed, details: `The library has no file for ${describe(item)}.` });
      }
      const head = await this.storage.head(source.key);
      if (!head) throw new ExportJobFailure({ error: ExportCode.ExportFailed, message: Messages.exportFailed, details: `The file of ${describe(item)} is missing from storage.` });
      plan.push({ item, key: source.key, contentType: source.contentType, size: head.sizeBytes });
    }
    return plan;
  }

  private async upload(job: ExportJobRow, items: ExportItemRow[], plan: PlannedUpload[], signal: AbortSignal): Promise<void> {
    const startedAt = job.startedAt ?? this.now();
    const uploadedBefore = items.filter((i) => i.status === 'uploaded').reduce((n, i) => n + (i.bytes ?? 0), 0);
    const total = uploadedBefore + plan.reduce((n, p) => n + p.size, 0);
    let done = uploadedBefore;
    const progress = new ProgressWriter(this.store, job.id, startedAt, this.now, this.options.progressIntervalMs ?? 500);
    const { caller } = job;

    for (const p of plan) {
      const { item } = p;
      const step = uploadStep(item.type, item.name);
      await this.store.items.markItemUploading(job.id, item.type, item.itemId, p.size);
      await progress.write(uploadProgress(done, total), step);
      let result;
      try {
        const source = await s3UploadSource(this.storage, p.key, p.contentType);
        const url =
          item.type === 'clip'
            ? this.client.clipUploadUrl(caller.sessionId)
            : item.type === 'main_video'
              ? (caller.uploadUrls.video ?? this.client.uploadUrl(caller.sessionId, 'video'))
              : item.type === 'vtt'
                ? (caller.uploadUrls.vtt ?? this.client.uploadUrl(caller.sessionId, 'vtt'))
                : (caller.uploadUrls.wordByword ?? this.client.uploadUrl(caller.sessionId, 'wordByword'));
        const base = done;
        // an upload an earlier run of this job started (before a restart) goes on where the provider stands, if it is of the same bytes
        const resumeUri = item.status === 'uploading' && item.uploadSession?.sha256 === source.sha256 ? item.uploadSession.uri : undefined;
        result = await this.client.upload({
          token: caller.token,
          url,
          source,
          ...(item.type === 'clip' ? { name: item.name } : {}),
          ...(resumeUri ? { resumeUri } : {}),
          signal,
          onProgress: (sent) => progress.maybe(uploadProgress(base + Math.min(sent, p.size), total), step),
          onSession: (uri) => this.store.items.setUploadSession(job.id, item.type, item.itemId, { uri, sha256: source.sha256 }),
        });
      } catch (err) {
        throw new ItemUploadError(item, err);
      }
      done += p.size;
      await this.store.items.markItemUploaded(job.id, item.type, item.itemId, { bytes: result.bytes, uploadId: result.uploadId, providerVideoId: result.providerVideoId });
      this.metrics?.uploadBytes.inc(result.bytes);
      await progress.write(uploadProgress(done, total), step);
      await announceItem(this.bus, job.videoId, item, 'uploaded', result.providerVideoId);
      this.logger.info({ jobId: job.id, item: item.type, itemId: item.itemId, bytes: result.bytes, uploadId: result.uploadId, attempts: result.attempts, resumedFrom: result.resumedFrom }, 'export item uploaded');
    }
    await progress.settled();
  }

  /** null: not decided (an infrastructure error: worth another delivery); else the job's error. */
  private classify(err: unknown): ExportError | null {
    if (err instanceof ExportJobFailure) return err.exportError;
    const cause = err instanceof ItemUploadError ? err.reason : err;
    if (cause instanceof ProviderError) {
      if (cause.code === 'unauthorized' || cause.code === 'forbidden' || cause.status === 401 || cause.status === 403) {
        return { error: ExportCode.Unauthorized, message: Messages.unauthorized, details: cause.message };
      }
      if (cause.transient) {
        const retryAfter = cause.retryAfterSec !== undefined && cause.retryAfterSec > 0 ? Math.ceil(cause.retryAfterSec) : undefined;
        return { error: ExportCode.ProviderUnavailable, message: Messages.providerUnavailable, details: cause.message, ...(retryAfter ? { retryAfter } : {}) };
      }
      return { error: ExportCode.ExportFailed, message: Messages.exportFailed, details: cause.message };
    }
    return null;
  }

  /** The failing item with its own error, then the job; the items it never uploaded fail with it. */
  private async fail(job: ExportJobRow, err: unknown, error: ExportError): Promise<void> {
    if (err instanceof ItemUploadError) {
      await this.store.items.markItemFailed(job.id, err.item.type, err.item.itemId, error.details ?? error.message);
      await announceItem(this.bus, job.videoId, err.item, 'failed', null).catch((e: unknown) => this.logger.warn({ err: e, jobId: job.id }, 'could not announce a failed item'));
    }
    const failed = await this.store.fail(job.id, error);
    if (!failed) return;
    this.metrics?.completed.inc({ status: 'failed' });
    this.logger.error({ jobId: job.id, error: error.error, details: error.details, unreached: failed.unreached.length }, 'export job failed');
    await announceUnreached(this.bus, this.logger, failed);
    await deleteExportCaptions(this.storage, this.logger, job);
  }
}

function describe(item: ExportItemRow): string {
  switch (item.type) {
    case 'main_video':
      return 'the main video';
    case 'vtt':
      return 'the subtitles';
    case 'word_by_word':
      return 'the word-by-word timing';
    case 'clip':
      return `the clip "${item.name}"`;
  }
}

/**
 * Progress writes: `maybe` at most once per interval and never two at once (upload callbacks
 * come per network chunk), `write` always (item boundaries). The estimate comes from the elapsed
 * time and the share done.
 */
class ProgressWriter {
  private last = 0;
  private inflight: Promise<void> | null = null;

  constructor(
    private readonly store: ExportStore,
    private readonly jobId: string,
    private readonly startedAt: Date,
    private readonly now: () => Date,
    private readonly intervalMs: number,
  ) {}

  maybe(progress: number, step: string): void {
    if (this.inflight || Date.now() - this.last < this.intervalMs) return;
    this.inflight = this.write(progress, step)
      .catch(() => undefined)
      .finally(() => {
        this.inflight = null;
      });
  }

  async write(progress: number, step: string): Promise<void> {
    await this.inflight;
    this.last = Date.now();
    const now = this.now();
    await this.store.jobs.setProgress(this.jobId, progress, step, estimateCompletion(this.startedAt, progress, now));
  }

  async settled(): Promise<void> {
    await this.inflight;
  }
}
