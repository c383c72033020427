import { exponentialDelayMs } from '@wordcut/contracts';

/** Delay before the next delivery after a failed attempt: exponential, capped, with +-20% jitter. */
export function retryDelayMs(deliveryCount: number, baseMs = 1000, maxMs = 60000, random = Math.random): number {
  const exp = exponentialDelayMs(deliveryCount, baseMs, maxMs);
  const jitter = 1 + (random() * 0.4 - 0.2);
  return Math.max(0, Math.round(Math.min(maxMs, exp * jitter)));
}
