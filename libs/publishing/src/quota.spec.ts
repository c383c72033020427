import fc from 'fast-check';
import { quotaUsageSchema, exportErrorSchema, type Plan, type QuotaUsage } from '@wordcut/contracts';
import {
  QUOTA_EXCEEDED_MESSAGE,
  QUOTA_LIMIT_REACHED,
  QUOTA_WARNING_MESSAGE,
  QUOTA_WARNING_RATIO,
  checkExportAllowed,
  evaluateQuota,
  formatResetDate,
  monthlyQuotaBanner,
  quotaDisplay,
  quotaModalFacts,
  quotaUsageFrom,
  quotaWindows,
} from './quota';

const usage = (exportsToday: number, maxPerDay: number | null, exportsThisMonth: number, maxPerMonth: number | null): QuotaUsage => ({
  exportsToday,
  maxPerDay,
  exportsThisMonth,
  maxPerMonth,
  nextDailyReset: '2025-03-02T00:00:00.000Z',
  nextMonthlyReset: '2025-04-01T00:00:00.000Z',
});

const plan = (exportsPerDay?: number | null, exportsPerMonth?: number | null, tier = 'pro'): Plan => ({ tier, quotas: { exportsPerDay, exportsPerMonth } });

describe('texts', () => {
  it('are the product texts', () => {
    expect(QUOTA_WARNING_RATIO).toBe(0.8);
    expect(QUOTA_EXCEEDED_MESSAGE).toBe('Export quota exceeded. Please upgrade your plan or wait until the quota resets.');
    expect(QUOTA_WARNING_MESSAGE).toBe("You're approaching your export limit. Consider upgrading for more capacity.");
    expect(QUOTA_LIMIT_REACHED).toBe("You've reached your export limit.");
  });
});

describe('evaluateQuota', () => {
  it('is exceeded at 100 % of the daily limit', () => {
    expect(evaluateQuota(usage(2, 2, 2, 100))).toEqual({ exceeded: true, warning: false, dailyExceeded: true, monthlyExceeded: false, dailyRatio: 1, monthlyRatio: 0.02 });
    expect(evaluateQuota(usage(3, 2, 3, 100)).exceeded).toBe(true);
  });

  it('is exceeded at 100 % of the monthly limit', () => {
    expect(evaluateQuota(usage(0, 20, 100, 100))).toMatchObject({ exceeded: true, warning: false, dailyExceeded: false, monthlyExceeded: true });
  });

  it('warns from 80 % of either limit, not below', () => {
    expect([7, 8, 9, 10].map((n) => evaluateQuota(usage(n, 10, 0, 100)).warning)).toEqual([false, true, true, false]);
    expect([79, 80, 99, 100].map((n) => evaluateQuota(usage(0, 10, n, 100)).warning)).toEqual([false, true, true, false]);
    expect(evaluateQuota(usage(4, 5, 0, null))).toMatchObject({ warning: true, exceeded: false, dailyRatio: 0.8, monthlyRatio: null });
  });

  it('does not warn when one limit is exceeded and the other near', () => {
    expect(evaluateQuota(usage(10, 10, 85, 100))).toMatchObject({ exceeded: true, warning: false });
  });

  it('treats null, zero and negative limits as no limit', () => {
    for (const max of [null, 0, -1]) {
      expect(evaluateQuota(usage(1000, max, 1000, max))).toEqual({ exceeded: false, warning: false, dailyExceeded: false, monthlyExceeded: false, dailyRatio: null, monthlyRatio: null });
    }
  });

  it('property: exceeded iff a positive limit is reached; warning and exceeded never both', () => {
    const limit = fc.option(fc.integer({ min: -5, max: 200 }), { nil: null });
    fc.assert(
      fc.property(fc.nat(300), limit, fc.nat(300), limit, (today, maxDay, month, maxMonth) => {
        const q = evaluateQuota(usage(today, maxDay, month, maxMonth));
        const dayHit = maxDay !== null && maxDay > 0 && today >= maxDay;
        const monthHit = maxMonth !== null && maxMonth > 0 && month >= maxMonth;
        expect(q.exceeded).toBe(dayHit || monthHit);
        expect(q.warning && q.exceeded).toBe(false);
        const near = (used: number, max: number | null) => max !== null && max > 0 && used * 10 >= max * 8;
        expect(q.warning).toBe(!q.exceeded && (near(today, maxDay) || near(month, maxMonth)));
      }),
    );
  });
});

