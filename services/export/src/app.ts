import { type DynamicModule, Module } from '@nestjs/common';
import { ExportStream, Streams } from '@wordcut/contracts';
import { Messaging, relayErrorLogs } from '@wordcut/messaging';
import { databaseAndBusParts, natsSettings, openMigrated, runService, s3Settings, type RunningService } from '@wordcut/platform';
import { HttpProviderClient, type HttpProviderClientOptions, type ProviderClient } from '@wordcut/provider';
import { S3ObjectStorage } from '@wordcut/storage';
import { loadExportConfig, SCHEMA, SERVICE, type ExportConfig } from './config';
import { exportDataSource } from './data-source';
import { ExportStore } from './export-store';
import { ExportService, type ExportServiceOptions } from './export.service';
import { ExportWorker, type ExportWorkerOptions } from './export.worker';
import { ExportMetrics } from './metrics';
import { serveOperatorCalls } from './operator-calls';
import { ExportOperatorRecords } from './operator-records';
import { RenderWaits, type RenderWaitOptions } from './render-waits';
import { WEBHOOK_RECEIVER, WebhookApplier, WebhookReceiver, WebhooksController, type WebhookApplierOptions } from './webhooks';

@Module({})
class ExportModule {
  static register(receiver: WebhookReceiver): DynamicModule {
    return { module: ExportModule, controllers: [WebhooksController], providers: [{ provide: WEBHOOK_RECEIVER, useValue: receiver }] };
  }
}

/** Timings a deployment leaves at their defaults and tests shorten. */
export interface ExportTuning {
  service?: Omit<ExportServiceOptions, 'upgradeUrl'>;
  worker?: Omit<ExportWorkerOptions, 'concurrency'>;
  renderWaits?: RenderWaitOptions;
  webhooks?: WebhookApplierOptions & { toleranceSec?: number };
  provider?: Pick<HttpProviderClientOptions, 'retry' | 'requestTimeoutMs'>;
}

export interface StartExportOptions {
  /** default: validated from the environment (exit 1 naming each bad variable) */
  config?: ExportConfig;
  tuning?: ExportTuning;
  installSignalHandlers?: boolean;
  /** replaces the HTTP provider client (tests of the service's own behaviour) */
  providerClient?: ProviderClient;
}

/**
 * Boots the export service: Postgres (migrated), S3, NATS (stream EXPORT and its consumers, and
 * the render-end consumers on JOBS), the request/reply handlers, the run worker, the render waits, the webhook applier and `POST /webhooks/provider`
 * (raw body kept for the signature). main.ts calls it; integration tests run it in-process.
 */
export async function startExport(o: StartExportOptions = {}): Promise<RunningService> {
  const tuning = o.tuning ?? {};
  return runService({
    name: SERVICE,
    loadConfig: () => o.config ?? loadExportConfig(),
    rawBody: true,
    ...(o.installSignalHandlers !== undefined ? { installSignalHandlers: o.installSignalHandlers } : {}),
    create: async ({ config, logger, metrics, errorLog }) => {
      const ds = await openMigrated(exportDataSource(config.DATABASE_URL), SCHEMA);
      const storage = new S3ObjectStorage(s3Settings(config));
      await storage.ensureBucket();
      const bus = await Messaging.connect({ ...natsSettings(config), name: SERVICE, logger, metrics });
      const store = new ExportStore(ds);
      const exportMetrics = new ExportMetrics(metrics);
      const client =
        o.providerClient ??
        new HttpProviderClient({
          apiUrl: config.PROVIDER_API_URL,
          chunkSize: config.PROVIDER_CHUNK_BYTES,
          ...(tuning.provider?.retry ? { retry: tuning.provider.retry } : {}),
          ...(tuning.provider?.requestTimeoutMs ? { requestTimeoutMs: tuning.provider.requestTimeoutMs } : {}),
        });
      const renderWaits = new RenderWaits(bus, store, storage, logger, exportMetrics, tuning.renderWaits);
      const service = new ExportService(bus, store, storage, logger, exportMetrics, renderWaits, { ...tuning.service, ...(config.EXPORT_UPGRADE_URL ? { upgradeUrl: config.EXPORT_UPGRADE_URL } : {}) });
      const worker = new ExportWorker(bus, store, storage, client, logger, exportMetrics, renderWaits, { ...tuning.worker, concurrency: config.EXPORT_CONCURRENCY });
      const applier = new WebhookApplier(bus, store, logger, tuning.webhooks);
      const receiver = new WebhookReceiver(bus, store, logger, exportMetrics, {
        secret: config.PROVIDER_WEBHOOK_SECRET,
        ...(tuning.webhooks?.toleranceSec !== undefined ? { toleranceSec: tuning.webhooks.toleranceSec } : {}),
      });
      const operatorRecords = new ExportOperatorRecords(store, config.PROVIDER_WEBHOOK_URL);
      // JOBS: the render jobs an export may wait for end there
      await bus.provision([ExportStream, Streams.jobs], [worker.consumer, applier.consumer, ...renderWaits.consumers]);
      const databaseAndBus = databaseAndBusParts(ds, bus);
      return {
        module: ExportModule.register(receiver),
        healthChecks: [...databaseAndBus.healthChecks, { name: 's3', check: () => storage.ping() }],
        start: async () => {
          await relayErrorLogs(bus, errorLog, SERVICE);
          service.start();
          await worker.start();
          await renderWaits.start();
          await applier.start();
          serveOperatorCalls(bus, operatorRecords, store.failedWebhooks, applier);
        },
        close: async () => {
          worker.stop();
          await service.stop();
          await databaseAndBus.close();
          storage.destroy();
        },
      };
    },
  });
}
