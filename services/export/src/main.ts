import { startTracing } from '@wordcut/platform';
startTracing('export');

import { Module } from '@nestjs/common';
import { Streams } from '@wordcut/contracts';
import { Messaging } from '@wordcut/messaging';
import { assertMigrated, runMain, runService, s3Settings } from '@wordcut/platform';
import { S3ObjectStorage } from '@wordcut/storage';
import { loadExportConfig, SCHEMA, SERVICE } from './config';
import { exportDataSource } from './data-source';

@Module({})
class ExportModule {}

export async function main() {
  return runService({
    name: SERVICE,
    loadConfig: () => loadExportConfig(),
    create: async ({ config, logger, metrics }) => {
      const ds = exportDataSource(config.DATABASE_URL);
      await ds.initialize();
      await assertMigrated(ds, SCHEMA);
      const storage = new S3ObjectStorage(s3Settings(config));
      await storage.ensureBucket();
      const bus = await Messaging.connect({ servers: config.NATS_URL, namespace: config.NATS_NAMESPACE, name: SERVICE, logger, metrics });
      await bus.provision([Streams.jobs], []);
      return {
        module: ExportModule,
        healthChecks: [
          { name: 'postgres', check: async () => void (await ds.query('SELECT 1')) },
          { name: 'nats', check: () => bus.ping() },
          { name: 's3', check: () => storage.ping() },
        ],
        close: async () => {
          await bus.close();
          await ds.destroy();
        },
      };
    },
  });
}

if (require.main === module) runMain(SERVICE, main);
