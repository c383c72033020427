/**
 * The active jobs list: job kind labels, the records kept in local
 * storage (parsed and written here; the caller does the storage IO), which jobs the dialog lists,
 * the floating button and polling. Pure: no React, DOM, Node APIs or IO.
 */

/** A job's name in Active Jobs, from its id prefix (the job-kind registry). */
export { jobKindLabel } from '@wordcut/contracts';

/** Local storage key of the stored active jobs. */
export const ACTIVE_JOBS_STORAGE_KEY = 'wordcut_active_jobs';
/** Stored active jobs expire after 24 hours. */
export const ACTIVE_JOB_TTL_MS = 24 * 60 * 60 * 1000;
/** A stored record may start at most this far in the future (clock skew); later ones are dropped. */
export const ACTIVE_JOB_FUTURE_SKEW_MS = 60 * 1000;
/** User jobs polling: every 2 s while the dialog is open, every 3 s in the page. */
export const DIALOG_POLL_MS = 2000;
export const PAGE_POLL_MS = 3000;

/** A stored active-job record; startedAt is epoch milliseconds. */
export interface StoredActiveJob {
  jobId: string;
  type: string;
  videoId: string;
  startedAt: number;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The record as stored (exactly the four fields), or null when it is malformed. */
function toStoredJob(v: unknown): StoredActiveJob | null {
  if (!isRecord(v)) return null;
  const { jobId, type, videoId, startedAt } = v;
  if (typeof jobId !== 'string' || jobId === '' || typeof type !== 'string' || typeof videoId !== 'string') return null;
  if (typeof startedAt !== 'number' || !Number.isFinite(startedAt)) return null;
  return { jobId, type, videoId, startedAt };
}

/** Still tracked at `now`: younger than 24 h and not more than a minute in the future. */
function isLive(job: StoredActiveJob, now: number): boolean {
  return now - job.startedAt < ACTIVE_JOB_TTL_MS && job.startedAt - now <= ACTIVE_JOB_FUTURE_SKEW_MS;
}

/**
 * One record per jobId: the one with the latest startedAt (on a tie the later one in the list),
 * kept at the position where that jobId first appears.
 */
function dedupe(jobs: readonly StoredActiveJob[]): StoredActiveJob[] {
  const byId = new Map<string, StoredActiveJob>();
  for (const job of jobs) {
    const seen = byId.get(job.jobId);
    if (!seen || job.startedAt >= seen.startedAt) byId.set(job.jobId, job);
  }
  return [...byId.values()];
}

/**
 * The stored active jobs from the raw local storage value. Tolerant: a missing
 * value, bad JSON or a non-array gives []; malformed records are dropped, as are records 24 h old
 * or older and records starting more than a minute in the future. One record per jobId (the
 * latest startedAt wins).
 */
export function readStoredJobs(raw: string | null, now: number): StoredActiveJob[] {
  if (raw === null || raw === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const jobs: StoredActiveJob[] = [];
  for (const item of parsed) {
    const job = toStoredJob(item);
    if (job && isLive(job, now)) jobs.push(job);
  }
  return dedupe(jobs);
}

/**
 * The list with `job` recorded: any earlier record of the same jobId is replaced,
 * the new record goes last, and records expired at `now` are dropped.
 */
export function addStoredJob(list: readonly StoredActiveJob[], job: StoredActiveJob, now: number): StoredActiveJob[] {
  const kept = list.filter((j) => j.jobId !== job.jobId && isLive(j, now));
  return [...kept, { jobId: job.jobId, type: job.type, videoId: job.videoId, startedAt: job.startedAt }];
}

/** The list without the record of `jobId` (finished or cancelled jobs). */
export function removeStoredJob(list: readonly StoredActiveJob[], jobId: string): StoredActiveJob[] {
  return list.filter((j) => j.jobId !== jobId);
}

/** The stored jobs of one video (to resume tracking on return). */
export function storedJobsForVideo(list: readonly StoredActiveJob[], videoId: string): StoredActiveJob[] {
  return list.filter((j) => j.videoId === videoId);
}

/** The local storage value of the list: a JSON array of the four record fields. */
export function serializeStoredJobs(list: readonly StoredActiveJob[]): string {
  return JSON.stringify(list.map(({ jobId, type, videoId, startedAt }) => ({ jobId, type, videoId, startedAt })));
}

/**
 * Job statuses in GET /api/jobs/user-jobs. 'failed' is the
 * failure word of the mute / reorder family (contracts' MuteReorderStatus); it is treated like
 * 'error' here.
 */
export type UserJobStatus = 'pending' | 'processing' | 'completed' | 'error' | 'failed' | 'cancelled';

const isActiveStatus = (status: string): boolean => status === 'pending' || status === 'processing';

/**
 * The jobs the Active Jobs dialog lists: pending, processing and in error, in
 * their order. A 'failed' job counts as an error (the mute / reorder family's failure word);
 * completed and cancelled jobs are not listed.
 */
export function listedJobs<T extends { status: string }>(jobs: readonly T[]): T[] {
  return jobs.filter((j) => isActiveStatus(j.status) || j.status === 'error' || j.status === 'failed');
}

/** Jobs pending or processing: the count on the floating 'Active Jobs (n)' button. */
export function activeJobCount(jobs: readonly { status: string }[] | undefined): number {
  return jobs ? jobs.filter((j) => isActiveStatus(j.status)).length : 0;
}

/** Cancel is offered for pending and processing jobs. */
export function canCancel(status: string): boolean {
  return isActiveStatus(status);
}

/** The floating button's label; the button shows only while n > 0. */
export function activeJobsButtonLabel(n: number): string {
  return `Active Jobs (${n})`;
}

/**
 * The user jobs refetch interval: every 2 s while the dialog is open; in the
 * page every 3 s while any job is pending or processing, otherwise no polling (false).
 */
export function userJobsPollInterval(jobs: readonly { status: string }[] | undefined, dialogOpen: boolean): number | false {
  if (dialogOpen) return DIALOG_POLL_MS;
  return activeJobCount(jobs) > 0 ? PAGE_POLL_MS : false;
}
