import { startTracing } from '@wordcut/platform';
startTracing('gateway');

import { type DynamicModule, Module } from '@nestjs/common';
import { Streams } from '@wordcut/contracts';
import { Messaging } from '@wordcut/messaging';
import { runMain, runService, s3Settings } from '@wordcut/platform';
import { S3ObjectStorage } from '@wordcut/storage';
import { loadGatewayConfig, SERVICE } from './config';
import { GATEWAY_DEPS, JobsController, type GatewayDeps } from './jobs.controller';

@Module({})
class GatewayModule {
  static register(deps: GatewayDeps): DynamicModule {
    return { module: GatewayModule, controllers: [JobsController], providers: [{ provide: GATEWAY_DEPS, useValue: deps }] };
  }
}

export async function main() {
  return runService({
    name: SERVICE,
    loadConfig: () => loadGatewayConfig(),
    create: async ({ config, logger, metrics }) => {
      const storage = new S3ObjectStorage(s3Settings(config));
      await storage.ensureBucket();
      const bus = await Messaging.connect({ servers: config.NATS_URL, namespace: config.NATS_NAMESPACE, name: SERVICE, logger, metrics });
      await bus.provision([Streams.jobs, Streams.media], []);
      return {
        module: GatewayModule.register({ config, bus, storage, logger }),
        healthChecks: [
          { name: 'nats', check: () => bus.ping() },
          { name: 's3', check: () => storage.ping() },
        ],
        close: () => bus.close(),
      };
    },
  });
}

if (require.main === module) runMain(SERVICE, main);
