/**
 * Failed provider webhooks (`export.failed_webhooks`): the only code that runs SQL on that table.
 * A record lists an event that could not be applied after its last delivery, for the operators'
 * dashboard to page through, retry (resolving it or keeping the latest error) and delete. Its
 * reads join the event's receipt and the upload's export job; nothing here writes those tables.
 */
import type { ProviderWebhookEvent } from '@wordcut/contracts';
import type { DataSource, EntityManager } from 'typeorm';

/** An unresolved record, with when its event came and the export job its upload belongs to (if any). */
export interface FailedWebhookRecord {
  id: string;
  type: string;
  payload: ProviderWebhookEvent;
  error: string;
  attempts: number;
  failedAt: Date;
  signatureMasked: string | null;
  retryCount: number;
  lastRetryError: string | null;
  receivedAt: Date | null;
  exportJobId: string | null;
  userId: string | null;
}

const J = `"export"."export_jobs"`;
const I = `"export"."export_items"`;
const W = `"export"."webhook_events"`;
const F = `"export"."failed_webhooks"`;

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

export class FailedWebhookStore {
  constructor(private readonly ds: DataSource) {}

  /** Lists an event failed for good (with its stored masked signature), inside the transaction that marks it failed. */
  async insertFailed(tx: EntityManager, e: ProviderWebhookEvent, error: string, attempts: number): Promise<void> {
    await tx.query(
      `INSERT INTO ${F} (event_id, type, payload, error, attempts, signature_masked)
       SELECT $1, $2, $3, $4, $5, (SELECT signature_masked FROM ${W} WHERE event_id = $1)`,
      [e.id, e.type, JSON.stringify(e), error, attempts],
    );
  }

  /** A page of the unresolved records, newest failure first, and how many there are in all. */
  async unresolved(limit: number, offset: number): Promise<{ records: FailedWebhookRecord[]; total: number }> {
    const rows = (await this.ds.query(
      `SELECT f.*, w.received_at, j.id AS job_id, j.user_id, count(*) OVER () AS total
       FROM ${F} f
       LEFT JOIN ${W} w ON w.event_id = f.event_id
       LEFT JOIN LATERAL (
         SELECT jj.id, jj.user_id FROM ${I} i JOIN ${J} jj ON jj.id = i.job_id WHERE i.upload_id = f.payload->'data'->>'uploadId' LIMIT 1
       ) j ON true
       WHERE f.resolved_at IS NULL
       ORDER BY f.failed_at DESC, f.id LIMIT $1 OFFSET $2`,
      [limit, offset],
    )) as FailedDbRow[];
    const total = rows.length > 0 ? Number(rows[0]!.total) : await this.unresolvedCount();
    return {
      records: rows.map((r) => ({
        id: r.id,
        type: r.type,
        payload: r.payload,
        error: r.error,
        attempts: r.attempts,
        failedAt: r.failed_at,
        signatureMasked: r.signature_masked,
        retryCount: r.retry_count,
        lastRetryError: r.last_retry_error,
        receivedAt: r.received_at,
        exportJobId: r.job_id,
        userId: r.user_id,
      })),
      total,
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
