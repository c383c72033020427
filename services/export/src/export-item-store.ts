/**
 * Export items (`export.export_items`): the only code that runs SQL on that table (a webhook's
 * update reads its job's video through a join). An item done with its upload (uploaded or failed)
 * forgets the provider's upload session; an uploaded item is never reset by a later upload step.
 */
import type { ExportItemType, ProviderWebhookEvent } from '@wordcut/contracts';
import type { DataSource, EntityManager } from 'typeorm';

export type ExportItemStatus = 'pending' | 'uploading' | 'uploaded' | 'failed';

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

/** An item a provider webhook changed, with its job's video (for the gateway's announcement). */
export interface WebhookItem {
  item: ExportItemRow;
  videoId: string;
}

/** The error of an item its job failed before uploading (the job's error says why). */
export const ITEM_NOT_REACHED = 'The export failed before this item was uploaded.';

export type NewExportItem = Omit<ExportItemRow, 'jobId' | 'attempts' | 'error' | 'uploadSession'> & { error?: string | null };

const J = `"export"."export_jobs"`;
const I = `"export"."export_items"`;
/** An item done with its upload forgets the provider session: its URI lets anyone holding it send bytes. */
const NO_UPLOAD_SESSION = 'upload_session_uri = NULL, upload_session_sha256 = NULL';

export class ExportItemStore {
  constructor(private readonly ds: DataSource) {}

  /** A new job's items, inside the transaction that writes the job. */
  async insertItems(tx: EntityManager, jobId: string, items: NewExportItem[]): Promise<void> {
    for (const it of items) {
      await tx.query(
        `INSERT INTO ${I} (job_id, type, item_id, position, name, status, bytes, provider_video_id, upload_id, provider_confirmed, error)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [jobId, it.type, it.itemId, it.position, it.name, it.status, it.bytes, it.providerVideoId, it.uploadId, it.providerConfirmed, it.error ?? null],
      );
    }
  }

  async getItems(jobId: string, q: DataSource | EntityManager = this.ds): Promise<ExportItemRow[]> {
    const rows = (await q.query(`SELECT * FROM ${I} WHERE job_id = $1 ORDER BY position, item_id`, [jobId])) as ItemDbRow[];
    return rows.map(toItem);
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

  /** Every item of the job not uploaded yet (pending, uploading) fails with ITEM_NOT_REACHED, inside the caller's transaction; in upload order. */
  async failUnreached(tx: EntityManager, jobId: string): Promise<ExportItemRow[]> {
    const rows = (await tx.query(`UPDATE ${I} SET status = 'failed', error = $2, ${NO_UPLOAD_SESSION} WHERE job_id = $1 AND status IN ('pending', 'uploading') RETURNING *`, [
      jobId,
      ITEM_NOT_REACHED,
    ])) as [ItemDbRow[], number];
    return rows[0].map(toItem).sort((a, b) => a.position - b.position);
  }

  /**
   * Applies a provider event to the items holding its upload id, inside the caller's transaction
   * (they are locked first), unless the item has a newer event applied. Null when no item holds
   * that upload id; an empty list when every one has a newer event (the event is stale).
   */
  async applyWebhookEvent(tx: EntityManager, e: ProviderWebhookEvent): Promise<WebhookItem[] | null> {
    const held = (await tx.query(`SELECT job_id FROM ${I} WHERE upload_id = $1 FOR UPDATE`, [e.data.uploadId])) as unknown[];
    if (held.length === 0) return null;
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
    return rows[0].map((r) => ({ item: toItem(r), videoId: r.video_id }));
  }
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
