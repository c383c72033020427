import { startTracing } from '@wordcut/platform';
startTracing('jobs');

import { Module } from '@nestjs/common';
import { Messaging } from '@wordcut/messaging';
import { assertMigrated, runMain, runService } from '@wordcut/platform';
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
    create: async ({ config, logger, metrics }) => {
      const ds = jobsDataSource(config.DATABASE_URL);
      await ds.initialize();
      await assertMigrated(ds, SCHEMA);
      const bus = await Messaging.connect({ servers: config.NATS_URL, user: config.NATS_USER, pass: config.NATS_PASSWORD, token: config.NATS_TOKEN, namespace: config.NATS_NAMESPACE, name: SERVICE, logger, metrics });
      const jobs = new JobsService(bus, new JobStore(ds), logger);
      return {
        module: JobsModule,
        healthChecks: [
          { name: 'postgres', check: async () => void (await ds.query('SELECT 1')) },
          { name: 'nats', check: () => bus.ping() },
        ],
        start: () => jobs.start(),
        close: async () => {
          await bus.close();
          await ds.destroy();
        },
      };
    },
  });
}

if (require.main === module) runMain(SERVICE, main);
