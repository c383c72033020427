/**
 * Over 400 lines: the store of the export schema's tables (jobs, items, idempotency keys, webhook
 * events): one transaction boundary and one row mapping for all of them. The operators' records
 * (operator-records.ts) still read the same tables; folding them in is open work.
 */
import type {
  ExportCaller,
  ExportCreated,
  ExportError,
  ExportItemType,
  ExportJobStatus,
  ExportRequest,
  ExportStatusValue,
  ProviderWebhookEvent,
} from '@wordcut/contracts';
import type { DataSource, EntityManager } from 'typeorm';

/** Names the gateway resolved for a job's items (the video title, clip names by clip id). */
export interface ExportNames {
  mainVideo: string;
  clips: Record<string, string>;
}

export type ExportItemStatus = 'pending' | 'uploading' | 'uploaded' | 'failed';

export interface ExportJobRow {
  id: string;
  userId: string;
  videoId: string;
  sessionId: string;
  providerVideoId: string | null;
  status: ExportStatusValue;
  progress: number;
  currentStep: string;
  estimatedCompletion: Date | null;
  request: ExportRequest;
  /** the verified caller; `token` is blanked once the job is finished */
  caller: ExportCaller;
  names: ExportNames;
  error: ExportError | null;
  retryOf: string | null;
  renderJobId: string | null;
  /** set while the job waits for the render named by renderJobId (it resumes on that job's event) */
  waitingSince: Date | null;
  /** how many renders the job has waited for */
  renderRounds: number;
  countsTowardQuota: boolean;
  /** stream sequence of the run message that claimed the job (a different message is a duplicate) */
  runSeq: number | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

export interface ExportItemRow {
  jobId: string;
  type: ExportItemType;
  /** the clip id for clips, else the type */
  itemId: string;
  /** upload order: main video, vtt, word-by-word, clips in request order */
  position: number;
  name: string;
  status: ExportItemStatus;
  bytes: number | null;
  providerVideoId: string | null;
  uploadId: string | null;
  providerConfirmed: boolean;
  error: string | null;
  attempts: number;
  /** the provider's resumable session of an upload under way, and the sha256 of the bytes it is for */
  uploadSession: UploadSession | null;
}

export interface UploadSession {
  uri: string;
  sha256: string;
}

/** A job the store failed, and its items it failed with it (never reached or cut mid-upload). */
export interface FailedJob {
  job: ExportJobRow;
  unreached: ExportItemRow[];
}

/** An item a provider webhook changed, with its job's video (for the gateway's announcement). */
export interface WebhookItem {
  item: ExportItemRow;
  videoId: string;
}

/**
 * What a provider webhook did: `applied` to the items returned, `skipped` (every item holding its
 * upload id already has a newer event applied), or `none` (no item holds that upload id yet).
 */
export interface WebhookApplied {
  outcome: 'applied' | 'skipped' | 'none';
  items: WebhookItem[];
}

/** The error of an item its job failed before uploading (the job's error says why). */
export const ITEM_NOT_REACHED = 'The export failed before this item was uploaded.';

export interface NewExportJob {
  id: string;
  userId: string;
  videoId: string;
  sessionId: string;
  providerVideoId: string | null;
  request: ExportRequest;
  caller: ExportCaller;
  names: ExportNames;
  retryOf: string | null;
  countsTowardQuota: boolean;
}

export type NewExportItem = Omit<ExportItemRow, 'jobId' | 'attempts' | 'error' | 'uploadSession'> & { error?: string | null };

export interface StoredIdempotencyKey {
  fingerprint: string;
  jobId: string;
  response: ExportCreated;
}

/** How long an idempotency key answers with its first result (Stripe keeps them 24 h too). */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;

const J = `"export"."export_jobs"`;
const I = `"export"."export_items"`;
const K = `"export"."idempotency_keys"`;
const W = `"export"."webhook_events"`;
const F = `"export"."failed_webhooks"`;
/** An item done with its upload forgets the provider session: its URI lets anyone holding it send bytes. */
const NO_UPLOAD_SESSION = 'upload_session_uri = NULL, upload_session_sha256 = NULL';

/**
 * The export schema behind a small interface, in raw SQL. Job transitions are guarded UPDATEs
 * (a finished job never changes again; progress never goes backwards), so a redelivered run,
 * a late progress write or a duplicate message cannot undo what happened.
 */
export class ExportStore {
  constructor(private readonly ds: DataSource) {}

