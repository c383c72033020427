import {
  EXPORT_JOB_PREFIX,
  ExportStream,
  ExportSubjects,
  exportRequestSchema,
  rpcExportCreateSchema,
  rpcExportJobRequestSchema,
  rpcExportQuotaRequestSchema,
  type ExportCaller,
  type ExportCreated,
  type ExportRefusal,
  type ExportJobStatus,
  type QuotaUsage,
  type RpcExportCreate,
  type RpcExportCreateReply,
} from '@wordcut/contracts';
import type { Messaging } from '@wordcut/messaging';
import type { Logger } from '@wordcut/platform';
import { checkExportAllowed, quotaUsageFrom, quotaWindows } from '@wordcut/publishing';
import type { ObjectStorage } from '@wordcut/storage';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ExportCode, Messages, refusal } from './errors';
import { deleteExportCaptions } from './export-captions';
import { planItems, requestFingerprint, retryItems, userItemCount } from './export-plan';
import type { NewExportJob } from './export-job-store';
import { toJobStatus, type ExportStore } from './export-store';
import { announceUnreached } from './item-events';
import type { ExportMetrics } from './metrics';
import type { RenderWaits } from './render-waits';
import { runSubject, type ExportRunMessage } from './run-message';

export interface ExportServiceOptions {
  /** put into quota_exceeded refusals */
  upgradeUrl?: string;
  /** how often the sweeper looks for stranded jobs (default 30 s) */
  sweepIntervalMs?: number;
  /** a queued job older than this whose run message is not on the stream is published again (default 30 s) */
  queuedGraceMs?: number;
  /** a processing job that has not moved for this long failed with its worker (default 15 min) */
  staleProcessingMs?: number;
  now?: () => Date;
}

type StatusReply = { ok: true; status: ExportJobStatus } | { ok: false; refusal: ExportRefusal };
type RpcExportJobRequest = z.infer<typeof rpcExportJobRequestSchema>;

/**
 * 409 export_in_progress with the running job's id: one export of a video at a time (a second
 * would upload the same files to the provider again, racing the first); the browser follows it.
 */
const inProgress = (jobId: string) => refusal(409, { error: ExportCode.ExportInProgress, message: Messages.exportInProgress, jobId });

/** A new queued job for `caller`: a fresh id, owned by the caller, in the caller's session and provider video. */
function newJobOf(caller: ExportCaller, job: Pick<NewExportJob, 'videoId' | 'request' | 'names' | 'retryOf' | 'countsTowardQuota'>): NewExportJob {
  return { id: `${EXPORT_JOB_PREFIX}${randomUUID()}`, userId: caller.userId, sessionId: caller.sessionId, providerVideoId: caller.providerVideoId, caller, ...job };
}

/**
 * The export service's request/reply side: create (idempotent, quota-checked), status, retry and
 * quota for the gateway, plus the sweeper that republishes jobs whose run message was lost.
 * Domain refusals are answers ({ok:false, refusal}), never thrown: a throw means "broken".
 */
export class ExportService {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private readonly now: () => Date;

