import {
  type ArgumentsHost,
  Catch,
  Controller,
  type DynamicModule,
  type ExceptionFilter,
  Get,
  HttpException,
  Inject,
  Module,
  type NestMiddleware,
  Res,
  SetMetadata,
} from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ZodError } from 'zod';
import { correlationIdFrom, currentCorrelationId, runWithContext } from './context';
import { AppError, defaultCodeForStatus, errorBody } from './errors';
import { runHealthChecks, type HealthCheck } from './health';
import type { Logger } from './logger';
import type { ServiceMetrics } from './metrics';

export const PLATFORM = Symbol('PLATFORM');

/** What every service hands to PlatformModule: its name, logger, metrics and dependency checks. */
export interface PlatformDeps {
  service: string;
  logger: Logger;
  metrics: ServiceMetrics;
  healthChecks: HealthCheck[];
}

/** Metadata key of routes that need no caller identity (health, metrics, entry points). */
export const PUBLIC_ROUTE = 'wordcut:public';
/** Marks a route (or a controller) as open to anonymous callers; every other route requires an identity where a service enforces one. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/** Query parameters that carry credentials: never written to a log line. */
const SECRET_QUERY_PARAMS = /^(token|st|sig|signature|access_token|id_token|code|x-amz-signature|x-amz-credential|x-amz-security-token)$/i;

/** A request URL fit for logs: credential-bearing query values replaced by 'redacted'. */
export function loggableUrl(originalUrl: string): string {
  const q = originalUrl.indexOf('?');
  if (q < 0) return originalUrl;
  const params = new URLSearchParams(originalUrl.slice(q + 1));
  for (const key of [...params.keys()]) if (SECRET_QUERY_PARAMS.test(key)) params.set(key, 'redacted');
  return `${originalUrl.slice(0, q)}?${params.toString()}`;
}

@Public()
@Controller()
export class OpsController {
  constructor(@Inject(PLATFORM) private readonly deps: PlatformDeps) {}

  /** 200 when every dependency answers, 503 otherwise; the body says which one failed. */
  @Get('healthz')
  async health(@Res() res: Response): Promise<void> {
    const report = await runHealthChecks(this.deps.service, this.deps.healthChecks);
    res.status(report.status === 'ok' ? 200 : 503).json(report);
  }

  @Get('metrics')
  async metrics(@Res() res: Response): Promise<void> {
    res.setHeader('Content-Type', this.deps.metrics.registry.contentType);
    res.send(await this.deps.metrics.registry.metrics());
  }
}

/**
 * Binds a correlation id (from X-Correlation-Id or new) to the request's async context,
 * echoes it, records the request duration and writes one access-log line.
 */
export function requestContextMiddleware(deps: PlatformDeps): NestMiddleware['use'] {
  return (req: Request, res: Response, next: NextFunction) => {
    const correlationId = correlationIdFrom(req.header('x-correlation-id'));
    res.setHeader('X-Correlation-Id', correlationId);
    const started = process.hrtime.bigint();
    runWithContext({ correlationId, endpoint: `${req.method} ${req.path}` }, () => {
      res.on('finish', () => {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const route = (req.route as { path?: string } | undefined)?.path ?? (res.statusCode === 404 ? 'unmatched' : req.path);
        deps.metrics.httpDuration.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
        if (req.path !== '/healthz' && req.path !== '/metrics') {
          deps.logger.info(
            { method: req.method, path: loggableUrl(req.originalUrl), status: res.statusCode, durationMs: Math.round(seconds * 1000) },
            'request',
          );
        }
      });
      next();
    });
  };
}

/** An http-errors style client error (what body-parser throws): 4xx status, marked safe to expose. */
function isClientHttpError(e: unknown): e is { statusCode: number; expose: true; type?: string; message: string; length?: number; limit?: number } {
  if (!e || typeof e !== 'object') return false;
  const x = e as { statusCode?: unknown; expose?: unknown };
  return typeof x.statusCode === 'number' && x.statusCode >= 400 && x.statusCode < 500 && x.expose === true;
}

