/**
 * Export jobs (`export.export_jobs`): the only code that runs SQL on that table. Job transitions
 * are guarded UPDATEs (a finished job never changes again; progress never goes backwards), so a
 * redelivered run, a late progress write or a duplicate message cannot undo what happened.
 */
import type { ExportCaller, ExportError, ExportRequest, ExportStatusValue } from '@wordcut/contracts';
import type { DataSource, EntityManager } from 'typeorm';

/** Names the gateway resolved for a job's items (the video title, clip names by clip id). */
export interface ExportNames {
  mainVideo: string;
  clips: Record<string, string>;
}

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

/** The jobs created in the last 24 hours, by outcome, for the operators' health figures. */
export interface JobsLast24h {
  total: number;
  completed: number;
  processing: number;
  failed: number;
  /** mean start-to-finish seconds of the completed ones (0 when none) */
  avgSeconds: number;
}

/** A job failed in the last 24 hours, with the export error it failed with. */
export interface RecentFailedJob {
  id: string;
  error: { error?: string; message?: string } | null;
  finishedAt: Date;
}

const J = `"export"."export_jobs"`;

export class ExportJobStore {
  constructor(private readonly ds: DataSource) {}

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

  /** A new job, queued (its items are written beside it, in the same transaction). */
  async insertJob(tx: EntityManager, job: NewExportJob): Promise<void> {
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
  }

  async getJob(id: string, q: DataSource | EntityManager = this.ds): Promise<ExportJobRow | null> {
    const rows = (await q.query(`SELECT * FROM ${J} WHERE id = $1`, [id])) as JobDbRow[];
    return rows[0] ? toJob(rows[0]) : null;
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

  /** queued/processing → completed, once. The caller's token is dropped: nothing needs it any more. */
  async complete(id: string): Promise<boolean> {
    return (await this.finish(this.ds, id, 'completed', null)) !== null;
  }

  /** queued/processing → completed or failed, once (null when already finished); the caller's token is dropped. */
  async finish(q: DataSource | EntityManager, id: string, to: 'completed' | 'failed', error: ExportError | null): Promise<ExportJobRow | null> {
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
  // the operators' dashboard

  async last24h(): Promise<JobsLast24h> {
    const rows = (await this.ds.query(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE status = 'completed')::int AS completed,
              count(*) FILTER (WHERE status IN ('queued', 'processing'))::int AS processing,
              count(*) FILTER (WHERE status = 'failed')::int AS failed,
              COALESCE(avg(EXTRACT(EPOCH FROM finished_at - COALESCE(started_at, created_at))) FILTER (WHERE status = 'completed'), 0)::float AS avg_seconds
       FROM ${J} WHERE created_at > now() - interval '24 hours'`,
    )) as Array<{ total: number; completed: number; processing: number; failed: number; avg_seconds: number }>;
    const j = rows[0]!;
    return { total: j.total, completed: j.completed, processing: j.processing, failed: j.failed, avgSeconds: j.avg_seconds };
  }

  /** The newest `limit` jobs failed in the last 24 hours, newest first. */
  async recentFailures(limit: number): Promise<RecentFailedJob[]> {
    const rows = (await this.ds.query(
      `SELECT id, error, finished_at FROM ${J}
       WHERE status = 'failed' AND finished_at > now() - interval '24 hours' ORDER BY finished_at DESC LIMIT $1`,
      [limit],
    )) as Array<{ id: string; error: RecentFailedJob['error']; finished_at: Date }>;
    return rows.map((r) => ({ id: r.id, error: r.error, finishedAt: r.finished_at }));
  }
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
