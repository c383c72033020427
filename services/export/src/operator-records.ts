/**
 * What the operators' dashboard reads of the export schema, shaped for its answers: publishing
 * health over 24 hours and the failed webhooks (unresolved records, with the export job their
 * upload belongs to). No SQL here: each figure comes from the store of its table.
 */
import type { FailedWebhookPage, FailedWebhookQuery, ProviderIntegrationHealth } from '@wordcut/contracts';
import type { ExportStore } from './export-store';

const RECENT_FAILURES = 10;

export class ExportOperatorRecords {
  constructor(
    private readonly store: Pick<ExportStore, 'jobs' | 'webhookEvents' | 'failedWebhooks'>,
    /** the address the provider delivers webhooks to, shown with each failed one */
    private readonly webhookUrl: string,
  ) {}

  async health(): Promise<ProviderIntegrationHealth> {
    const [j, h, failures] = await Promise.all([this.store.jobs.last24h(), this.store.webhookEvents.last24h(), this.store.jobs.recentFailures(RECENT_FAILURES)]);
    const settled = h.applied + h.failed;
    return {
      error: null,
      last24h: { total: j.total, completed: j.completed, processing: j.processing, failed: j.failed, successRate: j.total > 0 ? round1((j.completed / j.total) * 100) : 0 },
      webhooks: { successRate: settled > 0 ? round1((h.applied / settled) * 100) : 100, pendingRetries: h.pending },
      performance: { avgProcessingTimeSeconds: round1(j.avgSeconds) },
      recentFailures: failures.map((f) => ({
        errorCode: f.error?.error ?? 'export_failed',
        jobId: f.id,
        errorMessage: f.error?.message ?? 'Unknown error',
        failedAt: f.finishedAt.toISOString(),
      })),
    };
  }

  async failedWebhooks(q: FailedWebhookQuery): Promise<FailedWebhookPage> {
    const { records, total } = await this.store.failedWebhooks.unresolved(q.limit, (q.page - 1) * q.limit);
    return {
      webhooks: records.map((r) => ({
        jobId: r.id,
        exportJobId: r.exportJobId,
        userId: r.userId,
        eventType: r.type,
        createdAt: (r.receivedAt ?? r.failedAt).toISOString(),
        failedAt: r.failedAt.toISOString(),
        webhookRetryCount: r.attempts + r.retryCount,
        webhookDetails: {
          error: r.error || null,
          latestRetryError: r.lastRetryError,
          webhookUrl: this.webhookUrl,
          jwtTokenMasked: r.signatureMasked,
          payload: r.payload,
          failedAt: r.failedAt.toISOString(),
        },
      })),
      pagination: { page: q.page, limit: q.limit, total, totalPages: Math.max(1, Math.ceil(total / q.limit)) },
    };
  }
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}
