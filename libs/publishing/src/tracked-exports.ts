/**
 * The export a page follows, remembered per video in local storage so that a reload (or a tab
 * opened later) picks the running export up again instead of losing sight of it: the dialog shows
 * its progress, and the user does not publish a second time while it runs. One export of a video
 * runs at a time (the export service answers 409 export_in_progress otherwise), so one record per
 * video. Records expire after 24 hours. Pure: the caller does the storage IO.
 */
import { isJobId } from './messages';

/** Local storage key of the exports this browser follows. */
export const EXPORT_JOBS_STORAGE_KEY = 'wordcut_export_jobs';
/** A followed export is forgotten after 24 hours, as the stored active jobs are. */
export const TRACKED_EXPORT_TTL_MS = 24 * 60 * 60 * 1000;

export interface TrackedExport {
  jobId: string;
  /** epoch milliseconds */
  startedAt: number;
}

/** videoId → the export of it being followed */
export type TrackedExports = Readonly<Record<string, TrackedExport>>;

const live = (t: TrackedExport, now: number): boolean => now - t.startedAt < TRACKED_EXPORT_TTL_MS && t.startedAt - now <= 60_000;

/**
 * The followed exports from the raw storage value. Tolerant: a missing value, bad JSON or another
 * shape gives {}; malformed and expired records are dropped.
 */
export function readTrackedExports(raw: string | null, now: number): TrackedExports {
  if (!raw) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const out: Record<string, TrackedExport> = {};
  for (const [videoId, v] of Object.entries(parsed as Record<string, unknown>)) {
    if (typeof v !== 'object' || v === null) continue;
    const { jobId, startedAt } = v as Record<string, unknown>;
    if (!isJobId(jobId) || typeof startedAt !== 'number' || !Number.isFinite(startedAt)) continue;
    const t = { jobId, startedAt };
    if (live(t, now)) out[videoId] = t;
  }
  return out;
}

/** Follows `jobId` for `videoId` from `now` (replacing the video's previous record); expired ones are dropped. */
export function trackExport(map: TrackedExports, videoId: string, jobId: string, now: number): TrackedExports {
  const out: Record<string, TrackedExport> = {};
  for (const [v, t] of Object.entries(map)) if (live(t, now)) out[v] = t;
  out[videoId] = { jobId, startedAt: now };
  return out;
}

/** The map without `jobId` (it finished, or the user closed its dialog). */
export function untrackExport(map: TrackedExports, jobId: string): TrackedExports {
  return Object.fromEntries(Object.entries(map).filter(([, t]) => t.jobId !== jobId));
}

/** The export followed for `videoId`, if any. */
export function trackedExportOf(map: TrackedExports, videoId: string): string | null {
  return map[videoId]?.jobId ?? null;
}