  constructor(
    private readonly bus: Messaging,
    private readonly store: ExportStore,
    /** the sweeper deletes the caption objects of the jobs it fails */
    private readonly storage: ObjectStorage,
    private readonly logger: Logger,
    private readonly metrics: ExportMetrics | null,
    private readonly renderWaits: RenderWaits,
    private readonly options: ExportServiceOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  start(): void {
    this.bus.serve(ExportSubjects.rpcCreate, rpcExportCreateSchema, (m) => this.create(m));
    this.bus.serve(ExportSubjects.rpcStatus, rpcExportJobRequestSchema, (m) => this.status(m));
    this.bus.serve(ExportSubjects.rpcRetry, rpcExportJobRequestSchema, (m) => this.retry(m));
    this.bus.serve(ExportSubjects.rpcQuota, rpcExportQuotaRequestSchema, (m) => this.quota(m.userId, m.plan));
    this.timer = setInterval(() => void this.sweep(), this.options.sweepIntervalMs ?? 30_000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping;
  }

  /**
   * rpc.export.create. Stripe-style idempotency under the user's advisory lock: the same key
   * with the same request answers the stored result (replayed, no second job); with another
   * request it is refused (422). Then the quota is checked (429), and while another export of the
   * video is queued or processing the request is refused (409 export_in_progress, naming that
   * job). Otherwise the job, its items and the key are written in one transaction; the run
   * message follows the commit, unless the gateway started a mute render for the export: then
   * the job waits for that render's end instead.
   */
  async create(msg: RpcExportCreate): Promise<RpcExportCreateReply> {
    const parsed = exportRequestSchema.safeParse(msg.request);
    if (!parsed.success) {
      const message = parsed.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ');
      return refusal(400, { error: ExportCode.InvalidRequest, message });
    }
    // the token is the gateway's business (it verified it into `caller`): never stored with the request
    const { token: _token, ...request } = parsed.data;
    const caller = msg.caller;
    // uploads go to the caller's session: a request naming another one would publish to the wrong video
    if (request.sessionId !== caller.sessionId) return refusal(409, { error: ExportCode.SessionMismatch, message: Messages.sessionMismatch });
    const fingerprint = requestFingerprint(request);
    const now = this.now();
    const w = quotaWindows(now);

    const outcome = await this.store.withUserLock(caller.userId, async (tx): Promise<RpcExportCreateReply> => {
      await this.store.keys.purgeExpiredKeys(tx, caller.userId);
      const stored = await this.store.keys.findKey(tx, caller.userId, request.idempotencyKey);
      if (stored) {
        if (stored.fingerprint !== fingerprint) return refusal(422, { error: ExportCode.IdempotencyKeyReused, message: Messages.idempotencyKeyReused });
        return { ok: true, created: stored.response, replayed: true };
      }
      const counts = await this.store.jobs.countQuota(tx, caller.userId, w.dayStart, w.monthStart);
      const allowed = checkExportAllowed(caller.plan, counts, now, this.options.upgradeUrl);
      if (!allowed.ok) return refusal(429, allowed.error);
      const running = await this.store.jobs.runningJobOfVideo(tx, request.videoId);
      if (running) return inProgress(running);

      const job = newJobOf(caller, { videoId: request.videoId, request, names: msg.names, retryOf: null, countsTowardQuota: true });
      await this.store.insertJob(tx, job, planItems(request, msg.names));
      const jobId = job.id;
      const created: ExportCreated = {
        jobId,
        status: 'queued',
        itemCount: userItemCount(request),
        quota: quotaUsageFrom(caller.plan, { exportsToday: counts.exportsToday + 1, exportsThisMonth: counts.exportsThisMonth + 1 }, now),
      };
      await this.store.keys.insertKey(tx, caller.userId, request.idempotencyKey, fingerprint, jobId, created);
      return { ok: true, created, replayed: false };
    });

    if (outcome.ok && !outcome.replayed) {
      this.metrics?.created.inc();
      this.logger.info({ jobId: outcome.created.jobId, userId: caller.userId, videoId: request.videoId, items: outcome.created.itemCount }, 'export job created');
      if (msg.renderJobId) await this.renderWaits.wait(outcome.created.jobId, msg.renderJobId, request.mainVideoEdits.muteSegments.length);
      else await this.dispatch(outcome.created.jobId);
    } else if (outcome.ok) {
      this.logger.info({ jobId: outcome.created.jobId, userId: caller.userId }, 'export create replayed (same idempotency key)');
    } else {
      this.logger.info({ userId: caller.userId, refusal: outcome.refusal.error }, 'export create refused');
    }
    return outcome;
  }

  /** rpc.export.status: only the caller's own jobs exist for them (another user's job is 404 too). */
  async status(req: RpcExportJobRequest): Promise<StatusReply> {
    const job = await this.store.jobs.getJob(req.jobId);
    if (!job || job.userId !== req.caller.userId) return refusal(404, { error: ExportCode.NotFound, message: Messages.notFound });
    return { ok: true, status: toJobStatus(job, await this.store.items.getItems(job.id)) };
  }

  /**
   * rpc.export.retry: a failed job of the same user becomes a new job with the same request and
   * the caller's fresh token. Items the failed job uploaded are copied as uploaded (not sent
   * again). Retries do not count toward the quota. Retrying the same failed job again answers
   * with the retry already made (replayed), so a double click does not export twice. The caller
   * must be in the failed job's session: a token of another one (a clone's) would publish the
   * retry to another video (409 session_mismatch).
   */
  async retry(req: RpcExportJobRequest): Promise<RpcExportCreateReply> {
    const caller = req.caller;
    const outcome = await this.store.withUserLock(caller.userId, async (tx): Promise<RpcExportCreateReply> => {
      const failed = await this.store.jobs.getJob(req.jobId, tx);
      if (!failed || failed.userId !== caller.userId) return refusal(404, { error: ExportCode.NotFound, message: Messages.notFound });
      if (failed.status !== 'failed') return refusal(409, { error: ExportCode.NotRetryable, message: Messages.notRetryable });
      if (caller.sessionId !== failed.sessionId) return refusal(409, { error: ExportCode.SessionMismatch, message: Messages.sessionMismatch });
      const now = this.now();
      const w = quotaWindows(now);
      const quota = quotaUsageFrom(caller.plan, await this.store.jobs.countQuota(tx, caller.userId, w.dayStart, w.monthStart), now);
      const existing = await this.store.jobs.latestRetryOf(tx, failed.id);
      if (existing) {
        return { ok: true, created: { jobId: existing.id, status: existing.status, itemCount: userItemCount(existing.request), quota }, replayed: true };
      }
      const running = await this.store.jobs.runningJobOfVideo(tx, failed.videoId);
      if (running) return inProgress(running);
      const items = retryItems(await this.store.items.getItems(failed.id, tx));
      const job = newJobOf(caller, { videoId: failed.videoId, request: failed.request, names: failed.names, retryOf: failed.id, countsTowardQuota: false });
      await this.store.insertJob(tx, job, items);
      return { ok: true, created: { jobId: job.id, status: 'queued', itemCount: userItemCount(failed.request), quota }, replayed: false };
    });
    if (outcome.ok && !outcome.replayed) {
      this.logger.info({ jobId: outcome.created.jobId, retryOf: req.jobId, userId: caller.userId }, 'export job retried');
      await this.dispatch(outcome.created.jobId);
    } else if (!outcome.ok) {
      this.logger.info({ jobId: req.jobId, userId: caller.userId, refusal: outcome.refusal.error }, 'export retry refused');
    }
    return outcome;
  }

  /** rpc.export.quota: the caller's usage in the current UTC day and month. */
  async quota(userId: string, plan: RpcExportCreate['caller']['plan']): Promise<QuotaUsage> {
    const now = this.now();
    const w = quotaWindows(now);
    return quotaUsageFrom(plan, await this.store.jobs.quotaCounts(userId, w.dayStart, w.monthStart), now);
  }

  /**
   * Publishes a job's run message (msgId = job id, so JetStream keeps one inside its duplicate
   * window). A failure leaves the job queued; the sweeper publishes it again.
   */
  async dispatch(jobId: string): Promise<void> {
    try {
      await this.bus.publish(runSubject(jobId), { jobId } satisfies ExportRunMessage, { msgId: jobId });
    } catch (err) {
      this.logger.warn({ err, jobId }, 'could not publish the export run message; the sweeper will');
    }
  }

  /**
   * Every 30 s: queued jobs older than the grace period whose run message is not on the stream
   * are published again; processing jobs that stopped moving (their worker died on its last
   * delivery) are failed so their user can retry, with their unfinished items announced failed
   * and their caption objects deleted; then the waits for mute renders (RenderWaits.sweep).
   */
  async sweep(): Promise<void> {
    if (this.sweeping) return this.sweeping;
    this.sweeping = (async () => {
      try {
        for (const jobId of await this.store.jobs.queuedOlderThan(this.options.queuedGraceMs ?? 30_000)) {
          const onStream = await this.bus.lastOnSubject(ExportStream.name, runSubject(jobId)).catch(() => null);
          if (onStream) continue;
          this.logger.warn({ jobId }, 'queued export job has no run message: publishing it again');
          await this.dispatch(jobId);
        }
        for (const jobId of await this.store.jobs.processingStaleFor(this.options.staleProcessingMs ?? 15 * 60_000)) {
          const failed = await this.store.fail(jobId, { error: ExportCode.ExportFailed, message: Messages.exportFailed, details: 'The export stopped making progress (its worker stopped).' });
          if (failed) {
            this.metrics?.completed.inc({ status: 'failed' });
            this.logger.error({ jobId, unreached: failed.unreached.length }, 'stalled export job failed');
            await announceUnreached(this.bus, this.logger, failed);
            await deleteExportCaptions(this.storage, this.logger, failed.job);
          }
        }
        await this.renderWaits.sweep();
      } catch (err) {
        this.logger.error({ err }, 'export sweep failed');
      } finally {
        this.sweeping = undefined;
      }
    })();
    return this.sweeping;
  }
}

