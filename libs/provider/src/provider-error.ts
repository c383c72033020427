/**
 * How provider calls fail: ProviderError, its `code` for each HTTP status, Retry-After read as
 * seconds, and the errors of an answer that is not what the step expects.
 */
import { honoursRetryAfter, isRetryableStatus, readRetryAfter } from '@wordcut/contracts';

/** A failed provider call. `transient` failures were retried until the budget ran out. */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  readonly status: number | null;
  readonly code: string;
  readonly retryAfterSec?: number;
  readonly transient: boolean;
  constructor(o: { message: string; status: number | null; code: string; transient: boolean; retryAfterSec?: number; cause?: unknown }) {
    super(o.message, o.cause === undefined ? undefined : { cause: o.cause });
    this.status = o.status;
    this.code = o.code;
    this.transient = o.transient;
    if (o.retryAfterSec !== undefined) this.retryAfterSec = o.retryAfterSec;
  }
}

/** One HTTP answer, its body read to the end. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** Retry-After as seconds (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  const asked = readRetryAfter(value);
  if (!asked) return undefined;
  return 'delaySeconds' in asked ? asked.delaySeconds : Math.max(0, Math.ceil((asked.untilMs - nowMs) / 1000));
}

function codeForStatus(status: number, bodyCode: string | undefined): string {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'provider_unavailable';
  return bodyCode ?? ({ 400: 'bad_request', 404: 'not_found', 408: 'timeout', 409: 'conflict', 413: 'too_large' } as Record<number, string>)[status] ?? `http_${status}`;
}

/** A non-2xx answer as a ProviderError; `what` names the step for the message ("Cloning the video"). */
export function answerError(what: string, a: Answer): ProviderError {
  let body: { error?: unknown; message?: unknown } = {};
  try {
    body = JSON.parse(a.text) as typeof body;
  } catch {
    // not JSON: the text itself is the detail
  }
  const detail = typeof body.message === 'string' ? body.message : a.text.trim().slice(0, 300);
  const retryAfterSec = honoursRetryAfter(a.status) ? parseRetryAfter(a.headers.get('retry-after')) : undefined;
  return new ProviderError({
    message: `${what} failed: the provider answered ${a.status}${detail ? ` (${detail})` : ''}`,
    status: a.status,
    code: codeForStatus(a.status, typeof body.error === 'string' ? body.error : undefined),
    transient: isRetryableStatus(a.status),
    ...(retryAfterSec !== undefined ? { retryAfterSec } : {}),
  });
}

/** A 2xx answer that lacks what the step needs. */
export function badResponse(what: string, detail: string): ProviderError {
  return new ProviderError({ message: `${what} failed: the provider's answer ${detail}`, status: null, code: 'bad_response', transient: false });
}

/** The caller cancelled (its signal aborted). */
export function aborted(signal: AbortSignal): ProviderError {
  const reason = signal.reason instanceof Error ? signal.reason.message : 'the upload was cancelled';
  return new ProviderError({ message: `Cancelled: ${reason}`, status: null, code: 'aborted', transient: false, cause: signal.reason });
}
