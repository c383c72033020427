import type { FailedWebhookPage, FailedWebhookQuery, ProviderIntegrationHealth, ProviderWebhookEvent } from '@wordcut/contracts';
import type { DataSource } from 'typeorm';

const J = `"export"."export_jobs"`;
const I = `"export"."export_items"`;
const W = `"export"."webhook_events"`;
const F = `"export"."failed_webhooks"`;
const RECENT_FAILURES = 10;

interface FailedDbRow {
  id: string;
  type: string;
  payload: ProviderWebhookEvent;
  error: string;
  attempts: number;
  failed_at: Date;
  signature_masked: string | null;
  retry_count: number;
  last_retry_error: string | null;
  received_at: Date | null;
  job_id: string | null;
  user_id: string | null;
  total: string;
}

/**
 * What the operators' dashboard reads of the export schema: publishing health over 24 hours and
 * the failed webhooks (unresolved records of `failed_webhooks`, with the export job their upload
 * belongs to), retried and deleted from the dashboard.
 */
export class ExportOperatorStore {
  constructor(
    private readonly ds: DataSource,
    /** the address the provider delivers webhooks to, shown with each failed one */
    private readonly webhookUrl: string,
  ) {}

  async health(): Promise<ProviderIntegrationHealth> {
    const [jobs, hooks, failures] = await Promise.all([
      this.ds.query(
        `SELECT count(*)::int AS total,
                count(*) FILTER (WHERE status = 'completed')::int AS completed,
                count(*) FILTER (WHERE status IN ('queued', 'processing'))::int AS processing,
                count(*) FILTER (WHERE status = 'failed')::int AS failed,
                COALESCE(avg(EXTRACT(EPOCH FROM finished_at - COALESCE(started_at, created_at))) FILTER (WHERE status = 'completed'), 0)::float AS avg_seconds
         FROM ${J} WHERE created_at > now() - interval '24 hours'`,
      ) as Promise<Array<{ total: number; completed: number; processing: number; failed: number; avg_seconds: number }>>,
      this.ds.query(
        `SELECT count(*) FILTER (WHERE status IN ('applied', 'skipped'))::int AS applied,
                count(*) FILTER (WHERE status = 'failed')::int AS failed,
                count(*) FILTER (WHERE status = 'received' AND attempts > 0 OR status = 'received' AND last_error IS NOT NULL)::int AS pending
         FROM ${W} WHERE received_at > now() - interval '24 hours'`,
      ) as Promise<Array<{ applied: number; failed: number; pending: number }>>,
      this.ds.query(
        `SELECT id, error, finished_at FROM ${J}
         WHERE status = 'failed' AND finished_at > now() - interval '24 hours' ORDER BY finished_at DESC LIMIT ${RECENT_FAILURES}`,
      ) as Promise<Array<{ id: string; error: { error?: string; message?: string } | null; finished_at: Date }>>,
    ]);
    const j = jobs[0]!;
    const h = hooks[0]!;
    const settled = h.applied + h.failed;
    return {
      error: null,
      last24h: { total: j.total, completed: j.completed, processing: j.processing, failed: j.failed, successRate: j.total > 0 ? round1((j.completed / j.total) * 100) : 0 },
      webhooks: { successRate: settled > 0 ? round1((h.applied / settled) * 100) : 100, pendingRetries: h.pending },
      performance: { avgProcessingTimeSeconds: round1(j.avg_seconds) },
      recentFailures: failures.map((f) => ({
        errorCode: f.error?.error ?? 'export_failed',
        jobId: f.id,
        errorMessage: f.error?.message ?? 'Unknown error',
        failedAt: f.finished_at.toISOString(),
      })),
    };
  }

  async failedWebhooks(q: FailedWebhookQuery): Promise<FailedWebhookPage> {
    const rows = (await this.ds.query(
      `SELECT f.*, w.received_at, j.id AS job_id, j.user_id, count(*) OVER () AS total
       FROM ${F} f
       LEFT JOIN ${W} w ON w.event_id = f.event_id
       LEFT JOIN LATERAL (
         SELECT jj.id, jj.user_id FROM ${I} i JOIN ${J} jj ON jj.id = i.job_id WHERE i.upload_id = f.payload->'data'->>'uploadId' LIMIT 1
       ) j ON true
       WHERE f.resolved_at IS NULL
       ORDER BY f.failed_at DESC, f.id LIMIT $1 OFFSET $2`,
      [q.limit, (q.page - 1) * q.limit],
    )) as FailedDbRow[];
    const total = rows.length > 0 ? Number(rows[0]!.total) : await this.unresolvedCount();
    return {
      webhooks: rows.map((r) => ({
        jobId: r.id,
        exportJobId: r.job_id,
        userId: r.user_id,
        eventType: r.type,
        createdAt: (r.received_at ?? r.failed_at).toISOString(),
        failedAt: r.failed_at.toISOString(),
        webhookRetryCount: r.attempts + r.retry_count,
        webhookDetails: {
          error: r.error || null,
          latestRetryError: r.last_retry_error,
          webhookUrl: this.webhookUrl,
          jwtTokenMasked: r.signature_masked,
          payload: r.payload,
          failedAt: r.failed_at.toISOString(),
        },
      })),
      pagination: { page: q.page, limit: q.limit, total, totalPages: Math.max(1, Math.ceil(total / q.limit)) },
    };
  }

  /** The event of an unresolved record, or null. */
  async failedEvent(id: string): Promise<ProviderWebhookEvent | null> {
    const rows = (await this.ds.query(`SELECT payload FROM ${F} WHERE id = $1 AND resolved_at IS NULL`, [id])) as Array<{ payload: ProviderWebhookEvent }>;
    return rows[0]?.payload ?? null;
  }

  /** Records a retry's outcome: the latest retry error kept (if any), and resolved or not. */
  async retried(id: string, error: string | null, resolved = error === null): Promise<void> {
    await this.ds.query(
      `UPDATE ${F} SET retry_count = retry_count + 1, retried_at = now(), last_retry_error = COALESCE($2, last_retry_error),
         resolved_at = CASE WHEN $3::boolean THEN now() ELSE NULL END
       WHERE id = $1`,
      [id, error, resolved],
    );
  }

  async deleteFailed(ids: string[]): Promise<number> {
    const [, n] = (await this.ds.query(`DELETE FROM ${F} WHERE id = ANY($1::uuid[])`, [ids])) as [unknown, number];
    return n;
  }

  private async unresolvedCount(): Promise<number> {
    const rows = (await this.ds.query(`SELECT count(*)::int AS n FROM ${F} WHERE resolved_at IS NULL`)) as Array<{ n: number }>;
    return rows[0]?.n ?? 0;
  }
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
