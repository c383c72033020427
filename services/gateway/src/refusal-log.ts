import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import { AppError, type Logger } from '@wordcut/platform';
import type { Request } from 'express';
import { catchError, type Observable, throwError } from 'rxjs';
import type { RequestWithIdentity } from './auth/identity';
import { TOO_MANY_ENTRIES } from './http';
import { LOGGER } from './injection';

/** Refusals of oversized input (`details.reason`) that operators see in their error log. */
const REPORTED_REASONS = new Set([TOO_MANY_ENTRIES, 'TOO_MANY_BLOCKS']);

/** Logs a refusal of oversized input as a reported warning: who sent what, and the limit it broke. */
export function reportOversized(logger: Logger, req: Request & RequestWithIdentity, what: Record<string, unknown>, message: string): void {
  logger.warn({ report: true, method: req.method, path: req.path, userId: req.identity?.userId, ...what }, message);
}

/** Every route: a body refused for too many entries is reported to the operators' error log. */
@Injectable()
export class RefusalLog implements NestInterceptor {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((err: unknown) => {
        const reason = err instanceof AppError ? (err.details as { reason?: unknown } | undefined)?.reason : undefined;
        if (typeof reason === 'string' && REPORTED_REASONS.has(reason)) {
          reportOversized(this.logger, ctx.switchToHttp().getRequest(), { reason, refusal: (err as AppError).message }, 'request refused: a list over its limit');
        }
        return throwError(() => err);
      }),
    );
  }
}
