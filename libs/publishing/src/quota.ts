/**
 * Export quota: the plan limits
 * exports per UTC day and per UTC calendar month. The export service counts usage and refuses an
 * export over either limit; the browser shows the counts, warns from 80 % and blocks at 100 %.
 * One evaluation here so the refusal and the dialog can never disagree.
 * Pure: no React, DOM, Node APIs or IO.
 */
import type { ExportError, Plan, QuotaUsage } from '@wordcut/contracts';
import { ExportErrorCode } from './messages';

/** Warn from this share of either limit. */
export const QUOTA_WARNING_RATIO = 0.8;

/** The refusal message. */
export const QUOTA_EXCEEDED_MESSAGE = 'Export quota exceeded. Please upgrade your plan or wait until the quota resets.';
/** The publish dialog's warning from 80 %. */
export const QUOTA_WARNING_MESSAGE = "You're approaching your export limit. Consider upgrading for more capacity.";
/** The progress dialog's heading for a quota_exceeded failure. */
export const QUOTA_LIMIT_REACHED = "You've reached your export limit.";
/** Upgrade guidance sends the user to the account administrator. */
export const QUOTA_UPGRADE_GUIDANCE = 'To export more, ask your account administrator to upgrade your plan.';

/** A usable limit: a positive finite number; null, absent, 0 or less means no limit for that window. */
function limitOf(max: number | null | undefined): number | null {
  return typeof max === 'number' && Number.isFinite(max) && max > 0 ? max : null;
}

export interface QuotaEvaluation {
  /** either window is at or over its limit: exports are refused */
  exceeded: boolean;
  /** at 80 % or more of either limit while not exceeded */
  warning: boolean;
  dailyExceeded: boolean;
  monthlyExceeded: boolean;
  /** used / limit; null when the window has no limit */
  dailyRatio: number | null;
  monthlyRatio: number | null;
}

/**
 * Exceeded when exportsToday >= maxPerDay or exportsThisMonth >= maxPerMonth; a
 * warning at 80 % of either limit while not exceeded. A missing, zero or negative limit is no limit.
 */
export function evaluateQuota(q: Pick<QuotaUsage, 'exportsToday' | 'maxPerDay' | 'exportsThisMonth' | 'maxPerMonth'>): QuotaEvaluation {
  const day = limitOf(q.maxPerDay);
  const month = limitOf(q.maxPerMonth);
  const dailyRatio = day === null ? null : q.exportsToday / day;
  const monthlyRatio = month === null ? null : q.exportsThisMonth / month;
  const dailyExceeded = day !== null && q.exportsToday >= day;
  const monthlyExceeded = month !== null && q.exportsThisMonth >= month;
  const exceeded = dailyExceeded || monthlyExceeded;
  const near = (r: number | null): boolean => r !== null && r >= QUOTA_WARNING_RATIO;
  return { exceeded, warning: !exceeded && (near(dailyRatio) || near(monthlyRatio)), dailyExceeded, monthlyExceeded, dailyRatio, monthlyRatio };
}

export interface QuotaWindows {
  /** 00:00 UTC of `now`'s day */
  dayStart: Date;
  /** the next 00:00 UTC */
  nextDailyReset: Date;
  /** 00:00 UTC on the 1st of `now`'s month */
  monthStart: Date;
  /** 00:00 UTC on the 1st of the next month */
  nextMonthlyReset: Date;
}

/**
 * The counting windows around `now`: the UTC day and the UTC calendar month. UTC so every server
 * replica and every browser agree on when a quota resets, whatever their time zone.
 */
export function quotaWindows(now: Date): QuotaWindows {
  const t = now.getTime();
  if (!Number.isFinite(t)) throw new RangeError('quotaWindows needs a valid date');
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  return {
    dayStart: new Date(Date.UTC(y, m, d)),
    nextDailyReset: new Date(Date.UTC(y, m, d + 1)),
    monthStart: new Date(Date.UTC(y, m, 1)),
    nextMonthlyReset: new Date(Date.UTC(y, m + 1, 1)),
  };
}

/** Export counts in the current windows (the export service counts them). */
export interface ExportCounts {
  exportsToday: number;
  exportsThisMonth: number;
}

/** The plan's limits and the counts as the {@link QuotaUsage} the browser receives. */
export function quotaUsageFrom(plan: Plan, counts: ExportCounts, now: Date): QuotaUsage {
  const w = quotaWindows(now);
  return {
    exportsToday: counts.exportsToday,
    maxPerDay: plan.quotas.exportsPerDay ?? null,
    exportsThisMonth: counts.exportsThisMonth,
    maxPerMonth: plan.quotas.exportsPerMonth ?? null,
    nextDailyReset: w.nextDailyReset.toISOString(),
    nextMonthlyReset: w.nextMonthlyReset.toISOString(),
  };
}

export type ExportAllowed = { ok: true; usage: QuotaUsage } | { ok: false; usage: QuotaUsage; error: ExportError };

const exportsWord = (n: number): string => `${n} ${n === 1 ? 'export' : 'exports'}`;

/** Whole seconds from now until `iso`, at least 1 (a Retry-After of 0 would invite a busy loop). */
function secondsUntil(iso: string, now: Date): number {
  return Math.max(1, Math.ceil((Date.parse(iso) - now.getTime()) / 1000));
}

/**
 * The server's quota check before it accepts an export. Refused, the body is the export error
 * 'quota_exceeded' with QUOTA_EXCEEDED_MESSAGE, details naming the limit reached and
 * when it resets, retryAfter = seconds until exports are possible again, and the upgrade link.
 * With both limits reached the monthly reset is the one that matters (it is never earlier).
 */
