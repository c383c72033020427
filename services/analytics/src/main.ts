import { startTracing } from '@wordcut/platform';
startTracing('analytics');

import { Module } from '@nestjs/common';
import { errorLogBulkDeleteSchema, errorLogQuerySchema, Subjects } from '@wordcut/contracts';
import { Messaging, relayErrorLogs } from '@wordcut/messaging';
import { databaseAndBusParts, natsSettings, openMigrated, runMain, runService } from '@wordcut/platform';
import { z } from 'zod';
import { loadAnalyticsConfig, SCHEMA, SERVICE } from './config';
import { analyticsDataSource } from './data-source';
import { ErrorLogKeeper, ErrorLogStore } from './error-logs';
import { poolSettings, workerMetrics, workerQuerySchema } from './figures';
import { JobEventRecorder } from './job-events';

@Module({})
class AnalyticsModule {}

export async function main() {
  return runService({
    name: SERVICE,
    loadConfig: () => loadAnalyticsConfig(),
    create: async ({ config, logger, metrics, errorLog }) => {
      const ds = await openMigrated(analyticsDataSource(config.DATABASE_URL), SCHEMA);
      const bus = await Messaging.connect({ ...natsSettings(config), name: SERVICE, logger, metrics });
      const recorder = new JobEventRecorder(bus, ds);
      const errors = new ErrorLogKeeper(bus, new ErrorLogStore(ds), { maxAgeDays: config.ERROR_LOG_MAX_AGE_DAYS, maxRows: config.ERROR_LOG_MAX_ROWS });
      const pool = poolSettings(config);
      const parts = databaseAndBusParts(ds, bus);
      return {
        module: AnalyticsModule,
        ...parts,
        close: async () => {
          errors.stop();
          await parts.close();
        },
        start: async () => {
          await relayErrorLogs(bus, errorLog, SERVICE);
          await recorder.start();
          await errors.start();
          // the gateway asks these for the operators' dashboard
          bus.serve(Subjects.rpcAnalyticsWorkers, workerQuerySchema, (q) => workerMetrics(recorder, pool, q.periodMinutes));
          bus.serve(Subjects.rpcAnalyticsEvents, z.object({}), async () => ({ enabled: config.ENABLE_ANALYTICS, ...(config.ENABLE_ANALYTICS ? await recorder.summary() : { summary: { todayCount: 0, weekCount: 0 }, last7Days: [] }) }));
          bus.serve(Subjects.rpcAnalyticsErrors, errorLogQuerySchema, (q) => errors.store.list(q));
          bus.serve(Subjects.rpcAnalyticsErrorsDelete, errorLogBulkDeleteSchema, async (b) => ({ deleted: await errors.store.delete(b.errorIds) }));
        },
      };
    },
  });
}

if (require.main === module) runMain(SERVICE, main);
