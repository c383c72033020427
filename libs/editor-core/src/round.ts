/**
 * Times are kept to the millisecond, as the transcript domain stores them (WebVTT precision); the
 * rounding also removes float noise such as 1.3 - 1.2 = 0.10000000000000009.
 */
export function roundMs(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
