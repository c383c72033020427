import { useCallback, useEffect, useRef, useState } from 'react';
import type { ExportError, ExportJobStatus } from '@wordcut/contracts';
import {
  EXPORT_COMPLETE_TITLE,
  EXPORT_JOBS_STORAGE_KEY,
  EXPORT_FAILED_DEFAULT,
  EXPORT_IN_PROGRESS_TITLE,
  EXPORT_RETRYING_TITLE,
  ExportErrorCode,
  POLL_INTERVAL_MS,
  POLL_RETRIES,
  RETRY_FAILED_TITLE,
  pollRetryDelayMs,
  isFinal,
  readTrackedExports,
  trackExport,
  trackedExportOf,
  untrackExport,
} from '@wordcut/publishing';
import type { TrackedExports } from '@wordcut/publishing';
import { refreshSessionToken, toast, useFollowedJob } from '@wordcut/ui';
import { PublishError, fetchExportStatus, retryExport, toExportError } from './api';
import { PROVIDER_NAME } from './provider';

/**
 * The export job's life in the browser: poll the status at once and then every 2 s until it is
 * completed or failed (the page's job poller, useFollowedJob of @wordcut/ui); a failed poll is
 * tried again 3 times after 1 s, 2 s, 4 s (backoff 1 s doubling, at most 30 s), and after that the
 * dialog shows 'Failed to fetch job status'. A completed job toasts 'Export Complete'; a failed one shows its
 * error. Retry of a failed job asks the server for a new job ('Export Retrying') and polls that
 * one; retry after lost polling simply polls the same job again.
 */

export type FailureCause =
  /** the job itself failed (its status said so) or a retry of it was refused */
  | 'job'
  /** the status could not be fetched after the retries: the job's fate is unknown */
  | 'poll'
  /** the export was refused before a job existed (e.g. quota_exceeded) */
  | 'create';

export type ExportJobState =
  | { phase: 'idle' }
  | { phase: 'running'; jobId: string; status: ExportJobStatus | null; pollFailures: number }
  | { phase: 'completed'; jobId: string; status: ExportJobStatus }
  | { phase: 'failed'; jobId: string | null; status: ExportJobStatus | null; error: ExportError; failedAt: number; cause: FailureCause };

export interface UseExportJobOptions {
  /** called once per completed job (the page refetches the video and its clips) */
  onCompleted?: (status: ExportJobStatus) => void;
  /**
   * The video whose exports these are: the followed job is remembered in local storage under it
   * until it is seen finished (or its dialog is closed), and picked up again on mount, so a reload
   * while an export runs shows its progress again.
   */
  videoId?: string;
}

function pageStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function readTracked(): TrackedExports {
  try {
    return readTrackedExports(pageStorage()?.getItem(EXPORT_JOBS_STORAGE_KEY) ?? null, Date.now());
  } catch {
    return {};
  }
}

function writeTracked(map: TrackedExports): void {
  try {
    const storage = pageStorage();
    if (Object.keys(map).length === 0) storage?.removeItem(EXPORT_JOBS_STORAGE_KEY);
    else storage?.setItem(EXPORT_JOBS_STORAGE_KEY, JSON.stringify(map));
  } catch {
    // storage full or blocked: the export still runs, a reload just won't show it again
  }
}

/** Codes after which a remembered job is forgotten on resume: it is gone, or not this user's. */
const GONE = new Set<string>([ExportErrorCode.Unauthorized, ExportErrorCode.InvalidRequest, 'not_found', 'forbidden']);

export interface ExportJobControls {
  state: ExportJobState;
  /** true while a retry request is under way */
  retrying: boolean;
  /** follows a new job from its first poll */
  start: (jobId: string) => void;
  /** shows a failure that happened before a job existed */
  fail: (error: ExportError) => void;
  /** retries the failed job (or resumes polling after lost polls) */
  retry: () => void;
  /** back to idle; ignored while the job runs (the dialog is locked then) */
  close: () => void;
}

/** The error a job that failed without one shows: 'export_failed' with the default message. */
export function jobFailure(status: ExportJobStatus): ExportError {
  return status.error ?? { error: ExportErrorCode.ExportFailed, message: EXPORT_FAILED_DEFAULT };
}

const isAuthError = (error: unknown): boolean => {
  const code = error instanceof PublishError ? error.detail.error : null;
  return code === ExportErrorCode.Unauthorized;
};