describe('quotaWindows', () => {
  it('is the UTC day and the UTC calendar month', () => {
    const w = quotaWindows(new Date('2025-03-15T23:59:59.999Z'));
    expect(w.dayStart.toISOString()).toBe('2025-03-15T00:00:00.000Z');
    expect(w.nextDailyReset.toISOString()).toBe('2025-03-16T00:00:00.000Z');
    expect(w.monthStart.toISOString()).toBe('2025-03-01T00:00:00.000Z');
    expect(w.nextMonthlyReset.toISOString()).toBe('2025-04-01T00:00:00.000Z');
  });

  it('rolls over month and year ends and leap days', () => {
    const dec = quotaWindows(new Date('2024-12-31T12:00:00Z'));
    expect([dec.nextDailyReset, dec.nextMonthlyReset].map((d) => d.toISOString())).toEqual(['2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z']);
    const leap = quotaWindows(new Date('2024-02-28T08:00:00Z'));
    expect(leap.nextDailyReset.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(leap.nextMonthlyReset.toISOString()).toBe('2024-03-01T00:00:00.000Z');
  });

  it('starts a window exactly at midnight', () => {
    const w = quotaWindows(new Date('2025-06-01T00:00:00.000Z'));
    expect(w.dayStart.toISOString()).toBe('2025-06-01T00:00:00.000Z');
    expect(w.monthStart.toISOString()).toBe('2025-06-01T00:00:00.000Z');
    expect(w.nextMonthlyReset.toISOString()).toBe('2025-07-01T00:00:00.000Z');
  });

  it('refuses an invalid date', () => {
    expect(() => quotaWindows(new Date('nope'))).toThrow(RangeError);
  });

  it('property: now lies in [start, next reset) for both windows; a day lies within its month', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4102444800000 }), (ms) => {
        const now = new Date(ms);
        const w = quotaWindows(now);
        expect(w.dayStart.getTime()).toBeLessThanOrEqual(ms);
        expect(ms).toBeLessThan(w.nextDailyReset.getTime());
        expect(w.nextDailyReset.getTime() - w.dayStart.getTime()).toBe(86_400_000);
        expect(w.monthStart.getTime()).toBeLessThanOrEqual(w.dayStart.getTime());
        expect(w.nextDailyReset.getTime()).toBeLessThanOrEqual(w.nextMonthlyReset.getTime());
        expect(w.monthStart.getUTCDate()).toBe(1);
        expect(w.nextMonthlyReset.getUTCDate()).toBe(1);
      }),
    );
  });
});

describe('quotaUsageFrom', () => {
  const now = new Date('2025-03-15T10:00:00Z');

  it('maps the plan quotas and the counts, with ISO reset times', () => {
    const u = quotaUsageFrom(plan(20, 100), { exportsToday: 1, exportsThisMonth: 5 }, now);
    expect(u).toEqual({
      exportsToday: 1,
      maxPerDay: 20,
      exportsThisMonth: 5,
      maxPerMonth: 100,
      nextDailyReset: '2025-03-16T00:00:00.000Z',
      nextMonthlyReset: '2025-04-01T00:00:00.000Z',
    });
    expect(quotaUsageSchema.parse(u)).toEqual(u);
  });

  it('gives null maxima for absent quotas', () => {
    expect(quotaUsageFrom(plan(undefined, null), { exportsToday: 0, exportsThisMonth: 0 }, now)).toMatchObject({ maxPerDay: null, maxPerMonth: null });
  });
});

