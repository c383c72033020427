import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { apiJson, describeError, isApiError, toast, useRestoreFocus } from '@wordcut/ui';
import { ACTIVE_JOBS_STORAGE_KEY, addStoredJob, formatTimeRemaining, readStoredJobs, removeStoredJob, serializeStoredJobs, storedJobsForVideo } from '@wordcut/editor-core';
import type { StoredActiveJob } from '@wordcut/editor-core';
import { bearerHeaders } from '../sessionToken';
import { fetchJobStatus } from './api';
import type { EditJobStatus, JobPollKind } from './api';

/**
 * The progress overlays of seed 000 §2 and §4: start, poll every 2 s, then finish as
 * completed, failed/error or cancelled. On completion: 'Processing complete!' (the caller
 * refreshes video and transcript), after 2 s 'Loading Updated Video', about 1.7 s + 300 ms
 * later it closes. Poll network errors are ignored (the next poll tries again).
 */

export const JOB_POLL_INTERVAL_MS = 2000;
export const COMPLETE_PHASE_MS = 2000;
export const LOADING_PHASE_MS = 1700;
export const CLOSE_DELAY_MS = 300;
export const JOB_DURATION_HINT = 'This usually takes 2 to 5 minutes.';

export interface JobSpec {
  kind: JobPollKind;
  /** what the job does, as stored for reconnecting: cut, filler, keep, mute, reorder, caption (default: kind) */
  type?: string;
  jobId: string;
  /** the overlay's title, e.g. 'Processing video' */
  title: string;
  /** toast title when the job fails */
  failureTitle: string;
  /** toast text when the job fails without an error */
  failureDefault: string;
  /** toast title when it is cancelled */
  cancelledTitle?: string;
  /** called once the job completed (refresh queries, clear pending marks) */
  onCompleted?: () => Promise<void> | void;
  /** called when it ends in any other way */
  onEnded?: () => void;
}

export type JobPhase = 'running' | 'complete' | 'loading';

export interface RunningJob {
  spec: JobSpec;
  phase: JobPhase;
  status: EditJobStatus | null;
}

const FAILED = new Set(['failed', 'error']);

export const RECONNECTING_MESSAGE = 'Reconnecting to job in progress...';

export interface JobRunner {
  job: RunningJob | null;
  start: (spec: JobSpec) => void;
  cancel: () => Promise<void>;
}

/**
 * Where running jobs are remembered so a reload reconnects to them (seed 002 §3 "Stored
 * active-job record": key wordcut_active_jobs, records expire after 24 hours).
 */
export interface JobPersistence {
  videoId: string;
  storage: Storage | null;
  /** the overlay for a stored job found after a reload, or null to forget it */
  specFor: (record: StoredActiveJob) => Omit<JobSpec, 'jobId'> | null;
}

function readJobs(storage: Storage | null): StoredActiveJob[] {
  try {
    return readStoredJobs(storage?.getItem(ACTIVE_JOBS_STORAGE_KEY) ?? null, Date.now());
  } catch {
    return [];
  }
}

function writeJobs(storage: Storage | null, jobs: StoredActiveJob[]): void {
  try {
    if (jobs.length === 0) storage?.removeItem(ACTIVE_JOBS_STORAGE_KEY);
    else storage?.setItem(ACTIVE_JOBS_STORAGE_KEY, serializeStoredJobs(jobs));
  } catch {
    // storage full or blocked: the job still runs, it just won't be reconnected after a reload
  }
}

/**
 * Drives one job at a time through its phases; returns the state to draw and start/cancel.
 * With `persist`, a started job is stored until it ends, and a stored job of this video is
 * reconnected to on mount ('Reconnecting to job in progress...').
 */
