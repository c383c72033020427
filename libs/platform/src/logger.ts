import { trace } from '@opentelemetry/api';
import type { LoggerService } from '@nestjs/common';
import pino, { type Logger, type DestinationStream } from 'pino';
import { currentContext } from './context';
import type { ErrorLogRelay } from './error-log';

export type { Logger } from 'pino';

/**
 * Structured JSON logs. Every line carries the service name, the correlation id of the
 * current request or message, and the OpenTelemetry trace and span ids when a span is active.
 */
export function createLogger(service: string, level = 'info', destination?: DestinationStream, errorLog?: ErrorLogRelay): Logger {
  const out = errorLog ? pino.multistream([{ level: 'trace', stream: destination ?? pino.destination(1) }, { level: 'warn', stream: errorLog }]) : destination;
  return pino(
    {
      level,
      base: { service },
      timestamp: pino.stdTimeFunctions.isoTime,
      // credentials never reach a log line, whatever object a call site logs
      redact: { paths: ['authorization', '*.authorization', '*.headers.authorization', 'token', '*.token', 'newToken', '*.newToken', 'cookie', '*.headers.cookie'], censor: 'redacted' },
      formatters: { level: (label) => ({ level: label }) },
      mixin() {
        const fields: Record<string, string> = {};
        const ctx = currentContext();
        if (ctx?.correlationId) fields['correlationId'] = ctx.correlationId;
        if (ctx?.endpoint) fields['endpoint'] = ctx.endpoint;
        const span = trace.getActiveSpan();
        if (span) {
          const sc = span.spanContext();
          fields['trace_id'] = sc.traceId;
          fields['span_id'] = sc.spanId;
        }
        return fields;
      },
    },
    out,
  );
}

/** Adapter so Nest's own logs go through the same JSON logger. */
export class NestJsonLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, stack: trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
