import { DEAD_LETTER_CRITICAL, DEAD_LETTER_WARNING, DELIVERIES_BEFORE_DEAD_LETTER, type WorkerMetrics } from '@wordcut/contracts';
import { plural } from '../format';

/**
 * The figures' judgements: pure, unit-tested. A tone picks the colour (badge or figure class
 * `--ok`, `--warn`, `--bad`, `--neutral`); the label says the same in words, so colour is never alone.
 */
export type Tone = 'ok' | 'warn' | 'bad' | 'neutral';
export interface Level {
  label: string;
  tone: Tone;
}

const capitalize = (s: string): string => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/** Feature switches: Enabled or Disabled. */
export const enabledLevel = (on: boolean): Level => (on ? { label: 'Enabled', tone: 'ok' } : { label: 'Disabled', tone: 'neutral' });

/** The job queue's health: healthy, degraded, unhealthy, or 'unknown' when the payload has none. */
export function queueHealthLevel(status: string | null | undefined): Level {
  const s = status || 'unknown';
  const tone: Tone = s === 'healthy' ? 'ok' : s === 'degraded' ? 'warn' : s === 'unhealthy' ? 'bad' : 'neutral';
  return { label: capitalize(s), tone };
}

/** The media work queue's health: healthy, warning, otherwise destructive. */
export function workQueueHealthLevel(status: string | null | undefined): Level {
  const s = status || 'unknown';
  return { label: capitalize(s), tone: s === 'healthy' ? 'ok' : s === 'warning' ? 'warn' : 'bad' };
}

/** Dead letters: red above 50, yellow above 10, green otherwise. */
export function deadLetterLevel(count: number): Level {
  if (count > DEAD_LETTER_CRITICAL) return { label: 'Critical', tone: 'bad' };
  if (count > DEAD_LETTER_WARNING) return { label: 'Warning', tone: 'warn' };
  return { label: 'OK', tone: 'ok' };
}

/** The dead-letter queue's note and its call to action. */
export const DEAD_LETTER_NOTE = `After ${DELIVERIES_BEFORE_DEAD_LETTER} failed retries`;
export const deadLetterAdvice = (count: number): string => (count === 0 ? 'No failed jobs' : 'Review DLQ for failed jobs');

/** Worker error rate (percent): under 1 Excellent, under 5 Warning, otherwise Critical. */
export function errorRateLevel(percent: number): Level {
  if (percent < 1) return { label: 'Excellent', tone: 'ok' };
  if (percent < 5) return { label: 'Warning', tone: 'warn' };
  return { label: 'Critical', tone: 'bad' };
}

/** The worker average above which responses count as slow (ms). */
export const SLOW_DURATION_MS = 30_000;

/** Average duration: under 30000 ms Fast, otherwise Slow. */
export const durationLevel = (averageMs: number): Level => (averageMs < SLOW_DURATION_MS ? { label: 'Fast', tone: 'ok' } : { label: 'Slow', tone: 'warn' });

/** Throttles: 0 means none. */
export const throttleLevel = (throttles: number): Level => (throttles === 0 ? { label: 'None', tone: 'ok' } : { label: plural(throttles, 'throttle'), tone: 'warn' });

/** A cost with 4 decimals, dollar sign and currency ("$0.0123 USD"). */
export function formatCost(amount: number, currency: string): string {
  return `$${(Number.isFinite(amount) ? amount : 0).toFixed(4)} ${currency}`;
}

/** A unit price without exponent notation ("$0.20", "$0.0000166667"). */
export function formatPrice(amount: number): string {
  return `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 10 })}`;
}

/** The note on the assumed pricing under the estimated cost. */
export function pricingNote(cost: Pick<WorkerMetrics['cost'], 'pricePerMillionRequests' | 'pricePerGbSecond'>): string {
  return `Estimate assumes ${formatPrice(cost.pricePerMillionRequests)} per 1M requests plus ${formatPrice(cost.pricePerGbSecond)} per GB-second.`;
}

/** Seconds with one decimal ("12.3 s"). */
export const formatSeconds = (seconds: number): string => (Number.isFinite(seconds) ? `${seconds.toFixed(1)} s` : 'N/A');

/** A success rate in percent with one decimal ("97.5%"). */
export const formatRate = (percent: number): string => (Number.isFinite(percent) ? `${percent.toFixed(1)}%` : 'N/A');
