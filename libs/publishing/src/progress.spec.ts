import fc from 'fast-check';
import {
  DEFAULT_STEP,
  MIN_PROGRESS_FOR_ESTIMATE,
  currentStepText,
  dialogLocked,
  estimateCompletion,
  estimateText,
  failureSummary,
  isFinal,
  progressPercent,
  retryState,
} from './progress';

const now = new Date('2025-03-15T12:00:00.000Z');
const inSeconds = (s: number) => new Date(now.getTime() + s * 1000).toISOString();

describe('estimateText', () => {
  it('is Calculating... while unknown or unreadable', () => {
    expect(estimateText(null, now)).toBe('Calculating...');
    expect(estimateText(undefined, now)).toBe('Calculating...');
    expect(estimateText('', now)).toBe('Calculating...');
    expect(estimateText('later', now)).toBe('Calculating...');
  });

  it('is Almost done... once under a second remains or the time passed', () => {
    expect([0, 0.999, -30].map((s) => estimateText(inSeconds(s), now))).toEqual(['Almost done...', 'Almost done...', 'Almost done...']);
  });

  it('shows seconds under a minute, else minutes and seconds', () => {
    expect(estimateText(inSeconds(1), now)).toBe('Estimated time remaining: 1s');
    expect(estimateText(inSeconds(45.7), now)).toBe('Estimated time remaining: 45s');
    expect(estimateText(inSeconds(60), now)).toBe('Estimated time remaining: 1m 0s');
    expect(estimateText(inSeconds(125), now)).toBe('Estimated time remaining: 2m 5s');
  });
});

describe('steps and statuses', () => {
  it('defaults the step', () => {
    expect(DEFAULT_STEP).toBe('Preparing export...');
    expect([null, undefined, '', '  ', 'Uploading clip 1 of 2'].map(currentStepText)).toEqual([DEFAULT_STEP, DEFAULT_STEP, DEFAULT_STEP, DEFAULT_STEP, 'Uploading clip 1 of 2']);
  });

  it('rounds and clamps progress', () => {
    expect([null, NaN, -4, 0.4, 45.5, 100, 130].map(progressPercent)).toEqual([0, 0, 0, 0, 46, 100, 100]);
  });

  it('knows the final statuses and locks the dialog while queued or processing', () => {
    const statuses = ['queued', 'processing', 'completed', 'failed', null];
    expect(statuses.map(isFinal)).toEqual([false, false, true, true, false]);
    expect(statuses.map(dialogLocked)).toEqual([true, true, false, false, false]);
  });
});

describe('retryState', () => {
  const failedAt = new Date(now.getTime() - 3000);

  it('offers nothing without an error, and no retry for quota_exceeded', () => {
    expect(retryState(null, now, null)).toEqual({ offered: false, disabled: true, waitSeconds: 0 });
    expect(retryState({ error: 'quota_exceeded', message: 'm', retryAfter: 5 }, now, failedAt)).toEqual({ offered: false, disabled: true, waitSeconds: 0 });
  });

  it('offers retry at once without retryAfter', () => {
    expect(retryState({ error: 'export_failed', message: 'm' }, now, failedAt)).toEqual({ offered: true, disabled: false, waitSeconds: 0 });
  });

  it('counts retryAfter down from the failure', () => {
    const err = { error: 'export_failed', message: 'm', retryAfter: 10 };
    expect(retryState(err, now, failedAt)).toEqual({ offered: true, disabled: true, waitSeconds: 7, waitText: 'Please wait 7 seconds before retrying.' });
    expect(retryState(err, new Date(failedAt.getTime() + 9500), failedAt)).toMatchObject({ disabled: true, waitText: 'Please wait 1 second before retrying.' });
    expect(retryState(err, new Date(failedAt.getTime() + 10_000), failedAt)).toEqual({ offered: true, disabled: false, waitSeconds: 0 });
    expect(retryState(err, now, null)).toMatchObject({ waitSeconds: 10, waitText: 'Please wait 10 seconds before retrying.' });
  });

  it('property: the wait never grows as time passes and ends after retryAfter', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3600 }), fc.nat(4000_000), fc.nat(4000_000), (retryAfter, a, b) => {
        const [t1, t2] = a <= b ? [a, b] : [b, a];
        const err = { error: 'export_failed', message: 'm', retryAfter };
        const s1 = retryState(err, new Date(failedAt.getTime() + t1), failedAt);
        const s2 = retryState(err, new Date(failedAt.getTime() + t2), failedAt);
        expect(s2.waitSeconds).toBeLessThanOrEqual(s1.waitSeconds);
        expect(s1.disabled).toBe(t1 < retryAfter * 1000);
        expect(s1.waitSeconds).toBeLessThanOrEqual(retryAfter);
      }),
    );
  });
});

describe('failureSummary', () => {
  it('shows the error message and details, or the default', () => {
    expect(failureSummary({ error: 'export_failed', message: 'Upload to provider failed', details: 'HTTP 502' })).toEqual({
      message: 'Upload to provider failed',
      details: 'HTTP 502',
      quotaExceeded: false,
      upgradeUrl: null,
    });
    expect(failureSummary(null)).toEqual({ message: 'Export failed. Please try again.', details: null, quotaExceeded: false, upgradeUrl: null });
  });

  it('shows the limit reached with the upgrade link for quota_exceeded', () => {
    expect(failureSummary({ error: 'quota_exceeded', message: 'Export quota exceeded.', details: 'Daily limit', upgradeUrl: 'https://p.test/up' })).toEqual({
      message: "You've reached your export limit.",
      details: 'Export quota exceeded.\nDaily limit',
      quotaExceeded: true,
      upgradeUrl: 'https://p.test/up',
    });
    expect(failureSummary({ error: 'quota_exceeded', message: 'x' }).upgradeUrl).toBeNull();
  });
});

describe('estimateCompletion', () => {
  const start = new Date('2025-03-15T12:00:00.000Z');
  const at = (s: number) => new Date(start.getTime() + s * 1000);

  it('extrapolates linearly', () => {
    expect(estimateCompletion(start, 25, at(30))?.toISOString()).toBe(at(120).toISOString());
    expect(estimateCompletion(start, 50, at(10))?.toISOString()).toBe(at(20).toISOString());
  });

  it('is null below 2 % and for a clock before the start; now at 100 %', () => {
    expect(MIN_PROGRESS_FOR_ESTIMATE).toBe(2);
    expect(estimateCompletion(start, 1.9, at(30))).toBeNull();
    expect(estimateCompletion(start, NaN, at(30))).toBeNull();
    expect(estimateCompletion(start, 50, at(-1))).toBeNull();
    expect(estimateCompletion(start, 100, at(30))?.toISOString()).toBe(at(30).toISOString());
    expect(estimateCompletion(start, 2, at(2))?.toISOString()).toBe(at(100).toISOString());
  });

  it('property: the estimate is never before now and shrinks toward now as progress grows', () => {
    fc.assert(
      fc.property(fc.double({ min: 2, max: 100, noNaN: true }), fc.double({ min: 2, max: 100, noNaN: true }), fc.integer({ min: 0, max: 86_400_000 }), (p1, p2, elapsed) => {
        const now = new Date(start.getTime() + elapsed);
        const e1 = estimateCompletion(start, Math.min(p1, p2), now)!;
        const e2 = estimateCompletion(start, Math.max(p1, p2), now)!;
        expect(e1.getTime()).toBeGreaterThanOrEqual(now.getTime());
        expect(e2.getTime()).toBeLessThanOrEqual(e1.getTime());
      }),
    );
  });
});
