/**
 * The retry policy of the system, in one place: what is retried, how many times, on which curve,
 * and how a Retry-After answer is honoured. The provider client, JetStream redeliveries (export
 * runs, provider webhooks, media and job messages) and the browser's status polls all retry
 * through here. Pure: the caller owns the clock, the timers and the randomness.
 */

/** How a kind of work is retried: tries in all (the first included) on one backoff curve. */
export interface RetryPolicy {
  tries: number;
  /** the ceiling of the first wait; each further failure doubles it, up to maxMs */
  baseMs: number;
  maxMs: number;
}

/** The curve's ceiling after `failures` failures (from 1; lower counts as 1): base × 2^(failures-1), at most maxMs. */
export function backoffCeilingMs(policy: Pick<RetryPolicy, 'baseMs' | 'maxMs'>, failures: number): number {
  const n = Number.isNaN(failures) ? 1 : Math.max(1, Math.floor(failures));
  // far past any cap already: no huge powers
  if (n > 40) return policy.maxMs;
  return Math.min(policy.maxMs, policy.baseMs * 2 ** (n - 1));
}

/**
 * The one curve, with full jitter: a whole number of ms uniform in [0, ceiling), `random` in [0, 1)
 * from the caller. Clients that failed together do not come back together.
 */
export function backoffMs(policy: Pick<RetryPolicy, 'baseMs' | 'maxMs'>, failures: number, random: () => number): number {
  const r = random();
  const unit = Number.isFinite(r) ? Math.min(1, Math.max(0, r)) : 0;
  return Math.floor(unit * backoffCeilingMs(policy, failures));
}

/**
 * The wait before the next try after `failures` failures, or null when the policy stops: its tries
 * are used up, or the server asked (Retry-After) for longer than the policy ever waits, which the
 * caller schedules itself. A Retry-After within the policy is a floor under the backoff.
 */
export function nextTryInMs(policy: RetryPolicy, failures: number, random: () => number, retryAfterMs: number | null = null): number | null {
  if (failures >= policy.tries) return null;
  if (retryAfterMs !== null && retryAfterMs > policy.maxMs) return null;
  return Math.max(retryAfterMs ?? 0, backoffMs(policy, failures, random));
}

/** What is retried over HTTP: a timeout, too many requests, and server errors (5xx); other answers are final. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Only these answers carry a Retry-After worth reading. */
export const honoursRetryAfter = (status: number): boolean => status === 429 || status === 503;

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

/** A Retry-After header in ms from `nowMs`; a date in the past is 0. Null when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, nowMs: number): number | null {
  const asked = readRetryAfter(value);
  if (!asked) return null;
  if ('delaySeconds' in asked) return Number.isSafeInteger(asked.delaySeconds * 1000) ? asked.delaySeconds * 1000 : null;
  if (!Number.isFinite(nowMs)) return null;
  return Math.max(0, asked.untilMs - nowMs);
}

/**
 * Every retried kind of work. A JetStream consumer's tries are its maxDeliver (the consumer table
 * takes them from here).
 */
export const Retry = {
  /** one provider HTTP exchange (clone, refresh, an upload chunk); an upload counts failures since its last progress */
  providerRequest: { tries: 5, baseMs: 500, maxMs: 30_000 },
  /** an export run that failed, redelivered by JetStream (a decided failure is not retried) */
  exportRun: { tries: 3, baseMs: 1000, maxMs: 60_000 },
  /** a provider webhook event whose handling failed; after the last try it is recorded as failed */
  providerWebhook: { tries: 3, baseMs: 1000, maxMs: 60_000 },
  /** any other JetStream message whose handler failed (media, jobs, analytics, the gateway's events) */
  redelivery: { tries: 5, baseMs: 1000, maxMs: 60_000 },
  /** the browser's poll of a job's status: a failed poll is tried again three times */
  statusPoll: { tries: 4, baseMs: 1000, maxMs: 30_000 },
} as const satisfies Record<string, RetryPolicy>;
