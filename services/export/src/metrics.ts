import type { ServiceMetrics } from '@wordcut/platform';
import { Counter } from 'prom-client';

/** The export service's own counters, on the service's registry (served at /metrics). */
export class ExportMetrics {
  readonly created: Counter;
  readonly completed: Counter<'status'>;
  readonly uploadBytes: Counter;
  readonly webhooks: Counter<'result'>;

  constructor(metrics: ServiceMetrics) {
    const registers = [metrics.registry];
    this.created = new Counter({ name: 'exports_created_total', help: 'Export jobs created (replays and retries excluded)', registers });
    this.completed = new Counter({ name: 'exports_completed_total', help: 'Export jobs finished, by final status', labelNames: ['status'], registers });
    this.uploadBytes = new Counter({ name: 'export_upload_bytes_total', help: 'Bytes uploaded to the provider', registers });
    this.webhooks = new Counter({
      name: 'webhooks_received_total',
      help: 'Provider webhooks received, by result (accepted, duplicate, invalid_signature, invalid_payload, unavailable)',
      labelNames: ['result'],
      registers,
    });
  }
}
