/**
 * The retry loop of provider calls: transient failures are tried again after a backoff with full
 * jitter (at least Retry-After) until the tries without progress are spent.
 */
import { nextTryInMs, type RetryPolicy } from '@wordcut/contracts';
import { aborted, ProviderError } from './provider-error';

export interface RetryState {
  attempts: number;
  /** consecutive failures since the last progress */
  failures: number;
}

/** Retries under one policy, waiting with `sleep` and drawing jitter from `random`. */
export class RetryLoop {
  constructor(
    private readonly retry: RetryPolicy,
    private readonly sleep: (ms: number) => Promise<void>,
    private readonly random: () => number,
  ) {}

  /** Runs `op` until it succeeds, fails for good, or the budget of tries without progress is spent. */
  async retrying<T>(state: RetryState, signal: AbortSignal | undefined, op: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        return await op();
      } catch (e) {
        if (!(e instanceof ProviderError) || !e.transient) throw e;
        await this.pause(e, state, signal);
      }
    }
  }

  /** Waits before the next try (backoff, at least Retry-After), or rethrows when it should not be retried. */
  async pause(e: ProviderError, state: RetryState, signal: AbortSignal | undefined): Promise<void> {
    state.failures += 1;
    if (state.failures >= this.retry.tries) {
      throw new ProviderError({ message: `${e.message}; gave up after ${state.failures} tries`, status: e.status, code: e.code, transient: true, ...(e.retryAfterSec !== undefined ? { retryAfterSec: e.retryAfterSec } : {}), cause: e });
    }
    const delay = nextTryInMs(this.retry, state.failures, this.random, e.retryAfterSec === undefined ? null : e.retryAfterSec * 1000);
    // a wait longer than we would ever back off is the caller's to schedule (the error carries it)
    if (delay === null) throw e;
    state.attempts += 1;
    await abortable(this.sleep(delay), signal);
  }
}

function abortable(p: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(aborted(signal));
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(aborted(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