/** The answer when Postgres cannot be reached: the change was not saved, and trying again will work once it is back. */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is not answering right now, so nothing was saved. Please try again in a moment.';
const DATABASE_RETRY_AFTER_SECONDS = 5;
/** Connection failures and server shutdowns (SQLSTATE class 08, 57P01-57P03), as node-postgres reports them. */
const DATABASE_DOWN_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']);
const DATABASE_DOWN_MESSAGE = /Connection terminated|connection timeout|Client has encountered a connection error|the database system is (starting up|shutting down|in recovery mode)/i;

/**
 * True for an error that says Postgres could not be reached, not for a query it refused: SQLSTATE
 * class 08 and 57P01-57P03, node-postgres' lost-connection messages, and a refused or reset socket
 * as node-postgres raises it (a plain Error with the socket's code; the S3 and NATS clients raise
 * their own error types, and our storage and upload code wraps theirs).
 */
export function isDatabaseUnavailable(e: unknown): boolean {
  if (!e || typeof e !== 'object') return false;
  const x = e as { code?: unknown; message?: unknown; driverError?: unknown; name?: unknown; syscall?: unknown; $metadata?: unknown };
  if (x.driverError && x.driverError !== e && isDatabaseUnavailable(x.driverError)) return true;
  if (typeof x.code === 'string' && /^(08|57P0[1-3])/.test(x.code)) return true;
  if (typeof x.message === 'string' && DATABASE_DOWN_MESSAGE.test(x.message)) return true;
  return typeof x.code === 'string' && DATABASE_DOWN_CODES.has(x.code) && x.name === 'Error' && typeof x.syscall === 'string' && x.$metadata === undefined;
}

/** Renders every error as the ErrorBody contract; hides internals of unexpected errors. */
@Catch()
export class ErrorBodyFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const correlationId = currentCorrelationId();
    let status = 500;
    let code: string = defaultCodeForStatus(500);
    let message = 'Something went wrong on our side. Please try again.';
    let details: unknown;
    let extra: Record<string, unknown> | undefined;
    if (exception instanceof AppError) {
      status = exception.statusCode;
      code = exception.code;
      message = exception.message;
      details = exception.details;
      extra = exception.extra;
    } else if (exception instanceof ZodError) {
      status = 400;
      code = defaultCodeForStatus(400);
      message = exception.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
      details = exception.issues;
    } else if (isClientHttpError(exception)) {
      // body-parser's own errors (413 too large, 400 malformed JSON, 415 charset): the client's fault, said plainly
      status = exception.statusCode;
      code = defaultCodeForStatus(status);
      message =
        exception.type === 'entity.too.large'
          ? `The request body is too large (${exception.length ?? 'over'} bytes; the limit is ${exception.limit ?? 'lower'}).`
          : exception.type === 'entity.parse.failed'
            ? 'The request body is not valid JSON.'
            : exception.message;
    } else if (isDatabaseUnavailable(exception)) {
      // the database went away under the request: nothing was committed, a retry will do
      status = 503;
      code = defaultCodeForStatus(503);
      message = DATABASE_UNAVAILABLE_MESSAGE;
      extra = { retryAfter: DATABASE_RETRY_AFTER_SECONDS };
    } else if (exception instanceof HttpException) {
      status = exception.getStatus();
      code = defaultCodeForStatus(status);
      const r = exception.getResponse();
      message = typeof r === 'string' ? r : ((r as { message?: string | string[] }).message?.toString() ?? exception.message);
    }
    if (status >= 500) this.logger.error({ err: exception }, 'request failed');
    if (res.headersSent) {
      res.end();
      return;
    }
    if (typeof extra?.['retryAfter'] === 'number') res.setHeader('Retry-After', String(Math.ceil(extra['retryAfter'])));
    res.status(status).json({ ...errorBody(status, code, message, correlationId, details), ...extra });
  }
}

@Module({})
export class PlatformModule {
  static forRoot(deps: PlatformDeps): DynamicModule {
    return {
      module: PlatformModule,
      global: true,
      controllers: [OpsController],
      providers: [{ provide: PLATFORM, useValue: deps }],
      exports: [PLATFORM],
    };
  }
}