export function useExportJob(options: UseExportJobOptions = {}): ExportJobControls {
  const [state, setState] = useState<ExportJobState>({ phase: 'idle' });
  const [retrying, setRetrying] = useState(false);
  const stateRef = useRef(state);
  stateRef.current = state;
  const onCompletedRef = useRef(options.onCompleted);
  onCompletedRef.current = options.onCompleted;
  const { videoId } = options;
  const videoIdRef = useRef(videoId);
  videoIdRef.current = videoId;
  const remember = (jobId: string) => {
    const id = videoIdRef.current;
    if (id) writeTracked(trackExport(readTracked(), id, jobId, Date.now()));
  };
  const forget = (jobId: string | null) => {
    if (jobId && videoIdRef.current) writeTracked(untrackExport(readTracked(), jobId));
  };
  /** bumped by every start/close/unmount: late answers of a retry request or a resume read are dropped */
  const run = useRef(0);

  const update = (next: ExportJobState) => {
    stateRef.current = next;
    setState(next);
  };

  /** the status shown while the job runs: a failed poll keeps showing the last one read */
  const lastStatus = (): ExportJobStatus | null => {
    const current = stateRef.current;
    return current.phase === 'running' ? current.status : null;
  };

  const poller = useFollowedJob<ExportJobStatus>({
    name: 'export',
    fetchStatus: (jobId) => fetchExportStatus(jobId),
    isFinal: (status) => isFinal(status.status),
    intervalMs: POLL_INTERVAL_MS,
    retry: { attempts: POLL_RETRIES, delayMs: pollRetryDelayMs },
    onStatus: (status, jobId) => {
      if (isFinal(status.status)) forget(jobId);
      if (status.status === 'completed') {
        update({ phase: 'completed', jobId, status: { ...status, progress: 100 } });
        toast({ title: EXPORT_COMPLETE_TITLE, description: `Your changes were published to ${PROVIDER_NAME}.` });
        onCompletedRef.current?.(status);
        return;
      }
      if (isFinal(status.status)) {
        update({ phase: 'failed', jobId, status, error: jobFailure(status), failedAt: Date.now(), cause: 'job' });
        return;
      }
      update({ phase: 'running', jobId, status, pollFailures: 0 });
    },
    onError: async (error, jobId, failure) => {
      const last = lastStatus();
      if (!failure.willRetry) {
        poller.stop();
        update({ phase: 'failed', jobId, status: last, error: toExportError(error, ExportErrorCode.StatusFetchFailed), failedAt: Date.now(), cause: 'poll' });
        return;
      }
      update({ phase: 'running', jobId, status: last, pollFailures: failure.attempt });
      // an expired token is renewed before the next try (the 10-minute refresh may be late)
      if (isAuthError(error)) await refreshSessionToken();
    },
  });
  const { follow, stop } = poller;

  const begin = useCallback(
    (jobId: string, last: ExportJobStatus | null) => {
      run.current++;
      remember(jobId);
      update({ phase: 'running', jobId, status: last, pollFailures: 0 });
      follow(jobId);
    },
    [follow],
  );

  const start = useCallback((jobId: string) => begin(jobId, null), [begin]);

  const fail = useCallback(
    (error: ExportError) => {
      stop();
      run.current++;
      update({ phase: 'failed', jobId: null, status: null, error, failedAt: Date.now(), cause: 'create' });
    },
    [stop],
  );

  const retry = useCallback(() => {
    const current = stateRef.current;
    if (current.phase !== 'failed' || current.jobId === null) return;
    if (current.cause === 'poll') {
      begin(current.jobId, current.status);
      return;
    }
    const token = ++run.current;
    const jobId = current.jobId;
    setRetrying(true);
    retryExport(jobId).then(
      (started) => {
        setRetrying(false);
        if (run.current !== token) return;
        forget(jobId);
        toast({ title: EXPORT_RETRYING_TITLE, description: `Retrying the export to ${PROVIDER_NAME}...` });
        begin(started.jobId, null);
      },
      (error: unknown) => {
        setRetrying(false);
        if (run.current !== token) return;
        const detail = toExportError(error, ExportErrorCode.RetryFailed);
        if (detail.error === ExportErrorCode.ExportInProgress && detail.jobId) {
          // another export of the video runs (it must finish before this one is retried): follow it
          toast({ title: EXPORT_IN_PROGRESS_TITLE, description: detail.message });
          begin(detail.jobId, null);
          return;
        }
        toast({ title: RETRY_FAILED_TITLE, description: detail.message, variant: 'destructive' });
        update({ ...current, error: detail, failedAt: Date.now() });
      },
    );
  }, [begin]);

  const close = useCallback(() => {
    const current = stateRef.current;
    if (current.phase === 'running') return;
    if (current.phase !== 'idle') forget(current.jobId);
    stop();
    run.current++;
    update({ phase: 'idle' });
  }, [stop]);

  // A remembered export of this video (a reload while it ran): one status read decides. Still
  // running: its progress dialog again, polled as before. Failed: its error and Retry. Completed
  // meanwhile: the 'Export Complete' toast only. Gone or not this user's: forgotten quietly; a
  // network error keeps it for the next time.
  useEffect(() => {
    if (!videoId || stateRef.current.phase !== 'idle') return;
    const jobId = trackedExportOf(readTracked(), videoId);
    if (!jobId) return;
    const token = ++run.current;
    fetchExportStatus(jobId).then(
      (status) => {
        if (run.current !== token) return;
        if (status.status === 'completed') {
          forget(jobId);
          toast({ title: EXPORT_COMPLETE_TITLE, description: `Your changes were published to ${PROVIDER_NAME}.` });
          onCompletedRef.current?.(status);
        } else if (isFinal(status.status)) {
          forget(jobId);
          update({ phase: 'failed', jobId, status, error: jobFailure(status), failedAt: Date.now(), cause: 'job' });
        } else {
          update({ phase: 'running', jobId, status, pollFailures: 0 });
          follow(jobId, { firstPollAfterInterval: true });
        }
      },
      (error: unknown) => {
        if (run.current !== token) return;
        if (GONE.has(toExportError(error, ExportErrorCode.StatusFetchFailed).error)) forget(jobId);
      },
    );
  }, [videoId, follow]);

  // an unmounted header drops late answers (the poller stops by itself)
  useEffect(
    () => () => {
      run.current++;
    },
    [],
  );

  return { state, retrying, start, fail, retry, close };
}
