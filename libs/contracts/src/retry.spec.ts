import { backoffCeilingMs, backoffMs, isRetryableStatus, nextTryInMs, readRetryAfter, Retry, retryAfterMs } from './retry';
import { Consumers } from './consumers';

const p = { tries: 5, baseMs: 500, maxMs: 30_000 };

describe('backoffCeilingMs', () => {
  it('doubles from the base up to the ceiling; counts below 1 (or NaN) are the first', () => {
    expect([1, 2, 3, 4, 7, 8, 100].map((n) => backoffCeilingMs(p, n))).toEqual([500, 1000, 2000, 4000, 30_000, 30_000, 30_000]);
    expect([0, -2, NaN, 1.7].map((n) => backoffCeilingMs(p, n))).toEqual([500, 500, 500, 500]);
    expect(backoffCeilingMs(p, Infinity)).toBe(30_000);
  });
});

describe('backoffMs (full jitter)', () => {
  it('is a whole number of ms in [0, ceiling)', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(p, n, () => 0.999999))).toEqual([499, 999, 1999, 3999]);
    expect(backoffMs(p, 20, () => 0.5)).toBe(15_000);
    expect(backoffMs(p, 3, () => 0)).toBe(0);
  });

  it('clamps a random source outside [0, 1]', () => {
    expect([-1, 2, NaN].map((r) => backoffMs(p, 1, () => r))).toEqual([0, 500, 0]);
  });

  it('never waits longer after more failures, for the same draw', () => {
    for (const r of [0, 0.3, 0.99]) for (let n = 1; n < 12; n += 1) expect(backoffMs(p, n + 1, () => r)).toBeGreaterThanOrEqual(backoffMs(p, n, () => r));
  });
});

describe('nextTryInMs', () => {
  it('stops when the tries are used up', () => {
    expect(nextTryInMs(p, 4, () => 0.999999)).toBe(3999);
    expect(nextTryInMs(p, 5, () => 0.5)).toBeNull();
  });

  it('takes a Retry-After within the policy as a floor, and leaves a longer one to the caller', () => {
    expect(nextTryInMs(p, 1, () => 0.999999, 2000)).toBe(2000);
    expect(nextTryInMs(p, 4, () => 0.999999, 100)).toBe(3999);
    expect(nextTryInMs(p, 1, () => 0, 30_000)).toBe(30_000);
    expect(nextTryInMs(p, 1, () => 0, 30_001)).toBeNull();
  });
});

describe('isRetryableStatus', () => {
  it('retries timeouts, throttling and server errors, nothing else', () => {
    expect([408, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([200, 308, 400, 401, 403, 404, 409, 413, 422].some(isRetryableStatus)).toBe(false);
  });
});

describe('retryAfterMs', () => {
  const now = Date.UTC(2015, 9, 21, 7, 28, 0);
  it('reads seconds and dates; a past date is 0; unreadable is null', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:30 GMT', NaN)).toBeNull();
  });
});

describe('Retry (the policies)', () => {
  it('gives each JetStream consumer of publishing its policy\'s tries', () => {
    expect(Consumers.exportRun.maxDeliver).toBe(Retry.exportRun.tries);
    expect(Consumers.exportWebhooks.maxDeliver).toBe(Retry.providerWebhook.tries);
    expect(Consumers.exportRun.backoff).toEqual({ baseMs: Retry.exportRun.baseMs, maxMs: Retry.exportRun.maxMs });
    expect(Consumers.mediaRender).toMatchObject({ maxDeliver: Retry.redelivery.tries, backoff: { baseMs: Retry.redelivery.baseMs, maxMs: Retry.redelivery.maxMs } });
  });

  it('keeps every wait of every policy under its ceiling', () => {
    for (const policy of Object.values(Retry)) {
      expect(policy.tries).toBeGreaterThanOrEqual(1);
      for (let n = 1; n < policy.tries; n += 1) expect(nextTryInMs(policy, n, () => 0.999999)).toBeLessThan(policy.maxMs + 1);
    }
  });
});

describe('readRetryAfter', () => {
  it('reads delay-seconds', () => {
    expect(readRetryAfter(' 120 ')).toEqual({ delaySeconds: 120 });
    expect(readRetryAfter('0')).toEqual({ delaySeconds: 0 });
  });

  it('reads an HTTP date', () => {
    expect(readRetryAfter('Wed, 21 Oct 2015 07:28:00 GMT')).toEqual({ untilMs: Date.UTC(2015, 9, 21, 7, 28, 0) });
  });

  it('is null when absent or unreadable', () => {
    for (const v of [undefined, null, '', '  ', '-5', '1.5', 'soon', 'Wed, 99 Foo 2015']) expect(readRetryAfter(v)).toBeNull();
  });
});
