import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as Dialog from '@radix-ui/react-dialog';
import { activeJobCount, activeJobsButtonLabel, canCancel, jobKindLabel, listedJobs, userJobsPollInterval } from '@wordcut/editor-core';
import { apiJson, describeError, toast, useJobPolling } from '@wordcut/ui';
import { bearerHeaders, getSessionToken } from '../shared/sessionToken';
import { cancelJob } from './api';

/** A job as GET /api/jobs/user-jobs lists it: id, status, progress, message, error, video. */
export interface UserJob {
  id: string;
  status: string;
  progress: number;
  message?: string | null;
  error?: string | null;
  videoId?: string | null;
}

export const userJobsKey = ['/api/jobs/user-jobs'] as const;
export const AUTH_REQUIRED = 'Authentication required';

async function fetchUserJobs(signal: AbortSignal): Promise<UserJob[]> {
  if (!getSessionToken()) throw new Error(AUTH_REQUIRED);
  try {
    const body = await apiJson<{ jobs: UserJob[] } | UserJob[]>('/api/jobs/user-jobs', { headers: bearerHeaders(), signal });
    return Array.isArray(body) ? body : body.jobs;
  } catch (error) {
    if (signal.aborted) throw error;
    throw new Error('Failed to fetch jobs', { cause: error });
  }
}

/**
 * The floating 'Active Jobs (n)' button and the Active Jobs dialog: the user's jobs, polled (the
 * page's job poller) every 3 s in the page while any is active and every 2 s while the dialog is
 * open; cards for pending, processing and failed jobs, their kind read from the id prefix, and
 * Cancel for pending and processing ones. Needs the session's bearer token.
 */
export function ActiveJobs() {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const hasToken = getSessionToken() !== null;
  const jobs = useJobPolling<UserJob[]>({
    queryKey: userJobsKey,
    fetchStatus: ({ signal }) => fetchUserJobs(signal),
    enabled: hasToken,
    interval: (latest) => userJobsPollInterval(latest, open),
    // a count in a floating button: it can wait while the tab is hidden or offline
    pollWhenHidden: false,
  });
  const cancel = useMutation({
    mutationFn: (id: string) => cancelJob(id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: userJobsKey }),
    onError: (error) => toast({ title: 'Failed to cancel job', description: describeError(error), variant: 'destructive' }),
  });

  const count = activeJobCount(jobs.data);
  const listed = listedJobs(jobs.data ?? []);
  if (!hasToken || (count === 0 && !open)) return null;
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button type="button" className="wc-button wc-button--primary wc-active-jobs-button" data-testid="active-jobs-button">
          {activeJobsButtonLabel(count)}
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="wc-dialog-overlay" />
        <Dialog.Content className="wc-dialog" data-testid="active-jobs-dialog">
          <Dialog.Title className="wc-dialog__title">Active Jobs</Dialog.Title>
          <Dialog.Description className="wc-muted">Jobs running for your videos. They keep running if you leave this page.</Dialog.Description>
          {jobs.isError ? (
            <p className="wc-error-text" role="alert">
              {jobs.error.message}
            </p>
          ) : listed.length === 0 ? (
            <p className="wc-muted">No active jobs.</p>
          ) : (
            <ul className="wc-job-cards">
              {listed.map((job) => (
                <li key={job.id} className="wc-job-card" data-testid="active-job" data-status={job.status}>
                  <div className="wc-job-card__head">
                    <strong>{jobKindLabel(job.id)}</strong>
                    <span className={`wc-badge wc-badge--job-${job.status}`}>{job.status}</span>
                  </div>
                  {job.status === 'error' || job.status === 'failed' ? (
                    <p className="wc-error-text">{job.error || 'The job failed.'}</p>
                  ) : (
                    <div className="wc-progress" role="progressbar" aria-label={`${jobKindLabel(job.id)} progress`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(job.progress)}>
                      <div className="wc-progress__bar" style={{ width: `${Math.round(job.progress)}%` }} />
                    </div>
                  )}
                  {job.message ? <p className="wc-muted wc-small">{job.message}</p> : null}
                  {canCancel(job.status) ? (
                    <button type="button" className="wc-button wc-button--small" onClick={() => cancel.mutate(job.id)} disabled={cancel.isPending && cancel.variables === job.id}>
                      Cancel
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          <div className="wc-dialog__actions">
            <Dialog.Close className="wc-button">Close</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
