import { ExportSubjects, failedWebhookQuerySchema, webhookBulkDeleteSchema, type WebhookRetryResult } from '@wordcut/contracts';
import type { Messaging } from '@wordcut/messaging';
import { z } from 'zod';
import { detailsOf } from './errors';
import type { FailedWebhookStore } from './failed-webhook-store';
import type { ExportOperatorRecords } from './operator-records';
import type { WebhookApplier } from './webhooks';

/**
 * The export service's answers to the operators' dashboard (asked by the gateway). A retry applies
 * the stored event again, now: applied resolves the record, a failure keeps it with the new error,
 * and an event older than what its upload last applied is skipped (resolved, not applied).
 */
export function serveOperatorCalls(bus: Messaging, records: ExportOperatorRecords, failedWebhooks: FailedWebhookStore, applier: Pick<WebhookApplier, 'apply'>): void {
  bus.serve(ExportSubjects.rpcHealth, z.object({}), () => records.health());
  bus.serve(ExportSubjects.rpcFailedWebhooks, failedWebhookQuerySchema, (q) => records.failedWebhooks(q));
  bus.serve(ExportSubjects.rpcRetryWebhook, z.object({ id: z.string().uuid() }), ({ id }) => retryWebhook(failedWebhooks, applier, id));
  bus.serve(ExportSubjects.rpcDeleteWebhooks, webhookBulkDeleteSchema, async ({ jobIds }) => ({ deleted: await failedWebhooks.deleteFailed(jobIds) }));
}

/** Answered (not applied) when a retried event is older than what its upload last applied. */
export const STALE_WEBHOOK_SKIPPED = 'Skipped: a newer provider event of this upload was already applied, so this older one was not.';

export async function retryWebhook(failedWebhooks: Pick<FailedWebhookStore, 'failedEvent' | 'retried'>, applier: Pick<WebhookApplier, 'apply'>, id: string): Promise<WebhookRetryResult | null> {
  const event = await failedWebhooks.failedEvent(id);
  if (!event) return null;
  let outcome: 'applied' | 'skipped';
  try {
    outcome = await applier.apply(event);
  } catch (err) {
    const error = detailsOf(err);
    await failedWebhooks.retried(id, error);
    return { jobId: id, succeeded: false, error };
  }
  if (outcome === 'skipped') {
    // stale: nothing left to retry, so the record is resolved, and the answer says it was not applied
    await failedWebhooks.retried(id, STALE_WEBHOOK_SKIPPED, true);
    return { jobId: id, succeeded: false, error: STALE_WEBHOOK_SKIPPED };
  }
  await failedWebhooks.retried(id, null);
  return { jobId: id, succeeded: true, error: null };
}