  /**
   * Runs `fn` in one transaction holding the user's advisory lock: a user's creates and retries
   * are serialised, so two concurrent requests with one idempotency key make one job, and the
   * quota count cannot be raced past its limit.
   */
  async withUserLock<T>(userId: string, fn: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`export-user:${userId}`]);
      return fn(tx);
    });
  }

  /** Drops the user's expired idempotency keys (opportunistic: done under the lock on every create). */
  async purgeExpiredKeys(tx: EntityManager, userId: string): Promise<void> {
    await tx.query(`DELETE FROM ${K} WHERE user_id = $1 AND created_at < now() - make_interval(hours => $2)`, [userId, IDEMPOTENCY_KEY_TTL_HOURS]);
  }

  async findKey(tx: EntityManager, userId: string, key: string): Promise<StoredIdempotencyKey | null> {
    const rows = (await tx.query(
      `SELECT fingerprint, job_id, response FROM ${K} WHERE user_id = $1 AND key = $2 AND created_at >= now() - make_interval(hours => $3)`,
      [userId, key, IDEMPOTENCY_KEY_TTL_HOURS],
    )) as Array<{ fingerprint: string; job_id: string; response: ExportCreated }>;
    const r = rows[0];
    return r ? { fingerprint: r.fingerprint, jobId: r.job_id, response: r.response } : null;
  }

  async insertKey(tx: EntityManager, userId: string, key: string, fingerprint: string, jobId: string, response: ExportCreated): Promise<void> {
    await tx.query(
      `INSERT INTO ${K} (user_id, key, fingerprint, job_id, response) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, job_id = EXCLUDED.job_id, response = EXCLUDED.response, created_at = now()`,
      [userId, key, fingerprint, jobId, JSON.stringify(response)],
    );
  }

  /** The user's exports that count toward the quota, created since each window's start. */
  async countQuota(q: DataSource | EntityManager, userId: string, dayStart: Date, monthStart: Date): Promise<{ exportsToday: number; exportsThisMonth: number }> {
    const rows = (await q.query(
      `SELECT count(*) FILTER (WHERE created_at >= $2)::int AS today, count(*)::int AS month
         FROM ${J} WHERE user_id = $1 AND counts_toward_quota AND created_at >= $3`,
      [userId, dayStart, monthStart],
    )) as Array<{ today: number; month: number }>;
    return { exportsToday: rows[0]?.today ?? 0, exportsThisMonth: rows[0]?.month ?? 0 };
  }

  async quotaCounts(userId: string, dayStart: Date, monthStart: Date): Promise<{ exportsToday: number; exportsThisMonth: number }> {
    return this.countQuota(this.ds, userId, dayStart, monthStart);
  }

  async insertJob(tx: EntityManager, job: NewExportJob, items: NewExportItem[]): Promise<void> {
    await tx.query(
      `INSERT INTO ${J} (id, user_id, video_id, session_id, provider_video_id, status, progress, current_step, request, caller, names, retry_of, counts_toward_quota)
       VALUES ($1, $2, $3, $4, $5, 'queued', 0, 'Preparing export...', $6, $7, $8, $9, $10)`,
      [
        job.id,
        job.userId,
        job.videoId,
        job.sessionId,
        job.providerVideoId,
        JSON.stringify(job.request),
        JSON.stringify(job.caller),
        JSON.stringify(job.names),
        job.retryOf,
        job.countsTowardQuota,
      ],
    );
    for (const it of items) {
      await tx.query(
        `INSERT INTO ${I} (job_id, type, item_id, position, name, status, bytes, provider_video_id, upload_id, provider_confirmed, error)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [job.id, it.type, it.itemId, it.position, it.name, it.status, it.bytes, it.providerVideoId, it.uploadId, it.providerConfirmed, it.error ?? null],
      );
    }
  }

  async getJob(id: string, q: DataSource | EntityManager = this.ds): Promise<ExportJobRow | null> {
    const rows = (await q.query(`SELECT * FROM ${J} WHERE id = $1`, [id])) as JobDbRow[];
    return rows[0] ? toJob(rows[0]) : null;
  }

  async getItems(jobId: string, q: DataSource | EntityManager = this.ds): Promise<ExportItemRow[]> {
    const rows = (await q.query(`SELECT * FROM ${I} WHERE job_id = $1 ORDER BY position, item_id`, [jobId])) as ItemDbRow[];
    return rows.map(toItem);
  }

  /** The video's unfinished (queued or processing) export job, if any: one export of a video runs at a time. */
  async runningJobOfVideo(tx: EntityManager, videoId: string): Promise<string | null> {
    const rows = (await tx.query(`SELECT id FROM ${J} WHERE video_id = $1 AND status IN ('queued', 'processing') ORDER BY created_at LIMIT 1`, [videoId])) as Array<{ id: string }>;
    return rows[0]?.id ?? null;
  }

  /** The newest retry of a job, if any (a second retry of one failed job answers with it). */
  async latestRetryOf(tx: EntityManager, jobId: string): Promise<ExportJobRow | null> {
    const rows = (await tx.query(`SELECT * FROM ${J} WHERE retry_of = $1 ORDER BY created_at DESC LIMIT 1`, [jobId])) as JobDbRow[];
    return rows[0] ? toJob(rows[0]) : null;
  }

  /**
   * The worker takes a job for the run message with stream sequence `seq`: a queued job, a job
   * waiting for a render (the render's end sent this message), or one this very message already
   * claimed (a redelivery after a crash or a nak). Another message for a job already claimed (a
   * sweeper republish outside the duplicate window) claims nothing.
   */
  async claim(id: string, seq: number): Promise<ExportJobRow | null> {
    const rows = (await this.ds.query(
      `UPDATE ${J} SET status = 'processing', run_seq = $2, waiting_since = NULL, started_at = COALESCE(started_at, now()), updated_at = now()
        WHERE id = $1 AND (status = 'queued' OR (status = 'processing' AND (run_seq = $2 OR waiting_since IS NOT NULL)))
        RETURNING *`,
      [id, seq],
    )) as [JobDbRow[], number];
    const row = rows[0]?.[0];
    return row ? toJob(row) : null;
  }

  /**
   * The job waits for render job `renderJobId` (a queued job is taken for it): no worker holds it
   * until that job's end sends a run message. Answers how many renders the job has waited for,
   * or null when the job is finished.
   */
  async awaitRender(id: string, renderJobId: string, step: string): Promise<number | null> {
    const rows = (await this.ds.query(
      `UPDATE ${J} SET status = 'processing', started_at = COALESCE(started_at, now()), current_step = $3, waiting_since = now(), updated_at = now(),
              render_rounds = render_rounds + CASE WHEN render_job_id IS DISTINCT FROM $2 THEN 1 ELSE 0 END, render_job_id = $2
        WHERE id = $1 AND status IN ('queued', 'processing') RETURNING render_rounds`,
      [id, renderJobId, step],
    )) as [Array<{ render_rounds: number }>, number];
    const row = rows[0][0];
    return row ? Number(row.render_rounds) : null;
  }

  /** The jobs waiting for render job `renderJobId`. */
  async waitingFor(renderJobId: string): Promise<string[]> {
    const rows = (await this.ds.query(`SELECT id FROM ${J} WHERE render_job_id = $1 AND waiting_since IS NOT NULL AND status = 'processing'`, [renderJobId])) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  /** Jobs that have waited for their render longer than `ms`, with the render they wait for. */
  async waitingLongerThan(ms: number, limit = 100): Promise<Array<{ id: string; renderJobId: string }>> {
    const rows = (await this.ds.query(
      `SELECT id, render_job_id FROM ${J} WHERE status = 'processing' AND waiting_since IS NOT NULL AND waiting_since < now() - make_interval(secs => $1) ORDER BY waiting_since LIMIT $2`,
      [ms / 1000, limit],
    )) as Array<{ id: string; render_job_id: string }>;
    return rows.map((r) => ({ id: r.id, renderJobId: r.render_job_id }));
  }

  async setProgress(id: string, progress: number, step: string, estimatedCompletion: Date | null): Promise<void> {
    await this.ds.query(
      `UPDATE ${J} SET progress = GREATEST(progress, LEAST(100, $2::real)), current_step = $3, estimated_completion = $4, updated_at = now()
        WHERE id = $1 AND status = 'processing'`,
      [id, progress, step, estimatedCompletion],
    );
  }

  async markItemUploading(jobId: string, type: ExportItemType, itemId: string, bytes: number): Promise<void> {
    await this.ds.query(
      `UPDATE ${I} SET status = 'uploading', bytes = $4, attempts = attempts + 1, error = NULL WHERE job_id = $1 AND type = $2 AND item_id = $3 AND status <> 'uploaded'`,
      [jobId, type, itemId, bytes],
    );
  }

  /** Remembers the provider's session of an item's upload, so a run after a restart continues it. */
  async setUploadSession(jobId: string, type: ExportItemType, itemId: string, session: UploadSession): Promise<void> {
    await this.ds.query(
      `UPDATE ${I} SET upload_session_uri = $4, upload_session_sha256 = $5 WHERE job_id = $1 AND type = $2 AND item_id = $3 AND status = 'uploading'`,
      [jobId, type, itemId, session.uri, session.sha256],
    );
  }

  /** A new upload id starts the item's webhook order afresh (its events are per upload). */
  async markItemUploaded(jobId: string, type: ExportItemType, itemId: string, r: { bytes: number; uploadId: string; providerVideoId: string | null }): Promise<void> {
    await this.ds.query(
      `UPDATE ${I} SET status = 'uploaded', bytes = $4, upload_id = $5, provider_video_id = COALESCE(provider_video_id, $6), error = NULL, ${NO_UPLOAD_SESSION},
              webhook_event_at = CASE WHEN upload_id IS DISTINCT FROM $5 THEN NULL ELSE webhook_event_at END,
              webhook_event_id = CASE WHEN upload_id IS DISTINCT FROM $5 THEN NULL ELSE webhook_event_id END
        WHERE job_id = $1 AND type = $2 AND item_id = $3`,
      [jobId, type, itemId, r.bytes, r.uploadId, r.providerVideoId],
    );
  }

  async markItemFailed(jobId: string, type: ExportItemType, itemId: string, error: string): Promise<void> {
    await this.ds.query(`UPDATE ${I} SET status = 'failed', error = $4, ${NO_UPLOAD_SESSION} WHERE job_id = $1 AND type = $2 AND item_id = $3 AND status <> 'uploaded'`, [
      jobId,
      type,
      itemId,
      error,
    ]);
  }

  /** An optional item the library has no file for (word-by-word timing) leaves the job. */
  async dropItem(jobId: string, type: ExportItemType, itemId: string): Promise<void> {
    await this.ds.query(`DELETE FROM ${I} WHERE job_id = $1 AND type = $2 AND item_id = $3 AND status <> 'uploaded'`, [jobId, type, itemId]);
  }

  /** queued/processing → completed, once. The caller's token is dropped: nothing needs it any more. */
  async complete(id: string): Promise<boolean> {
    return (await this.finish(this.ds, id, 'completed', null)) !== null;
  }

  /**
   * queued/processing → failed, once, with the export error the client shows; in the same
   * transaction every item not uploaded yet (pending, uploading) fails with it. Those items are
   * returned for the gateway to hear about; null when the job was already finished.
   */
  async fail(id: string, error: ExportError): Promise<FailedJob | null> {
    return this.ds.transaction(async (tx) => {
      const job = await this.finish(tx, id, 'failed', error);
      if (!job) return null;
      const rows = (await tx.query(`UPDATE ${I} SET status = 'failed', error = $2, ${NO_UPLOAD_SESSION} WHERE job_id = $1 AND status IN ('pending', 'uploading') RETURNING *`, [
        id,
        ITEM_NOT_REACHED,
      ])) as [ItemDbRow[], number];
      return { job, unreached: rows[0].map(toItem).sort((a, b) => a.position - b.position) };
    });
  }

  private async finish(q: DataSource | EntityManager, id: string, to: 'completed' | 'failed', error: ExportError | null): Promise<ExportJobRow | null> {
    const rows = (await q.query(
      `UPDATE ${J} SET status = $2, error = $3, finished_at = now(), updated_at = now(),
              progress = CASE WHEN $2 = 'completed' THEN 100 ELSE progress END,
              current_step = CASE WHEN $2 = 'completed' THEN 'Export complete' ELSE 'Export failed' END,
              estimated_completion = CASE WHEN $2 = 'completed' THEN now() ELSE NULL END,
              caller = caller || '{"token": ""}'::jsonb, waiting_since = NULL
        WHERE id = $1 AND status IN ('queued', 'processing') RETURNING *`,
      [id, to, error === null ? null : JSON.stringify(error)],
    )) as [JobDbRow[], number];
    const row = rows[0][0];
    return row ? toJob(row) : null;
  }

  /** Queued jobs older than `ms` (their run message may never have been published). */
  async queuedOlderThan(ms: number, limit = 100): Promise<string[]> {
    const rows = (await this.ds.query(
      `SELECT id FROM ${J} WHERE status = 'queued' AND created_at < now() - make_interval(secs => $1) ORDER BY created_at LIMIT $2`,
      [ms / 1000, limit],
    )) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  /** Processing jobs that have not moved for `ms` (their worker died on its last delivery); a render wait has its own limit. */
  async processingStaleFor(ms: number, limit = 100): Promise<string[]> {
    const rows = (await this.ds.query(
      `SELECT id FROM ${J} WHERE status = 'processing' AND waiting_since IS NULL AND updated_at < now() - make_interval(secs => $1) ORDER BY updated_at LIMIT $2`,
      [ms / 1000, limit],
    )) as Array<{ id: string }>;
    return rows.map((r) => r.id);
  }

  // ------------------------------------------------------------------------------------------
  // provider webhooks

  /** Stores a verified event once; false when its id was seen before (a replay). */
  async recordWebhook(e: ProviderWebhookEvent, signatureMasked: string | null = null): Promise<boolean> {
    const rows = (await this.ds.query(
      `INSERT INTO ${W} (event_id, type, payload, signature_masked) VALUES ($1, $2, $3, $4) ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
      [e.id, e.type, JSON.stringify(e), signatureMasked],
    )) as unknown[];
    return rows.length > 0;
  }

  /** Forgets an event that could not be queued, so the provider's redelivery is taken as new. */
  async forgetWebhook(eventId: string): Promise<void> {
    await this.ds.query(`DELETE FROM ${W} WHERE event_id = $1 AND status = 'received'`, [eventId]);
  }

  /**
   * Applies an event to the export items holding its upload id, in one transaction, unless it is
   * older (`createdAt`) than the last event applied to the item: an older one changes nothing and
   * the event is marked `skipped`. Events of the same time both apply (ids carry no order), and
   * applying one twice is harmless (the UPDATEs set values). `none` = no item has that upload id.
   */
  async applyWebhook(e: ProviderWebhookEvent): Promise<WebhookApplied> {
    const at = new Date(e.createdAt);
    if (Number.isNaN(at.getTime())) throw new Error(`event ${e.id} has no valid createdAt: ${JSON.stringify(e.createdAt).slice(0, 60)}`);
    return this.ds.transaction(async (tx) => {
      await tx.query(`UPDATE ${W} SET attempts = attempts + 1 WHERE event_id = $1`, [e.id]);
      const held = (await tx.query(`SELECT job_id FROM ${I} WHERE upload_id = $1 FOR UPDATE`, [e.data.uploadId])) as unknown[];
      if (held.length === 0) return { outcome: 'none', items: [] };
      const [set, values] =
        e.type === 'upload.failed'
          ? [`status = 'failed', provider_confirmed = false, error = $4`, ['The provider could not process this upload.']]
          : [`provider_confirmed = true, provider_video_id = COALESCE($4, i.provider_video_id)`, [e.data.providerVideoId]];
      const rows = (await tx.query(
        `UPDATE ${I} i SET ${set}, webhook_event_at = $2, webhook_event_id = $3 FROM ${J} j
          WHERE i.upload_id = $1 AND j.id = i.job_id
            AND (i.webhook_event_at IS NULL OR i.webhook_event_at <= $2::timestamptz)
          RETURNING i.*, j.video_id`,
        [e.data.uploadId, e.createdAt, e.id, ...values],
      )) as [Array<ItemDbRow & { video_id: string }>, number];
      const outcome = rows[0].length > 0 ? 'applied' : 'skipped';
      await tx.query(`UPDATE ${W} SET status = $2, last_error = NULL WHERE event_id = $1`, [e.id, outcome]);
      return { outcome, items: rows[0].map((r) => ({ item: toItem(r), videoId: r.video_id })) };
    });
  }

  async webhookAttemptFailed(eventId: string, error: string): Promise<void> {
    await this.ds.query(`UPDATE ${W} SET last_error = $2 WHERE event_id = $1`, [eventId, error]);
  }

  /** After the last delivery: the event is failed and listed in failed_webhooks (for the dashboard). */
  async recordFailedWebhook(e: ProviderWebhookEvent, error: string, attempts: number): Promise<void> {
    await this.ds.transaction(async (tx) => {
      await tx.query(`UPDATE ${W} SET status = 'failed', last_error = $2, attempts = GREATEST(attempts, $3) WHERE event_id = $1`, [e.id, error, attempts]);
      await tx.query(
        `INSERT INTO ${F} (event_id, type, payload, error, attempts, signature_masked)
         SELECT $1, $2, $3, $4, $5, (SELECT signature_masked FROM ${W} WHERE event_id = $1)`,
        [e.id, e.type, JSON.stringify(e), error, attempts],
      );
    });
  }
}

