/**
 * Provider webhook events (`export.webhook_events`): the only code that runs SQL on that table.
 * An event is stored once by its id (a replay is not applied again); its status says what became
 * of it: received, applied, skipped (older than what its items hold) or failed.
 */
import type { ProviderWebhookEvent } from '@wordcut/contracts';
import type { DataSource, EntityManager } from 'typeorm';

/** The events received in the last 24 hours, by outcome, for the operators' health figures. */
export interface WebhooksLast24h {
  /** applied or skipped */
  applied: number;
  failed: number;
  /** received, tried and not settled yet */
  pending: number;
}

const W = `"export"."webhook_events"`;

export class WebhookEventStore {
  constructor(private readonly ds: DataSource) {}

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

  /** One more try at applying the event, inside the transaction that applies it. */
  async countAttempt(tx: EntityManager, eventId: string): Promise<void> {
    await tx.query(`UPDATE ${W} SET attempts = attempts + 1 WHERE event_id = $1`, [eventId]);
  }

  /** The event applied or skipped, inside the transaction that applied it. */
  async settle(tx: EntityManager, eventId: string, outcome: 'applied' | 'skipped'): Promise<void> {
    await tx.query(`UPDATE ${W} SET status = $2, last_error = NULL WHERE event_id = $1`, [eventId, outcome]);
  }

  async webhookAttemptFailed(eventId: string, error: string): Promise<void> {
    await this.ds.query(`UPDATE ${W} SET last_error = $2 WHERE event_id = $1`, [eventId, error]);
  }

  /** After the last delivery the event is failed, inside the transaction that lists it in failed_webhooks. */
  async markFailed(tx: EntityManager, eventId: string, error: string, attempts: number): Promise<void> {
    await tx.query(`UPDATE ${W} SET status = 'failed', last_error = $2, attempts = GREATEST(attempts, $3) WHERE event_id = $1`, [eventId, error, attempts]);
  }

  async last24h(): Promise<WebhooksLast24h> {
    const rows = (await this.ds.query(
      `SELECT count(*) FILTER (WHERE status IN ('applied', 'skipped'))::int AS applied,
              count(*) FILTER (WHERE status = 'failed')::int AS failed,
              count(*) FILTER (WHERE status = 'received' AND attempts > 0 OR status = 'received' AND last_error IS NOT NULL)::int AS pending
       FROM ${W} WHERE received_at > now() - interval '24 hours'`,
    )) as Array<{ applied: number; failed: number; pending: number }>;
    const h = rows[0]!;
    return { applied: h.applied, failed: h.failed, pending: h.pending };
  }
}
