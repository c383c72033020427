import { startTracing } from '@wordcut/platform';
startTracing('analytics');

import { Module } from '@nestjs/common';
import { Messaging } from '@wordcut/messaging';
import { databaseAndBusParts, natsSettings, openMigrated, runMain, runService } from '@wordcut/platform';
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
      const ds = await openMigrated(analyticsDataSource(config.DATABASE_URL), SCHEMA);
      const bus = await Messaging.connect({ ...natsSettings(config), name: SERVICE, logger, metrics });
      const recorder = new JobEventRecorder(bus, ds);
      return { module: AnalyticsModule, ...databaseAndBusParts(ds, bus), start: () => recorder.start() };
    },
  });
}

if (require.main === module) runMain(SERVICE, main);
