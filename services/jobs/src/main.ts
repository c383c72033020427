import { startTracing } from '@wordcut/platform';
startTracing('jobs');

import { Module } from '@nestjs/common';
import { Messaging, relayErrorLogs } from '@wordcut/messaging';
import { databaseAndBusParts, natsSettings, openMigrated, runMain, runService } from '@wordcut/platform';
import { loadJobsConfig, SCHEMA, SERVICE } from './config';
import { jobsDataSource } from './data-source';
import { JobStore } from './job-store';
import { JobsService } from './jobs.service';

@Module({})
class JobsModule {}

export async function main() {
  return runService({
    name: SERVICE,
    loadConfig: () => loadJobsConfig(),
    create: async ({ config, logger, metrics, errorLog }) => {
      const ds = await openMigrated(jobsDataSource(config.DATABASE_URL), SCHEMA);
      const bus = await Messaging.connect({ ...natsSettings(config), name: SERVICE, logger, metrics });
      const jobs = new JobsService(bus, new JobStore(ds), logger);
      return {
        module: JobsModule,
        ...databaseAndBusParts(ds, bus),
        start: async () => {
          await relayErrorLogs(bus, errorLog, SERVICE);
          await jobs.start();
        },
      };
    },
  });
}

if (require.main === module) runMain(SERVICE, main);