export function checkExportAllowed(plan: Plan, counts: ExportCounts, now: Date, upgradeUrl?: string): ExportAllowed {
  const usage = quotaUsageFrom(plan, counts, now);
  const q = evaluateQuota(usage);
  if (!q.exceeded) return { ok: true, usage };
  const daily = q.dailyExceeded ? `daily limit of ${exportsWord(usage.maxPerDay!)}` : null;
  const monthly = q.monthlyExceeded ? `monthly limit of ${exportsWord(usage.maxPerMonth!)}` : null;
  const which = [daily, monthly].filter((s): s is string => s !== null).join(' and ');
  const reset = q.monthlyExceeded ? usage.nextMonthlyReset : usage.nextDailyReset;
  const error: ExportError = {
    error: ExportErrorCode.QuotaExceeded,
    message: QUOTA_EXCEEDED_MESSAGE,
    details: `${which.charAt(0).toUpperCase()}${which.slice(1)} reached; resets at ${reset}.`,
    retryAfter: secondsUntil(reset, now),
  };
  if (upgradeUrl) error.upgradeUrl = upgradeUrl;
  return { ok: false, usage, error };
}

/**
 * The publish dialog's quota display: one line per window, e.g. 'Today: 1 of 20
 * exports' and 'This month: 5 of 100 exports'; a window without a limit reads 'Today: Unlimited',
 * and with no limit at all the display is the single line 'Unlimited'.
 */
export function quotaDisplay(q: Pick<QuotaUsage, 'exportsToday' | 'maxPerDay' | 'exportsThisMonth' | 'maxPerMonth'>): string[] {
  const day = limitOf(q.maxPerDay);
  const month = limitOf(q.maxPerMonth);
  if (day === null && month === null) return ['Unlimited'];
  const line = (label: string, used: number, limit: number | null): string =>
    limit === null ? `${label}: Unlimited` : `${label}: ${used} of ${exportsWord(limit)}`;
  return [line('Today', q.exportsToday, day), line('This month', q.exportsThisMonth, month)];
}

/** The usage snapshot (from the session token): monthly exports and the next reset. */
export interface MonthlyUsage {
  exportsThisMonth: number;
  nextResetTime?: string;
}

export interface QuotaBanner {
  level: 'warning' | 'exceeded';
  /** the banner's text */
  text: string;
  /** a second line: what to do about it */
  detail: string;
}

/** The plan's monthly limit, or null when the display is hidden. */
function monthlyLimit(plan: Plan | null): number | null {
  return limitOf(plan?.quotas.exportsPerMonth);
}

/**
 * The editor's monthly quota banner: hidden (null) without a positive monthly
 * limit or below 80 %; from 80 % 'You're approaching your export limit (3/4 used this month)...';
 * from 100 % 'Export limit reached...' (the page also opens the quota modal once).
 */
export function monthlyQuotaBanner(plan: Plan | null, usage: MonthlyUsage): QuotaBanner | null {
  const limit = monthlyLimit(plan);
  if (limit === null) return null;
  const used = usage.exportsThisMonth;
  if (used >= limit) {
    return { level: 'exceeded', text: 'Export limit reached...', detail: `${used}/${limit} exports used this month. ${QUOTA_UPGRADE_GUIDANCE}` };
  }
  if (used / limit >= QUOTA_WARNING_RATIO) {
    return { level: 'warning', text: `You're approaching your export limit (${used}/${limit} used this month)...`, detail: 'Consider upgrading for more capacity.' };
  }
  return null;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * A reset time as a date people read, in UTC (the quota's own clock) so it does not shift with the
 * viewer's time zone: 'March 1, 2025'. An unparseable value is shown as it is.
 */
export function formatResetDate(iso: string): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return iso;
  const d = new Date(t);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

export interface QuotaModalFacts {
  used: number;
  /** null when the plan has no monthly limit */
  limit: number | null;
  /** '4 of 4 exports used this month' */
  usageText: string;
  /** the plan's tier as the token names it, 'Unknown' without a plan */
  planTier: string;
  /** 'Plan: pro' */
  planText: string;
  /** ISO time of the next monthly reset, null when unknown */
  resetDate: string | null;
  /** 'Resets on March 1, 2025'; 'Resets at the start of next month' when unknown */
  resetText: string;
  upgradeText: string;
}

/**
 * What the quota modal shows: current usage, plan and reset date. The reset time is
 * the snapshot's nextResetTime, else the next UTC month start after `now` when given.
 */
export function quotaModalFacts(plan: Plan | null, usage: MonthlyUsage, now?: Date): QuotaModalFacts {
  const limit = monthlyLimit(plan);
  const used = usage.exportsThisMonth;
  const planTier = plan?.tier?.trim() || 'Unknown';
  const resetDate = usage.nextResetTime?.trim() || (now && Number.isFinite(now.getTime()) ? quotaWindows(now).nextMonthlyReset.toISOString() : null);
  return {
    used,
    limit,
    usageText: limit === null ? `${exportsWord(used)} this month` : `${used} of ${exportsWord(limit)} used this month`,
    planTier,
    planText: `Plan: ${planTier}`,
    resetDate,
    resetText: resetDate ? `Resets on ${formatResetDate(resetDate)}` : 'Resets at the start of next month',
    upgradeText: QUOTA_UPGRADE_GUIDANCE,
  };
}
