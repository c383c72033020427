import { startTracing } from '@wordcut/platform';
startTracing('analytics');

import { Module } from '@nestjs/common';
import { Messaging } from '@wordcut/messaging';
import { assertMigrated, runMain, runService } from '@wordcut/platform';
import { loadAnalyticsConfig, SCHEMA, SERVICE } from './config';
import { analyticsDataSource } from './data-source';
import { JobEventRecorder } from './job-events';

@Module({})
class AnalyticsModule {}

export async function main() {
  return runService({
    name: SERVICE,
    loadConfig: () => loadAnalyticsConfig(),
    create: async ({ config, logger, metrics }) => {
      const ds = analyticsDataSource(config.DATABASE_URL);
      await ds.initialize();
      await assertMigrated(ds, SCHEMA);
      const bus = await Messaging.connect({ servers: config.NATS_URL, user: config.NATS_USER, pass: config.NATS_PASSWORD, token: config.NATS_TOKEN, namespace: config.NATS_NAMESPACE, name: SERVICE, logger, metrics });
      const recorder = new JobEventRecorder(bus, ds);
      return {
        module: AnalyticsModule,
        healthChecks: [
          { name: 'postgres', check: async () => void (await ds.query('SELECT 1')) },
          { name: 'nats', check: () => bus.ping() },
        ],
        start: () => recorder.start(),
        close: async () => {
          await bus.close();
          await ds.destroy();
        },
      };
    },
  });
}

if (require.main === module) runMain(SERVICE, main);
