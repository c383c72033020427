/**
 * Timing rules of publishing: job polling and its
 * backoff, jitter, the token refresh cadence, and reading a Retry-After header.
 * Pure: no React, DOM, Node APIs or IO (the caller owns the timers and the randomness).
 */
import { exponentialDelayMs, readRetryAfter } from '@wordcut/contracts';

/** Export job status polling interval. */
export const POLL_INTERVAL_MS = 2000;
/** A failed status poll is retried this many times. */
export const POLL_RETRIES = 3;
/** First backoff delay and its ceiling: 1 s doubling up to 30 s. */
export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;
/** The session token is refreshed every 10 minutes, and 30 s after a failed refresh. */
export const TOKEN_REFRESH_INTERVAL_MS = 600_000;
export const TOKEN_REFRESH_RETRY_MS = 30_000;

/**
 * The wait before retry number `attempt` (1-based): 1000 × 2^(attempt-1) ms, at most 30000
 * (1 s, 2 s, 4 s, ... 30 s). Attempts below 1 (or NaN) count as the first.
 */
export function backoffDelayMs(attempt: number): number {
  const n = Number.isNaN(attempt) ? 1 : Math.max(1, Math.floor(attempt));
  if (n > 16) return BACKOFF_MAX_MS; // far past the cap already; no huge powers
  return exponentialDelayMs(n, BACKOFF_BASE_MS, BACKOFF_MAX_MS);
}

/**
 * Spreads retries of many clients over [ms/2, ms] so they do not hit the server in step:
 * ms/2 + random × ms/2, with `random` in 0..1 (clamped) from the caller's random source.
 */
export function withJitter(ms: number, random: number): number {
  const r = Number.isFinite(random) ? Math.min(1, Math.max(0, random)) : 0;
  return ms / 2 + (r * ms) / 2;
}

/**
 * A Retry-After header in milliseconds from `now`: delay-seconds ('120') or an HTTP-date
 * ('Wed, 21 Oct 2015 07:28:00 GMT'); a date in the past is 0. Null when absent or unreadable.
 */
export function retryAfterMs(headerValue: string | null | undefined, now: Date): number | null {
  const asked = readRetryAfter(headerValue);
  if (!asked) return null;
  if ('delaySeconds' in asked) return Number.isSafeInteger(asked.delaySeconds * 1000) ? asked.delaySeconds * 1000 : null;
  if (!Number.isFinite(now.getTime())) return null;
  return Math.max(0, asked.untilMs - now.getTime());
}
