import { DEAD_LETTER_CRITICAL, DEAD_LETTER_WARNING } from '@wordcut/contracts';
import {
  DEAD_LETTER_NOTE,
  deadLetterAdvice,
  deadLetterLevel,
  durationLevel,
  enabledLevel,
  errorRateLevel,
  formatCost,
  formatPrice,
  formatRate,
  formatSeconds,
  pricingNote,
  queueHealthLevel,
  throttleLevel,
  workQueueHealthLevel,
} from './levels';

describe('figure levels', () => {
  it('colours dead letters green up to 10, yellow above 10, red above 50', () => {
    expect(deadLetterLevel(0)).toEqual({ label: 'OK', tone: 'ok' });
    expect(deadLetterLevel(DEAD_LETTER_WARNING).tone).toBe('ok');
    expect(deadLetterLevel(DEAD_LETTER_WARNING + 1)).toEqual({ label: 'Warning', tone: 'warn' });
    expect(deadLetterLevel(DEAD_LETTER_CRITICAL).tone).toBe('warn');
    expect(deadLetterLevel(DEAD_LETTER_CRITICAL + 1)).toEqual({ label: 'Critical', tone: 'bad' });
    expect(DEAD_LETTER_NOTE).toBe('After 3 failed retries');
    expect(deadLetterAdvice(0)).toBe('No failed jobs');
    expect(deadLetterAdvice(1)).toBe('Review DLQ for failed jobs');
  });

  it('labels the worker error rate: under 1% Excellent, under 5% Warning, otherwise Critical', () => {
    expect(errorRateLevel(0)).toEqual({ label: 'Excellent', tone: 'ok' });
    expect(errorRateLevel(0.99)).toEqual({ label: 'Excellent', tone: 'ok' });
    expect(errorRateLevel(1)).toEqual({ label: 'Warning', tone: 'warn' });
    expect(errorRateLevel(4.99)).toEqual({ label: 'Warning', tone: 'warn' });
    expect(errorRateLevel(5)).toEqual({ label: 'Critical', tone: 'bad' });
  });

  it('labels the average duration: under 30000 ms Fast, otherwise Slow; 0 throttles mean none', () => {
    expect(durationLevel(29_999)).toEqual({ label: 'Fast', tone: 'ok' });
    expect(durationLevel(30_000)).toEqual({ label: 'Slow', tone: 'warn' });
    expect(throttleLevel(0)).toEqual({ label: 'None', tone: 'ok' });
    expect(throttleLevel(1)).toEqual({ label: '1 throttle', tone: 'warn' });
    expect(throttleLevel(3)).toEqual({ label: '3 throttles', tone: 'warn' });
  });

  it('reads health and feature switches in words', () => {
    expect(queueHealthLevel(undefined)).toEqual({ label: 'Unknown', tone: 'neutral' });
    expect(queueHealthLevel('healthy')).toEqual({ label: 'Healthy', tone: 'ok' });
    expect(queueHealthLevel('degraded').tone).toBe('warn');
    expect(queueHealthLevel('unhealthy').tone).toBe('bad');
    expect(workQueueHealthLevel('healthy').tone).toBe('ok');
    expect(workQueueHealthLevel('warning').tone).toBe('warn');
    expect(workQueueHealthLevel('critical')).toEqual({ label: 'Critical', tone: 'bad' });
    expect(enabledLevel(true)).toEqual({ label: 'Enabled', tone: 'ok' });
    expect(enabledLevel(false)).toEqual({ label: 'Disabled', tone: 'neutral' });
  });

  it('shows costs with 4 decimals, a dollar sign and the currency, and the assumed pricing', () => {
    expect(formatCost(0.51259, 'USD')).toBe('$0.5126 USD');
    expect(formatCost(0.00002, 'USD')).toBe('$0.0000 USD');
    expect(formatCost(12, 'USD')).toBe('$12.0000 USD');
    expect(formatPrice(0.2)).toBe('$0.20');
    expect(formatPrice(0.0000166667)).toBe('$0.0000166667');
    expect(pricingNote({ pricePerMillionRequests: 0.2, pricePerGbSecond: 0.0000166667 })).toBe(
      'Estimate assumes $0.20 per 1M requests plus $0.0000166667 per GB-second.',
    );
  });

  it('shows seconds and rates with one decimal', () => {
    expect(formatSeconds(12.34)).toBe('12.3 s');
    expect(formatRate(94.7368)).toBe('94.7%');
    expect(formatRate(100)).toBe('100.0%');
  });
});