export function useJobRunner(persist?: JobPersistence): JobRunner {
  const [job, setJob] = useState<RunningJob | null>(null);
  const timers = useRef<Array<ReturnType<typeof setTimeout>>>([]);
  const current = useRef<JobSpec | null>(null);
  const persistRef = useRef(persist);
  persistRef.current = persist;
  const forget = (jobId: string) => {
    const p = persistRef.current;
    if (p) writeJobs(p.storage, removeStoredJob(readJobs(p.storage), jobId));
  };

  const clearTimers = () => {
    for (const t of timers.current) clearTimeout(t);
    timers.current = [];
  };
  // an unmounted page drops late poll answers (the guards compare with current.current)
  useEffect(
    () => () => {
      current.current = null;
      clearTimers();
    },
    [],
  );

  const later = (fn: () => void, ms: number) => {
    timers.current.push(setTimeout(fn, ms));
  };

  const finish = useCallback((spec: JobSpec) => {
    if (current.current !== spec) return;
    forget(spec.jobId);
    current.current = null;
    clearTimers();
    setJob(null);
  }, []);

  const poll = useCallback(
    (spec: JobSpec) => {
      if (current.current !== spec) return;
      fetchJobStatus(spec.kind, spec.jobId)
        .then(async (status) => {
          if (current.current !== spec) return;
          if (status.status === 'completed') {
            // done: a reload from here on must not reconnect (and refresh) again
            forget(spec.jobId);
            setJob({ spec, phase: 'complete', status: { ...status, progress: 100 } });
            try {
              await spec.onCompleted?.();
            } catch (error) {
              toast({ title: 'Refresh failed', description: describeError(error), variant: 'destructive' });
            }
            later(() => {
              if (current.current !== spec) return;
              setJob({ spec, phase: 'loading', status: { ...status, progress: 100 } });
              later(() => finish(spec), LOADING_PHASE_MS + CLOSE_DELAY_MS);
            }, COMPLETE_PHASE_MS);
            return;
          }
          if (FAILED.has(status.status)) {
            finish(spec);
            spec.onEnded?.();
            toast({ title: spec.failureTitle, description: status.error || spec.failureDefault, variant: 'destructive' });
            return;
          }
          if (status.status === 'cancelled') {
            finish(spec);
            spec.onEnded?.();
            toast({ title: spec.cancelledTitle ?? 'Job cancelled', description: status.error || 'The job was cancelled.' });
            return;
          }
          setJob({ spec, phase: 'running', status });
          later(() => poll(spec), JOB_POLL_INTERVAL_MS);
        })
        .catch((error: unknown) => {
          if (current.current !== spec) return;
          if (isApiError(error) && error.status === 404) {
            // the job is unknown (expired, or another deployment's): stop following it
            finish(spec);
            spec.onEnded?.();
            return;
          }
          // seed 000 §8: poll network errors are silently ignored
          later(() => poll(spec), JOB_POLL_INTERVAL_MS);
        });
    },
    [finish],
  );

  const start = useCallback(
    (spec: JobSpec) => {
      clearTimers();
      current.current = spec;
      const p = persistRef.current;
      if (p) {
        const record = { jobId: spec.jobId, type: spec.type ?? spec.kind, videoId: p.videoId, startedAt: Date.now() };
        writeJobs(p.storage, addStoredJob(readJobs(p.storage), record, Date.now()));
      }
      setJob({ spec, phase: 'running', status: null });
      later(() => poll(spec), JOB_POLL_INTERVAL_MS);
    },
    [poll],
  );

  // After a reload: reconnect to this video's newest stored job.
  const videoId = persist?.videoId;
  useEffect(() => {
    const p = persistRef.current;
    if (!p || !videoId || current.current) return;
    const stored = storedJobsForVideo(readJobs(p.storage), videoId).sort((a, b) => b.startedAt - a.startedAt)[0];
    if (!stored) return;
    const base = p.specFor(stored);
    if (!base) {
      forget(stored.jobId);
      return;
    }
    const spec: JobSpec = { ...base, type: stored.type, jobId: stored.jobId };
    current.current = spec;
    setJob({ spec, phase: 'running', status: { status: 'processing', progress: 0, message: RECONNECTING_MESSAGE, estimatedTimeRemaining: null, error: null } });
    poll(spec);
  }, [videoId, poll]);

  const cancel = useCallback(async () => {
    const spec = current.current;
    if (!spec) return;
    try {
      await apiJson(`/api/jobs/${encodeURIComponent(spec.jobId)}/cancel`, { method: 'POST', headers: bearerHeaders() });
      // the next poll sees 'cancelled' and closes the overlay; poll now rather than in 2 s
      clearTimers();
      poll(spec);
    } catch (error) {
      toast({ title: 'Cancel failed', description: describeError(error), variant: 'destructive' });
    }
  }, [poll]);

  return { job, start, cancel };
}

export const JobRunnerContext = createContext<JobRunner | null>(null);

/** The page's one job runner (one editing job at a time per video, one overlay). */
export function useJobs(): JobRunner {
  const runner = useContext(JobRunnerContext);
  if (!runner) throw new Error('useJobs: no JobRunnerContext provider above this component');
  return runner;
}

/** The overlay itself: a modal that cannot be dismissed while the job runs. */
export function JobOverlay({ job, onCancel }: { job: RunningJob | null; onCancel: () => void }) {
  // opened by the job a dialog started: when it ends, focus goes back to where it was
  const focus = useRestoreFocus();
  if (!job) return null;
  const { spec, phase, status } = job;
  const progress = Math.round(status?.progress ?? 0);
  const message =
    phase === 'complete' ? 'Processing complete!' : phase === 'loading' ? 'Loading Updated Video' : status?.message || 'Starting...';
  const remaining = phase === 'running' ? formatTimeRemaining(status?.estimatedTimeRemaining) : null;
  return (
    <Dialog.Root open>
      <Dialog.Portal>
        <Dialog.Overlay className="wc-dialog-overlay" />
        <Dialog.Content
          className="wc-dialog wc-job-overlay"
          data-testid="job-overlay"
          data-phase={phase}
          data-job-id={spec.jobId}
          {...focus}
          onEscapeKeyDown={(e) => e.preventDefault()}
          onPointerDownOutside={(e) => e.preventDefault()}
          onInteractOutside={(e) => e.preventDefault()}
        >
          <Dialog.Title className="wc-dialog__title">{spec.title}</Dialog.Title>
          <Dialog.Description className="wc-muted" data-testid="job-message" aria-live="polite">
            {message}
          </Dialog.Description>
          <div
            className="wc-progress"
            role="progressbar"
            aria-label={`${spec.title} progress`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress}
          >
            <div className="wc-progress__bar" style={{ width: `${progress}%` }} />
          </div>
          <p className="wc-job-overlay__figures">
            <span data-testid="job-percent">{progress}%</span>
            {remaining ? <span data-testid="job-remaining">{remaining}</span> : null}
          </p>
          {phase === 'running' ? (
            <>
              <p className="wc-muted wc-small">{JOB_DURATION_HINT}</p>
              <div className="wc-dialog__actions">
                <button type="button" className="wc-button" onClick={onCancel}>
                  Cancel job
                </button>
              </div>
            </>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
