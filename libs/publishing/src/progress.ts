/**
 * The export progress dialog: the estimate text, the step shown, when the dialog is locked,
 * what a failure shows and whether retry is offered; and, for the export service, the completion
 * estimate it reports.
 * Pure: no React, DOM, Node APIs or IO.
 */
import type { ExportError } from '@wordcut/contracts';
import { EXPORT_FAILED_DEFAULT, ExportErrorCode } from './messages';
import { QUOTA_LIMIT_REACHED } from './quota';

/** The step shown before the service reports one. */
export const DEFAULT_STEP = 'Preparing export...';

/** The step to show: the job's current step, or 'Preparing export...'. */
export function currentStepText(step: string | null | undefined): string {
  return step?.trim() || DEFAULT_STEP;
}

/** Progress as a whole percent in 0..100 (the service reports 0-100; anything else is clamped). */
export function progressPercent(progress: number | null | undefined): number {
  return typeof progress === 'number' && Number.isFinite(progress) ? Math.min(100, Math.max(0, Math.round(progress))) : 0;
}

/**
 * The estimate line: 'Calculating...' while the completion time is unknown (or
 * unreadable), 'Almost done...' once less than a second remains, else 'Estimated time remaining:
 * 2m 5s' or, under a minute, 'Estimated time remaining: 45s'.
 */
export function estimateText(estimatedCompletion: string | null | undefined, now: Date): string {
  const at = estimatedCompletion ? Date.parse(estimatedCompletion) : NaN;
  if (!Number.isFinite(at)) return 'Calculating...';
  const seconds = Math.floor((at - now.getTime()) / 1000);
  if (seconds <= 0) return 'Almost done...';
  const m = Math.floor(seconds / 60);
  return m > 0 ? `Estimated time remaining: ${m}m ${seconds % 60}s` : `Estimated time remaining: ${seconds}s`;
}

/** Completed and failed are final: polling stops. */
export function isFinal(status: string | null | undefined): boolean {
  return status === 'completed' || status === 'failed';
}

/** The dialog cannot be closed while the job is queued or processing. */
export function dialogLocked(status: string | null | undefined): boolean {
  return status === 'queued' || status === 'processing';
}

export interface RetryState {
  /** the Retry button is shown */
  offered: boolean;
  disabled: boolean;
  /** 'Please wait 12 seconds before retrying.' while a retryAfter wait applies */
  waitText?: string;
  /** whole seconds left of the wait (0 when none) */
  waitSeconds: number;
}

/**
 * Retry of a failed export: not offered without an error or for quota_exceeded
 * (waiting or upgrading is the way out); disabled, with 'Please wait N seconds before retrying.',
 * until `retryAfter` seconds have passed since `failedAt` (null: the wait starts now).
 */
export function retryState(error: ExportError | null | undefined, now: Date, failedAt: Date | null | undefined): RetryState {
  if (!error || error.error === ExportErrorCode.QuotaExceeded) return { offered: false, disabled: true, waitSeconds: 0 };
  const retryAfter = typeof error.retryAfter === 'number' && Number.isFinite(error.retryAfter) ? error.retryAfter : 0;
  const since = failedAt && Number.isFinite(failedAt.getTime()) ? now.getTime() - failedAt.getTime() : 0;
  const left = Math.ceil(retryAfter - Math.max(0, since) / 1000);
  if (left <= 0) return { offered: true, disabled: false, waitSeconds: 0 };
  return { offered: true, disabled: true, waitSeconds: left, waitText: `Please wait ${left} ${left === 1 ? 'second' : 'seconds'} before retrying.` };
}

export interface FailureSummary {
  /** the heading: "You've reached your export limit." for quota, else the error's message */
  message: string;
  /** the collapsible technical details, when any */
  details: string | null;
  quotaExceeded: boolean;
  /** the upgrade link and button target (new tab), only for quota_exceeded */
  upgradeUrl: string | null;
}

/** What a failed job's dialog shows. */
export function failureSummary(error: ExportError | null | undefined): FailureSummary {
  const quotaExceeded = error?.error === ExportErrorCode.QuotaExceeded;
  const message = quotaExceeded ? QUOTA_LIMIT_REACHED : error?.message?.trim() || EXPORT_FAILED_DEFAULT;
  const detailParts = quotaExceeded ? [error?.message, error?.details] : [error?.details];
  const details = detailParts.filter((d): d is string => typeof d === 'string' && d.trim() !== '').join('\n') || null;
  return { message, details, quotaExceeded, upgradeUrl: quotaExceeded ? (error?.upgradeUrl ?? null) : null };
}

/** Below this progress (percent) an extrapolated finish time is noise. */
export const MIN_PROGRESS_FOR_ESTIMATE = 2;

/**
 * The finish time the export service reports (estimatedCompletion): a straight line
 * through the start and the current progress (0-100). Null below 2 % or when the clock makes no
 * sense (now before the start); `now` once progress reaches 100.
 */
export function estimateCompletion(startedAt: Date, progress: number, now: Date): Date | null {
  const start = startedAt.getTime();
  const t = now.getTime();
  if (!Number.isFinite(start) || !Number.isFinite(t) || !Number.isFinite(progress) || t < start) return null;
  if (progress < MIN_PROGRESS_FOR_ESTIMATE) return null;
  if (progress >= 100) return new Date(t);
  return new Date(start + Math.round(((t - start) * 100) / progress));
}
