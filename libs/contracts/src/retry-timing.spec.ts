import { exponentialDelayMs, fullJitterBackoffMs, readRetryAfter } from './retry-timing';

describe('exponentialDelayMs', () => {
  it('doubles from the base up to the cap; attempts below 1 count as the first', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => exponentialDelayMs(n, 1000, 30_000))).toEqual([1000, 2000, 4000, 8000, 16000, 30000]);
    expect([0, -2].map((n) => exponentialDelayMs(n, 1000, 30_000))).toEqual([1000, 1000]);
  });
});

describe('fullJitterBackoffMs', () => {
  const o = { baseDelayMs: 500, maxDelayMs: 15_000 };
  it('is a whole number below the capped exponential delay', () => {
    expect([1, 2, 3, 4].map((n) => fullJitterBackoffMs(n, o, () => 0.999999))).toEqual([499, 999, 1999, 3999]);
    expect(fullJitterBackoffMs(20, o, () => 0.5)).toBe(7500);
    expect(fullJitterBackoffMs(3, o, () => 0)).toBe(0);
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
