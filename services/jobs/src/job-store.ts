import type { JobKind, JobStatus, JobStatusValue } from '@wordcut/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { JobEntity, JobTransitionEntity } from './entities';

export const TERMINAL_STATUSES: readonly JobStatusValue[] = ['completed', 'error', 'cancelled'];
export const isTerminal = (s: JobStatusValue): boolean => TERMINAL_STATUSES.includes(s);

export interface NewJob {
  id: string;
  kind: JobKind;
  input: Record<string, unknown>;
  videoId: string | null;
  userId: string | null;
  correlationId?: string;
}

/**
 * Runs inside the transaction of a transition that won, before it commits: a publish that
 * fails here rolls the transition back, so "changed" and "announced" cannot drift apart
 * (the caller's redelivery or retry does both again).
 */
export type OnApplied = () => Promise<void>;

/**
 * The jobs table behind a small interface. Every transition is a guarded UPDATE
 * (`... WHERE status NOT IN terminal`), so redelivered or reordered events can never move a
 * job backwards or finish it twice; a transition row is written only when the UPDATE won.
 * A cancelled job is terminal: started, progress and completion events for it change nothing.
 */
export class JobStore {
  constructor(private readonly ds: DataSource) {}

  /** Idempotent: a second request with the same id changes nothing. Returns true when created. */
  async create(job: NewJob): Promise<boolean> {
    return this.ds.transaction(async (tx) => {
      const rows = (await tx.query(
        `INSERT INTO "jobs"."jobs" (id, kind, status, progress, message, input, video_id, user_id, correlation_id)
         VALUES ($1, $2, 'pending', 0, 'Waiting for a worker', $3, $4, $5, $6)
         ON CONFLICT (id) DO NOTHING RETURNING id`,
        [job.id, job.kind, JSON.stringify(job.input), job.videoId, job.userId, job.correlationId ?? null],
      )) as unknown[];
      const created = rows.length > 0;
      if (created) await tx.insert(JobTransitionEntity, { jobId: job.id, fromStatus: null, toStatus: 'pending', worker: null });
      return created;
    });
  }

  /**
   * Runs `fn` (the dispatch of the job's command) only while the job is still pending, holding
   * its row lock meanwhile: a cancel that got in first prevents the dispatch, and a cancel that
   * comes during it waits, so its stop message always follows the command. True when `fn` ran.
   */
  async whilePending(id: string, fn: () => Promise<void>): Promise<boolean> {
    return this.ds.transaction(async (tx) => {
      const rows = (await tx.query(`SELECT status FROM "jobs"."jobs" WHERE id = $1 FOR UPDATE`, [id])) as Array<{ status: JobStatusValue }>;
      if (rows[0]?.status !== 'pending') return false;
      await fn();
      return true;
    });
  }

  async markStarted(id: string, attempt: number, worker: string): Promise<void> {
    await this.ds.transaction(async (tx) => {
      const rows = await updateReturning<{ prev: JobStatusValue }>(
        tx,
        `UPDATE "jobs"."jobs" j SET status = 'processing', attempts = GREATEST(j.attempts, $2),
           message = 'Processing', updated_at = now()
         FROM (SELECT id, status AS prev FROM "jobs"."jobs" WHERE id = $1 FOR UPDATE) old
         WHERE j.id = old.id AND j.status IN ('pending', 'processing')
         RETURNING old.prev`,
        [id, attempt],
      );
      if (rows[0]?.prev === 'pending') await tx.insert(JobTransitionEntity, { jobId: id, fromStatus: 'pending', toStatus: 'processing', worker });
    });
  }

  async markProgress(id: string, progress: number, message: string, eta: number | null): Promise<void> {
    await this.ds.query(
      `UPDATE "jobs"."jobs" SET progress = GREATEST(progress, $2), message = $3, estimated_time_remaining = $4, updated_at = now()
       WHERE id = $1 AND status = 'processing'`,
      [id, progress, message, eta],
    );
  }

  /** `result`: a ProbeResult for probe jobs, a RenderSummary for render jobs. */
  async markCompleted(id: string, result: Record<string, unknown>, worker: string): Promise<boolean> {
    return this.finish(id, 'completed', worker, { result, error: null, message: 'Completed', progress: 100 });
  }

  async markFailed(id: string, error: string, worker: string | null, onApplied?: OnApplied): Promise<boolean> {
    return this.finish(id, 'error', worker, { result: null, error, message: 'Failed' }, onApplied);
  }

  /** Cancels a job that has not finished; false when it already had (or the job does not exist). */
  async markCancelled(id: string, onApplied?: OnApplied): Promise<boolean> {
    return this.finish(id, 'cancelled', null, { result: null, error: null, message: 'Cancelled' }, onApplied);
  }

