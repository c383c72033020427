import { backoffCeilingMs, Retry } from '@wordcut/contracts';
import { POLL_INTERVAL_MS, POLL_RETRIES, TOKEN_REFRESH_INTERVAL_MS, TOKEN_REFRESH_RETRY_MS, pollRetryDelayMs } from './retry';

describe('publishing timing', () => {
  it('polls every 2 s, tries a failed poll 3 more times, refreshes the token every 10 minutes', () => {
    expect([POLL_INTERVAL_MS, POLL_RETRIES, TOKEN_REFRESH_INTERVAL_MS, TOKEN_REFRESH_RETRY_MS]).toEqual([2000, 3, 600_000, 30_000]);
  });

  it('waits after a failed poll on the status-poll curve: up to 1 s, 2 s, 4 s, never past 30 s', () => {
    expect([1, 2, 3].map((n) => pollRetryDelayMs(n, () => 0.999999))).toEqual([999, 1999, 3999]);
    expect(pollRetryDelayMs(1, () => 0)).toBe(0);
    for (let n = 1; n < 20; n += 1) expect(pollRetryDelayMs(n)).toBeLessThan(backoffCeilingMs(Retry.statusPoll, n) + 1);
    expect(pollRetryDelayMs(50, () => 0.999999)).toBe(29_999);
  });
});
