/** Editing jobs the editor can start (each shows a job overlay while it runs). */
export type EditJobKind = 'cut' | 'filler' | 'keep' | 'mute' | 'reorder' | 'caption';

/** Which jobs are running for the video. `video` is the cut / filler / keep processing job. */
export interface RunningJobs {
  video: boolean;
  mute: boolean;
  reorder: boolean;
  caption: boolean;
}

const VIDEO_JOB_RUNNING = 'Another video processing job is running. Please wait for it to finish.';
const MUTE_JOB_RUNNING = 'A mute job is already running. Please wait for it to finish.';

/**
 * Job exclusion: jobs that re-render the video (cut, filler removal, keep, reorder,
 * caption burn) wait for each other, a mute job waits only for another mute job. The message to
 * show, or null when the job may start.
 */
export function jobBlockedBy(kind: EditJobKind, running: RunningJobs): string | null {
  if (kind === 'mute') return running.mute ? MUTE_JOB_RUNNING : null;
  return running.video || running.reorder || running.caption ? VIDEO_JOB_RUNNING : null;
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
