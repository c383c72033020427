import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** Request-scoped context that follows async work: the correlation id of the user action. */
export interface RequestContext {
  correlationId: string;
  /** what is being handled: `GET /api/videos/x` or a message subject */
  endpoint?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
}

const CORRELATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Accepts a caller's correlation id only when it is a sane token; otherwise makes a new one. */
export function correlationIdFrom(candidate: unknown): string {
  return typeof candidate === 'string' && CORRELATION_ID.test(candidate) ? candidate : randomUUID();
}
