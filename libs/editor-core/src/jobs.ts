import { JOB_KINDS, excludeEachOther, type JobKind } from '@wordcut/contracts';

/** Registry kinds the editor starts itself: those with a job overlay. */
type OverlayJobKind = { [K in JobKind]: (typeof JOB_KINDS)[K]['overlay'] extends null ? never : K }[JobKind];

/** Editing jobs the editor can start (each shows its kind's overlay while it runs); `keep` starts a cut. */
export type EditJobKind = OverlayJobKind | 'keep';
export const EDIT_JOB_KINDS: readonly EditJobKind[] = [...(Object.keys(JOB_KINDS) as JobKind[]).filter((k): k is OverlayJobKind => JOB_KINDS[k].overlay !== null), 'keep'];

/** The job kind an editor action starts. */
export const jobKindOf = (action: EditJobKind): JobKind => (action === 'keep' ? 'cut' : action);

/** The kinds of the jobs running for the video. */
export type RunningJobs = readonly JobKind[];

const VIDEO_JOB_RUNNING = 'Another video processing job is running. Please wait for it to finish.';
const MUTE_JOB_RUNNING = 'A mute job is already running. Please wait for it to finish.';

/**
 * Job exclusion, the registry's rule (the same as the renders table's index): jobs that render a
 * new version of the video (cut, filler removal, keep, silence removal, mute, reorder, caption
 * burn) wait for each other; clips and analyses wait for nothing. The message to show, or null
 * when the job may start.
 */
export function jobBlockedBy(action: EditJobKind, running: RunningJobs): string | null {
  const kind = jobKindOf(action);
  const blocking = running.filter((r) => excludeEachOther(kind, r));
  if (blocking.length === 0) return null;
  return kind === 'mute' && blocking.every((r) => r === 'mute') ? MUTE_JOB_RUNNING : VIDEO_JOB_RUNNING;
}

/** Whole seconds >= 0; NaN, infinities and negatives count as 0. */
function wholeSeconds(seconds: number): number {
  return Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
}

/** Time a job has been running: '45s', '3m 12s', '1h 5m' (hours drop the seconds). */
export function formatElapsed(seconds: number): string {
  const total = wholeSeconds(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h ${m}m`;
  return m > 0 ? `${m}m ${s}s` : `${s}s`;
}

/** A job's estimated time remaining, in words; null when there is no usable estimate. */
export function formatTimeRemaining(seconds: number | null | undefined): string | null {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return null;
  if (seconds < 60) return 'Less than a minute remaining';
  const minutes = Math.ceil(seconds / 60);
  return `About ${minutes} minute${minutes === 1 ? '' : 's'} remaining`;
}

/** Export quota is near its limit from this share of the monthly exports. */
export const QUOTA_NEAR_RATIO = 0.8;

/** Export quota state; without a limit (missing, 0 or less) exporting is always allowed. */
export function quotaState(limit: number | null | undefined, used: number): 'ok' | 'near' | 'exceeded' {
  if (limit === null || limit === undefined || !(limit > 0)) return 'ok';
  const ratio = used / limit;
  if (ratio >= 1) return 'exceeded';
  return ratio >= QUOTA_NEAR_RATIO ? 'near' : 'ok';
}