/** The status answer of a job (GET /api/jobs/{id}/status for export jobs). */
export function toJobStatus(j: ExportJobRow, items: ExportItemRow[]): ExportJobStatus {
  return {
    jobId: j.id,
    status: j.status,
    progress: Math.round(j.progress * 10) / 10,
    currentStep: j.currentStep,
    estimatedCompletion: j.estimatedCompletion ? j.estimatedCompletion.toISOString() : null,
    videoId: j.videoId,
    items: items.map((i) => ({
      type: i.type,
      id: i.itemId,
      name: i.name,
      status: i.status,
      bytes: i.bytes,
      providerVideoId: i.providerVideoId,
      providerConfirmed: i.providerConfirmed,
      error: i.error,
    })),
    error: j.error,
    retryOf: j.retryOf,
    createdAt: j.createdAt.toISOString(),
    updatedAt: j.updatedAt.toISOString(),
  };
}

interface JobDbRow {
  id: string;
  user_id: string;
  video_id: string;
  session_id: string;
  provider_video_id: string | null;
  status: ExportStatusValue;
  progress: number;
  current_step: string;
  estimated_completion: Date | null;
  request: ExportRequest;
  caller: ExportCaller;
  names: ExportNames;
  error: ExportError | null;
  retry_of: string | null;
  render_job_id: string | null;
  waiting_since: Date | null;
  render_rounds: number;
  counts_toward_quota: boolean;
  run_seq: string | null;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

interface ItemDbRow {
  job_id: string;
  type: ExportItemType;
  item_id: string;
  position: number;
  name: string;
  status: ExportItemStatus;
  bytes: string | null;
  provider_video_id: string | null;
  upload_id: string | null;
  provider_confirmed: boolean;
  error: string | null;
  attempts: number;
  upload_session_uri: string | null;
  upload_session_sha256: string | null;
}

function toJob(r: JobDbRow): ExportJobRow {
  return {
    id: r.id,
    userId: r.user_id,
    videoId: r.video_id,
    sessionId: r.session_id,
    providerVideoId: r.provider_video_id,
    status: r.status,
    progress: Number(r.progress),
    currentStep: r.current_step,
    estimatedCompletion: r.estimated_completion,
    request: r.request,
    caller: r.caller,
    names: r.names,
    error: r.error,
    retryOf: r.retry_of,
    renderJobId: r.render_job_id,
    waitingSince: r.waiting_since,
    renderRounds: Number(r.render_rounds),
    countsTowardQuota: r.counts_toward_quota,
    runSeq: r.run_seq === null ? null : Number(r.run_seq),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

function toItem(r: ItemDbRow): ExportItemRow {
  return {
    jobId: r.job_id,
    type: r.type,
    itemId: r.item_id,
    position: r.position,
    name: r.name,
    status: r.status,
    bytes: r.bytes === null ? null : Number(r.bytes),
    providerVideoId: r.provider_video_id,
    uploadId: r.upload_id,
    providerConfirmed: r.provider_confirmed,
    error: r.error,
    attempts: r.attempts,
    uploadSession: r.upload_session_uri && r.upload_session_sha256 ? { uri: r.upload_session_uri, sha256: r.upload_session_sha256 } : null,
  };
}
