/**
 * Retry timing shared by the browser and the services: exponential backoff (with full jitter) and
 * reading a Retry-After header. Pure: the caller owns the clock, the timers and the randomness.
 */

/** base × 2^(attempt-1), at most maxMs; `attempt` counts from 1 (lower counts as 1). */
export function exponentialDelayMs(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

/**
 * Full-jitter exponential backoff: a whole number of ms, uniform in [0, min(max, base·2^(attempt-1))),
 * with `random` in [0, 1). `attempt` counts from 1.
 */
export function fullJitterBackoffMs(attempt: number, o: { baseDelayMs: number; maxDelayMs: number }, random: () => number): number {
  return Math.floor(random() * exponentialDelayMs(attempt, o.baseDelayMs, o.maxDelayMs));
}

/** A Retry-After value as sent: delay-seconds, or the HTTP date (epoch ms) to wait until. */
export type RetryAfter = { delaySeconds: number } | { untilMs: number };

/**
 * Reads a Retry-After header: delay-seconds ('120') or an HTTP date ('Wed, 21 Oct 2015 07:28:00 GMT').
 * Null when absent or unreadable ('-5', '1.5' and 'soon' are unreadable).
 */
export function readRetryAfter(value: string | null | undefined): RetryAfter | null {
  const v = value?.trim();
  if (!v) return null;
  if (/^\d+$/.test(v)) return { delaySeconds: Number(v) };
  // an HTTP date names its weekday and month; Date.parse would read '-5' or '1.5' as dates too
  if (!/[a-z]{3}/i.test(v)) return null;
  const untilMs = Date.parse(v);
  return Number.isNaN(untilMs) ? null : { untilMs };
}
