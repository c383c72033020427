/**
 * The export schema's stores, one per table, and the transactions that span tables. This file
 * owns no table: each statement is run by the store of the table it writes or lists (a join only
 * reads another table); here are the user's advisory lock and the multi-table transactions.
 *
 *   jobs            export_jobs         export-job-store.ts
 *   items           export_items        export-item-store.ts
 *   keys            idempotency_keys    idempotency-key-store.ts
 *   webhookEvents   webhook_events      webhook-event-store.ts
 *   failedWebhooks  failed_webhooks     failed-webhook-store.ts
 */
import type { ExportError, ExportJobStatus, ProviderWebhookEvent } from '@wordcut/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { ExportItemStore, type ExportItemRow, type NewExportItem, type WebhookItem } from './export-item-store';
import { ExportJobStore, type ExportJobRow, type NewExportJob } from './export-job-store';
import { FailedWebhookStore } from './failed-webhook-store';
import { IdempotencyKeyStore } from './idempotency-key-store';
import { WebhookEventStore } from './webhook-event-store';

/** A job the store failed, and its items it failed with it (never reached or cut mid-upload). */
export interface FailedJob {
  job: ExportJobRow;
  unreached: ExportItemRow[];
}

/**
 * What a provider webhook did: `applied` to the items returned, `skipped` (every item holding its
 * upload id already has a newer event applied), or `none` (no item holds that upload id yet).
 */
export interface WebhookApplied {
  outcome: 'applied' | 'skipped' | 'none';
  items: WebhookItem[];
}

export class ExportStore {
  readonly jobs: ExportJobStore;
  readonly items: ExportItemStore;
  readonly keys: IdempotencyKeyStore;
  readonly webhookEvents: WebhookEventStore;
  readonly failedWebhooks: FailedWebhookStore;

  constructor(private readonly ds: DataSource) {
    this.jobs = new ExportJobStore(ds);
    this.items = new ExportItemStore(ds);
    this.keys = new IdempotencyKeyStore();
    this.webhookEvents = new WebhookEventStore(ds);
    this.failedWebhooks = new FailedWebhookStore(ds);
  }

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

  /** A new queued job and its items, inside the caller's transaction. */
  async insertJob(tx: EntityManager, job: NewExportJob, items: NewExportItem[]): Promise<void> {
    await this.jobs.insertJob(tx, job);
    await this.items.insertItems(tx, job.id, items);
  }

  /**
   * queued/processing → failed, once, with the export error the client shows; in the same
   * transaction every item not uploaded yet (pending, uploading) fails with it. Those items are
   * returned for the gateway to hear about; null when the job was already finished.
   */
  async fail(id: string, error: ExportError): Promise<FailedJob | null> {
    return this.ds.transaction(async (tx) => {
      const job = await this.jobs.finish(tx, id, 'failed', error);
      if (!job) return null;
      return { job, unreached: await this.items.failUnreached(tx, id) };
    });
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
      await this.webhookEvents.countAttempt(tx, e.id);
      const items = await this.items.applyWebhookEvent(tx, e);
      if (items === null) return { outcome: 'none', items: [] };
      const outcome = items.length > 0 ? 'applied' : 'skipped';
      await this.webhookEvents.settle(tx, e.id, outcome);
      return { outcome, items };
    });
  }

  /** After the last delivery: the event is failed and listed in failed_webhooks (for the dashboard), in one transaction. */
  async recordFailedWebhook(e: ProviderWebhookEvent, error: string, attempts: number): Promise<void> {
    await this.ds.transaction(async (tx) => {
      await this.webhookEvents.markFailed(tx, e.id, error, attempts);
      await this.failedWebhooks.insertFailed(tx, e, error, attempts);
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
