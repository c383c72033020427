/** Delay before the next delivery after a failed attempt: exponential, capped, with +-20% jitter. */
export function retryDelayMs(deliveryCount: number, baseMs = 1000, maxMs = 60000, random = Math.random): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.max(0, deliveryCount - 1));
  const jitter = 1 + (random() * 0.4 - 0.2);
  return Math.max(0, Math.round(Math.min(maxMs, exp * jitter)));
}
