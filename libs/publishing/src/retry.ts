/**
 * Timing rules of publishing in the browser: the job status poll and its retries, and the token
 * refresh cadence. The retry curve itself is the system's one policy (libs/contracts retry.ts).
 * Pure: no React, DOM, Node APIs or IO (the caller owns the timers and the randomness).
 */
import { backoffMs, Retry } from '@wordcut/contracts';

/** Export job status polling interval. */
export const POLL_INTERVAL_MS = 2000;
/** A failed status poll is tried again this many times. */
export const POLL_RETRIES = Retry.statusPoll.tries - 1;
/** The session token is refreshed every 10 minutes, and 30 s after a failed refresh. */
export const TOKEN_REFRESH_INTERVAL_MS = 600_000;
export const TOKEN_REFRESH_RETRY_MS = 30_000;

/** The wait after the n-th failed status poll (from 1): the policy's curve with full jitter. */
export function pollRetryDelayMs(failures: number, random: () => number = Math.random): number {
  return backoffMs(Retry.statusPoll, failures, random);
}