  private async finish(
    id: string,
    to: JobStatusValue,
    worker: string | null,
    f: { result: Record<string, unknown> | null; error: string | null; message: string; progress?: number },
    onApplied?: OnApplied,
  ): Promise<boolean> {
    return this.ds.transaction(async (tx) => {
      const rows = await updateReturning<{ prev: JobStatusValue }>(
        tx,
        `UPDATE "jobs"."jobs" j SET status = $2, result = $3, error = $4, message = $5,
           progress = COALESCE($6, j.progress), estimated_time_remaining = 0, completed_at = now(), updated_at = now()
         FROM (SELECT id, status AS prev FROM "jobs"."jobs" WHERE id = $1 FOR UPDATE) old
         WHERE j.id = old.id AND NOT (j.status = ANY($7))
         RETURNING old.prev`,
        [id, to, f.result === null ? null : JSON.stringify(f.result), f.error, f.message, f.progress ?? null, TERMINAL_STATUSES],
      );
      const won = rows.length > 0;
      if (won) {
        await tx.insert(JobTransitionEntity, { jobId: id, fromStatus: rows[0]!.prev, toStatus: to, worker });
        await onApplied?.();
      }
      return won;
    });
  }

  async get(id: string): Promise<JobStatus | null> {
    const j = await this.ds.getRepository(JobEntity).findOneBy({ id });
    return j ? toJobStatus(j) : null;
  }

  /**
   * Completed jobs of a kind in the last 14 days, newest first (at most `limit`): their time from
   * request to completion and the length of the media they made (renders report it).
   */
  async recentDurations(kind: JobKind, limit = 200): Promise<Array<{ sec: number; sizeSec: number | null }>> {
    const rows = (await this.ds.query(
      `SELECT EXTRACT(EPOCH FROM (completed_at - created_at))::float8 AS sec, (result->>'outputDurationSec')::float8 AS size
       FROM "jobs"."jobs" WHERE kind = $1 AND status = 'completed' AND completed_at > now() - interval '14 days'
       ORDER BY completed_at DESC LIMIT $2`,
      [kind, limit],
    )) as Array<{ sec: number; size: number | null }>;
    return rows.map((r) => ({ sec: Number(r.sec), sizeSec: r.size === null ? null : Number(r.size) }));
  }

  /** A user's jobs created in the last `withinHours` hours, newest first (index jobs_user_created_idx). */
  async listForUser(userId: string, limit: number, withinHours = 24): Promise<JobStatus[]> {
    const rows = await this.ds
      .getRepository(JobEntity)
      .createQueryBuilder('j')
      .where('j.userId = :userId', { userId })
      .andWhere('j.createdAt > now() - make_interval(hours => :withinHours)', { withinHours })
      .orderBy('j.createdAt', 'DESC')
      .addOrderBy('j.id', 'DESC')
      .limit(limit)
      .getMany();
    return rows.map(toJobStatus);
  }

  /** The job records of these videos (index on video_id). */
  async ofVideos(videoIds: string[]): Promise<Array<{ id: string; videoId: string; kind: string; status: JobStatusValue }>> {
    return (await this.ds.query(`SELECT id, video_id AS "videoId", kind, status FROM "jobs"."jobs" WHERE video_id = ANY($1::text[]) ORDER BY created_at, id`, [videoIds])) as Array<{
      id: string;
      videoId: string;
      kind: string;
      status: JobStatusValue;
    }>;
  }

  /** Removes the named records of these videos that have finished (their transitions cascade); a running one stays. */
  async deleteOfVideos(videoIds: string[], jobIds: string[]): Promise<number> {
    if (jobIds.length === 0) return 0;
    const [, deleted] = (await this.ds.query(
      `DELETE FROM "jobs"."jobs" WHERE video_id = ANY($1::text[]) AND id = ANY($2::text[]) AND status IN ('completed','error','cancelled')`,
      [videoIds, jobIds],
    )) as [unknown[], number];
    return deleted;
  }

  async transitions(id: string): Promise<Array<{ from: JobStatusValue | null; to: JobStatusValue; worker: string | null }>> {
    const rows = await this.ds.getRepository(JobTransitionEntity).find({ where: { jobId: id }, order: { id: 'ASC' } });
    return rows.map((r) => ({ from: r.fromStatus, to: r.toStatus, worker: r.worker }));
  }
}

function toJobStatus(j: JobEntity): JobStatus {
  return {
    id: j.id,
    kind: j.kind,
    status: j.status,
    progress: j.progress,
    message: j.message,
    estimatedTimeRemaining: j.estimatedTimeRemaining,
    error: j.error,
    result: j.result,
    videoId: j.videoId,
    userId: j.userId,
    attempts: j.attempts,
    createdAt: j.createdAt.toISOString(),
    updatedAt: j.updatedAt.toISOString(),
    completedAt: j.completedAt ? j.completedAt.toISOString() : null,
  };
}

/** TypeORM answers an UPDATE ... RETURNING on Postgres with [rows, rowCount]. */
async function updateReturning<T>(tx: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const raw = (await tx.query(sql, params)) as [T[], number];
  return raw[0];
}