describe('checkExportAllowed', () => {
  const now = new Date('2025-03-15T23:00:00.000Z');

  it('allows an export under both limits', () => {
    const r = checkExportAllowed(plan(2, 10), { exportsToday: 1, exportsThisMonth: 5 }, now, 'https://provider.test/upgrade');
    expect(r).toEqual({ ok: true, usage: quotaUsageFrom(plan(2, 10), { exportsToday: 1, exportsThisMonth: 5 }, now) });
  });

  it('refuses at the daily limit with the seed message, details and retryAfter until midnight UTC', () => {
    const r = checkExportAllowed(plan(2, 10), { exportsToday: 2, exportsThisMonth: 5 }, now, 'https://provider.test/upgrade');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toEqual({
      error: 'quota_exceeded',
      message: QUOTA_EXCEEDED_MESSAGE,
      details: 'Daily limit of 2 exports reached; resets at 2025-03-16T00:00:00.000Z.',
      retryAfter: 3600,
      upgradeUrl: 'https://provider.test/upgrade',
    });
    expect(exportErrorSchema.parse(r.error)).toEqual(r.error);
    expect(r.usage.exportsToday).toBe(2);
  });

  it('refuses at the monthly limit until the first of next month, without an upgrade link when none is given', () => {
    const r = checkExportAllowed(plan(null, 1), { exportsToday: 0, exportsThisMonth: 1 }, now);
    if (r.ok) throw new Error('expected a refusal');
    expect(r.error.details).toBe('Monthly limit of 1 export reached; resets at 2025-04-01T00:00:00.000Z.');
    expect(r.error.retryAfter).toBe(16 * 86400 + 3600);
    expect('upgradeUrl' in r.error).toBe(false);
  });

  it('names both limits and waits for the monthly reset when both are reached', () => {
    const r = checkExportAllowed(plan(2, 10), { exportsToday: 2, exportsThisMonth: 10 }, now);
    if (r.ok) throw new Error('expected a refusal');
    expect(r.error.details).toBe('Daily limit of 2 exports and monthly limit of 10 exports reached; resets at 2025-04-01T00:00:00.000Z.');
    expect(r.error.retryAfter).toBe(16 * 86400 + 3600);
  });

  it('rounds retryAfter up and never below 1 second', () => {
    const almost = new Date('2025-03-15T23:59:59.600Z');
    const r = checkExportAllowed(plan(1, null), { exportsToday: 1, exportsThisMonth: 1 }, almost);
    if (r.ok) throw new Error('expected a refusal');
    expect(r.error.retryAfter).toBe(1);
    const r2 = checkExportAllowed(plan(1, null), { exportsToday: 1, exportsThisMonth: 1 }, new Date('2025-03-15T23:59:58.001Z'));
    if (r2.ok) throw new Error('expected a refusal');
    expect(r2.error.retryAfter).toBe(2);
  });

  it('always allows a plan without limits', () => {
    expect(checkExportAllowed(plan(0, -1), { exportsToday: 999, exportsThisMonth: 9999 }, now).ok).toBe(true);
  });

  it('property: refuses exactly when evaluateQuota says exceeded, with a valid error', () => {
    const limit = fc.option(fc.integer({ min: -1, max: 50 }), { nil: null });
    fc.assert(
      fc.property(limit, limit, fc.nat(60), fc.nat(60), fc.integer({ min: 0, max: 4102444800000 }), (d, m, today, month, ms) => {
        const r = checkExportAllowed(plan(d, m), { exportsToday: today, exportsThisMonth: month }, new Date(ms));
        expect(r.ok).toBe(!evaluateQuota(r.usage).exceeded);
        if (!r.ok) {
          expect(exportErrorSchema.safeParse(r.error).success).toBe(true);
          expect(r.error.retryAfter).toBeGreaterThanOrEqual(1);
        }
      }),
    );
  });
});

