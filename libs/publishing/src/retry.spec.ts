import fc from 'fast-check';
import {
  BACKOFF_MAX_MS,
  POLL_INTERVAL_MS,
  POLL_RETRIES,
  TOKEN_REFRESH_INTERVAL_MS,
  TOKEN_REFRESH_RETRY_MS,
  backoffDelayMs,
  retryAfterMs,
  withJitter,
} from './retry';

describe('constants', () => {
  it('polls every 2 s with 3 retries, refreshes tokens every 10 min and 30 s after a failure', () => {
    expect([POLL_INTERVAL_MS, POLL_RETRIES, TOKEN_REFRESH_INTERVAL_MS, TOKEN_REFRESH_RETRY_MS, BACKOFF_MAX_MS]).toEqual([2000, 3, 600_000, 30_000, 30_000]);
  });
});

describe('backoffDelayMs', () => {
  it('starts at 1 s and doubles up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 100].map(backoffDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('treats attempts below 1 or NaN as the first, and huge ones as the cap', () => {
    expect([0, -3, NaN, 1.7, Infinity, -Infinity].map(backoffDelayMs)).toEqual([1000, 1000, 1000, 1000, 30000, 1000]);
  });

  it('property: non-decreasing and within [1 s, 30 s]', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10, max: 2000 }), (n) => {
        const a = backoffDelayMs(n);
        expect(a).toBeGreaterThanOrEqual(1000);
        expect(a).toBeLessThanOrEqual(30000);
        expect(backoffDelayMs(n + 1)).toBeGreaterThanOrEqual(a);
      }),
    );
  });
});

describe('withJitter', () => {
  it('spreads over [ms/2, ms]', () => {
    expect([0, 0.5, 1].map((r) => withJitter(1000, r))).toEqual([500, 750, 1000]);
    expect([-1, 2, NaN].map((r) => withJitter(1000, r))).toEqual([500, 1000, 500]);
  });

  it('property: stays within [ms/2, ms]', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 60_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (ms, r) => {
        const j = withJitter(ms, r);
        expect(j).toBeGreaterThanOrEqual(ms / 2);
        expect(j).toBeLessThanOrEqual(ms);
      }),
    );
  });
});

describe('retryAfterMs', () => {
  const now = new Date('2015-10-21T07:28:00.000Z');

  it('reads delay-seconds', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
  });

  it('reads HTTP-dates, past dates as 0', () => {
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Wednesday, 21-Oct-15 07:29:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:00:00 GMT', now)).toBe(0);
  });

  it('is null when absent or unreadable', () => {
    for (const v of [null, undefined, '', '  ', '-5', '1.5', 'soon', 'Wed, 99 Foo 2015']) expect(retryAfterMs(v, now)).toBeNull();
  });
});
