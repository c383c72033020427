import { retryDelayMs } from './backoff';

describe('retryDelayMs', () => {
  it('doubles per delivery from the base, within +-20% jitter', () => {
    expect(retryDelayMs(1, 1000, 60000, () => 0.5)).toBe(1000);
    expect(retryDelayMs(2, 1000, 60000, () => 0.5)).toBe(2000);
    expect(retryDelayMs(3, 1000, 60000, () => 0.5)).toBe(4000);
    expect(retryDelayMs(3, 1000, 60000, () => 0)).toBe(3200);
    expect(retryDelayMs(3, 1000, 60000, () => 0.999999)).toBe(4800);
  });

  it('never exceeds the cap', () => {
    expect(retryDelayMs(30, 1000, 60000, () => 0.999999)).toBe(60000);
  });
});
