import 'reflect-metadata';
import { type DynamicModule, type INestApplication, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError } from './config';
import type { HealthCheck } from './health';
import { ErrorLogRelay } from './error-log';
import { createLogger, NestJsonLogger, type Logger } from './logger';
import { ServiceMetrics } from './metrics';
import { ErrorBodyFilter, PlatformModule, requestContextMiddleware } from './nest';
import type { NestExpressApplication } from '@nestjs/platform-express';

export interface BaseConfig {
  PORT: number;
  HOST: string;
  LOG_LEVEL: string;
  SHUTDOWN_TIMEOUT_MS: number;
}

export interface ServiceParts {
  /** the service's own Nest module (controllers, providers) */
  module: Type | DynamicModule;
  healthChecks: HealthCheck[];
  /** starts consumers and other background work once HTTP listens */
  start?: () => Promise<void>;
  /** releases connections; called once on shutdown */
  close: () => Promise<void>;
}

export interface RunningService {
  app: INestApplication;
  url: string;
  logger: Logger;
  stop: () => Promise<void>;
}

/** Largest JSON request body unless a service sets its own (Nest's default is 100 KB). */
export const DEFAULT_JSON_BODY_LIMIT = '1mb';

/**
 * The one way a WordCut service boots: validated config (or exit 1 with every problem named),
 * JSON logger, metrics, Nest app with /healthz and /metrics, correlation-id middleware, the
 * ErrorBody filter, and a graceful shutdown on SIGTERM/SIGINT bounded by SHUTDOWN_TIMEOUT_MS.
 */
export async function runService<C extends BaseConfig>(opts: {
  name: string;
  loadConfig: () => C;
  create: (ctx: { config: C; logger: Logger; metrics: ServiceMetrics; errorLog: ErrorLogRelay }) => Promise<ServiceParts>;
  installSignalHandlers?: boolean;
  /** Largest JSON request body (body-parser syntax, e.g. '1mb'); larger ones get 413. Default 1 MB. */
  jsonBodyLimit?: string;
  /** Keep the unparsed body as `req.rawBody` (a Buffer), for signatures computed over the exact bytes (webhooks). */
  rawBody?: boolean;
  /** Express `trust proxy`: which hops may set X-Forwarded-For (the client address for rate limits). */
  trustProxy?: (config: C) => string;
}): Promise<RunningService> {
  let config: C;
  try {
    config = opts.loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  // error and fatal entries also go to the operators' error log once the service attaches its bus
  const errorLog = new ErrorLogRelay(opts.name);
  const logger = createLogger(opts.name, config.LOG_LEVEL, undefined, errorLog);
  const metrics = new ServiceMetrics(opts.name);
  const parts = await opts.create({ config, logger, metrics, errorLog });

  @Module({ imports: [PlatformModule.forRoot({ service: opts.name, logger, metrics, healthChecks: parts.healthChecks }), parts.module] })
  class RootModule {}

  const app = await NestFactory.create<NestExpressApplication>(RootModule, { logger: new NestJsonLogger(logger), bodyParser: true, rawBody: opts.rawBody ?? false });
  if (opts.trustProxy) app.set('trust proxy', opts.trustProxy(config));
  app.useBodyParser('json', { limit: opts.jsonBodyLimit ?? DEFAULT_JSON_BODY_LIMIT });
  app.use(requestContextMiddleware({ service: opts.name, logger, metrics, healthChecks: parts.healthChecks }));
  app.useGlobalFilters(new ErrorBodyFilter(logger));
  await app.listen(config.PORT, config.HOST);
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  if (parts.start) await parts.start();
  logger.info({ url }, `${opts.name} ready`);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      logger.info('shutting down');
      const timer = setTimeout(() => {
        logger.error('shutdown timed out, exiting');
        process.exit(1);
      }, config.SHUTDOWN_TIMEOUT_MS);
      timer.unref();
      await app.close().catch((err) => logger.error({ err }, 'http close failed'));
      errorLog.detach();
      await parts.close().catch((err) => logger.error({ err }, 'close failed'));
      clearTimeout(timer);
    })());
  if (opts.installSignalHandlers !== false) {
    for (const sig of ['SIGTERM', 'SIGINT'] as const) {
      process.once(sig, () => {
        void stop().then(() => process.exit(0));
      });
    }
  }
  return { app, url, logger, stop };
}

/** Entry point of a service's main.ts: runs it, or exits 1 with the reason on stderr. */
export function runMain(name: string, main: () => Promise<unknown>): void {
  main().catch((err: unknown) => {
    process.stderr.write(`${name} failed to start: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}