describe('quotaDisplay', () => {
  it('shows one line per window', () => {
    expect(quotaDisplay(usage(1, 20, 5, 100))).toEqual(['Today: 1 of 20 exports', 'This month: 5 of 100 exports']);
    expect(quotaDisplay(usage(0, 1, 0, 1))).toEqual(['Today: 0 of 1 export', 'This month: 0 of 1 export']);
  });

  it('shows Unlimited for windows without a limit', () => {
    expect(quotaDisplay(usage(3, null, 5, 100))).toEqual(['Today: Unlimited', 'This month: 5 of 100 exports']);
    expect(quotaDisplay(usage(3, 0, 5, null))).toEqual(['Unlimited']);
  });
});

describe('monthlyQuotaBanner', () => {
  it('is hidden without a positive monthly quota', () => {
    expect(monthlyQuotaBanner(null, { exportsThisMonth: 10 })).toBeNull();
    expect(monthlyQuotaBanner(plan(5), { exportsThisMonth: 10 })).toBeNull();
    expect(monthlyQuotaBanner(plan(5, 0), { exportsThisMonth: 10 })).toBeNull();
    expect(monthlyQuotaBanner(plan(5, -3), { exportsThisMonth: 10 })).toBeNull();
  });

  it('is hidden below 80 %', () => {
    expect(monthlyQuotaBanner(plan(null, 10), { exportsThisMonth: 7 })).toBeNull();
  });

  it('warns from 80 % with used/limit', () => {
    expect(monthlyQuotaBanner(plan(null, 5), { exportsThisMonth: 4 })).toMatchObject({
      level: 'warning',
      text: "You're approaching your export limit (4/5 used this month)...",
    });
    // 3 of 4 is 75 %: below the threshold
    expect(monthlyQuotaBanner(plan(null, 4), { exportsThisMonth: 3 })).toBeNull();
    expect(monthlyQuotaBanner(plan(null, 10), { exportsThisMonth: 8 })?.text).toBe("You're approaching your export limit (8/10 used this month)...");
  });

  it('alerts from 100 %', () => {
    const b = monthlyQuotaBanner(plan(null, 4), { exportsThisMonth: 5, nextResetTime: '2025-04-01T00:00:00Z' });
    expect(b).toMatchObject({ level: 'exceeded', text: 'Export limit reached...' });
    expect(b?.detail).toContain('5/4 exports used this month');
  });
});

describe('quotaModalFacts', () => {
  it('gives usage, plan and the reset date', () => {
    expect(quotaModalFacts(plan(null, 4, 'starter'), { exportsThisMonth: 4, nextResetTime: '2025-04-01T00:00:00.000Z' })).toEqual({
      used: 4,
      limit: 4,
      usageText: '4 of 4 exports used this month',
      planTier: 'starter',
      planText: 'Plan: starter',
      resetDate: '2025-04-01T00:00:00.000Z',
      resetText: 'Resets on April 1, 2025',
      upgradeText: 'To export more, ask your account administrator to upgrade your plan.',
    });
  });

  it('computes the next monthly reset from now when the snapshot has none', () => {
    const f = quotaModalFacts(plan(null, 1), { exportsThisMonth: 1 }, new Date('2025-12-20T10:00:00Z'));
    expect(f.resetDate).toBe('2026-01-01T00:00:00.000Z');
    expect(f.resetText).toBe('Resets on January 1, 2026');
    expect(f.usageText).toBe('1 of 1 export used this month');
  });

  it('copes with no plan and no reset time', () => {
    expect(quotaModalFacts(null, { exportsThisMonth: 2 })).toMatchObject({
      limit: null,
      usageText: '2 exports this month',
      planTier: 'Unknown',
      resetDate: null,
      resetText: 'Resets at the start of next month',
    });
  });

  it('shows an unparseable reset time as it is', () => {
    expect(formatResetDate('soon')).toBe('soon');
    expect(quotaModalFacts(plan(null, 3), { exportsThisMonth: 3, nextResetTime: 'next month' }).resetText).toBe('Resets on next month');
  });
});
