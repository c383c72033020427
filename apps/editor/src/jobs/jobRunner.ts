import { createContext, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { describeError, isApiError, toast, useFollowedJob } from '@wordcut/ui';
import { ACTIVE_JOBS_STORAGE_KEY, addStoredJob, readStoredJobs, removeStoredJob, serializeStoredJobs, storedJobsForVideo } from '@wordcut/editor-core';
import type { StoredActiveJob } from '@wordcut/editor-core';
import { cancelJob, fetchJobStatus } from './api';
import type { JobKind } from '@wordcut/contracts';
import type { EditJobStatus } from './api';

/**
 * The editor's one job at a time: started, polled every 2 s (the page's job poller), then
 * finished as completed, failed/error or cancelled. On completion: 'Processing complete!' (the
 * caller refreshes video and transcript), after 2 s 'Loading Updated Video', 1.7 s + 300 ms later
 * it closes. Poll network errors are ignored (the next poll tries again); a 404 drops the job.
 */

export const JOB_POLL_INTERVAL_MS = 2000;
export const COMPLETE_PHASE_MS = 2000;
export const LOADING_PHASE_MS = 1700;
export const CLOSE_DELAY_MS = 300;
export const RECONNECTING_MESSAGE = 'Reconnecting to job in progress...';

export interface JobSpec {
  /** the job's kind (where it is polled, what it excludes: the job-kind registry) */
  kind: JobKind;
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

export interface JobRunner {
  job: RunningJob | null;
  start: (spec: JobSpec) => void;
  cancel: () => Promise<void>;
}

/** Where running jobs are remembered so a reload reconnects to them (key wordcut_active_jobs, records expire after 24 hours). */
export interface JobPersistence {
  videoId: string;
  storage: Storage | null;
  /** the overlay for a stored job found after a reload, or null to forget it */
  specFor: (record: StoredActiveJob) => Omit<JobSpec, 'jobId'> | null;
  /** told of every completed job before its own onCompleted (the page records the version it made) */
  beforeCompleted?: (status: EditJobStatus, spec: JobSpec) => void;
}

const FAILED = new Set(['failed', 'error']);
const FINAL = new Set(['completed', 'cancelled', ...FAILED]);

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
  const phaseTimers = useRef<Array<ReturnType<typeof setTimeout>>>([]);
  const current = useRef<JobSpec | null>(null);
  const persistRef = useRef(persist);
  persistRef.current = persist;
  const forget = (jobId: string) => {
    const store = persistRef.current;
    if (store) writeJobs(store.storage, removeStoredJob(readJobs(store.storage), jobId));
  };

  const clearPhaseTimers = () => {
    for (const timer of phaseTimers.current) clearTimeout(timer);
    phaseTimers.current = [];
  };
  const later = (fn: () => void, ms: number) => {
    phaseTimers.current.push(setTimeout(fn, ms));
  };
  /** the spec of `jobId` while it is this runner's job */
  const followed = (jobId: string): JobSpec | null => (current.current?.jobId === jobId ? current.current : null);

  const poller = useFollowedJob<EditJobStatus>({
    name: 'edit-job',
    fetchStatus: (jobId) => fetchJobStatus(followed(jobId)?.kind ?? 'cut', jobId),
    isFinal: (status) => FINAL.has(status.status),
    intervalMs: JOB_POLL_INTERVAL_MS,
    onStatus: (status, jobId) => {
      const spec = followed(jobId);
      if (spec) void handleStatus(spec, status);
    },
    onError: (error, jobId) => {
      const spec = followed(jobId);
      // the job is unknown (expired, or another deployment's): stop following it; other errors wait for the next poll
      if (spec && isApiError(error) && error.status === 404) {
        finish(spec);
        spec.onEnded?.();
      }
    },
  });
  const { follow, stop, pollNow } = poller;

  const finish = (spec: JobSpec) => {
    if (current.current !== spec) return;
    forget(spec.jobId);
    current.current = null;
    clearPhaseTimers();
    stop();
    setJob(null);
  };

  const handleStatus = async (spec: JobSpec, status: EditJobStatus) => {
    if (status.status === 'completed') {
      // done: a reload from here on must not reconnect (and refresh) again
      forget(spec.jobId);
      setJob({ spec, phase: 'complete', status: { ...status, progress: 100 } });
      try {
        persistRef.current?.beforeCompleted?.(status, spec);
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
  };

  // an unmounted page drops late poll answers (the guards compare with current.current)
  useEffect(
    () => () => {
      current.current = null;
      clearPhaseTimers();
    },
    [],
  );

  const start = useCallback(
    (spec: JobSpec) => {
      clearPhaseTimers();
      current.current = spec;
      const store = persistRef.current;
      if (store) {
        const record = { jobId: spec.jobId, type: spec.type ?? spec.kind, videoId: store.videoId, startedAt: Date.now() };
        writeJobs(store.storage, addStoredJob(readJobs(store.storage), record, Date.now()));
      }
      setJob({ spec, phase: 'running', status: null });
      follow(spec.jobId, { firstPollAfterInterval: true });
    },
    [follow],
  );

  // After a reload: reconnect to this video's newest stored job, polled at once.
  const videoId = persist?.videoId;
  useEffect(() => {
    const store = persistRef.current;
    if (!store || !videoId || current.current) return;
    const stored = storedJobsForVideo(readJobs(store.storage), videoId).sort((a, b) => b.startedAt - a.startedAt)[0];
    if (!stored) return;
    const base = store.specFor(stored);
    if (!base) {
      forget(stored.jobId);
      return;
    }
    const spec: JobSpec = { ...base, type: stored.type, jobId: stored.jobId };
    current.current = spec;
    setJob({ spec, phase: 'running', status: { status: 'processing', progress: 0, message: RECONNECTING_MESSAGE, estimatedTimeRemaining: null, error: null } });
    follow(spec.jobId);
  }, [videoId, follow]);

  const cancel = useCallback(async () => {
    const spec = current.current;
    if (!spec) return;
    try {
      await cancelJob(spec.jobId);
      // the next poll sees 'cancelled' and closes the overlay; poll now rather than in 2 s
      clearPhaseTimers();
      pollNow();
    } catch (error) {
      toast({ title: 'Cancel failed', description: describeError(error), variant: 'destructive' });
    }
  }, [pollNow]);

  return { job, start, cancel };
}

export const JobRunnerContext = createContext<JobRunner | null>(null);

/** The page's one job runner (one editing job at a time per video, one overlay). */
export function useJobs(): JobRunner {
  const runner = useContext(JobRunnerContext);
  if (!runner) throw new Error('useJobs: no JobRunnerContext provider above this component');
  return runner;
}
