import { JOB_KINDS, type JobKind, type JobStatus } from '@wordcut/contracts';
import { apiJson } from '@wordcut/ui';
import { bearerHeaders } from '../shared/sessionToken';

/** The editing jobs' status and cancel calls; each job's start call lives with the command that starts it. */

const enc = encodeURIComponent;

/** What a start call answers. */
export interface JobStarted {
  jobId: string;
}

/** The status path of a job of `kind`: the seed's path for its kind (the job-kind registry). */
export function jobStatusPath(kind: JobKind, jobId: string): string {
  switch (JOB_KINDS[kind].statusRoute) {
    case 'video-processing':
      return `/api/video-processing/jobs/${enc(jobId)}`;
    case 'caption':
      return `/api/caption-jobs/${enc(jobId)}`;
    case 'silence':
      return `/api/silence-jobs/${enc(jobId)}`;
    default:
      return `/api/jobs/${enc(jobId)}/status`;
  }
}

export type EditJobStatus = Pick<JobStatus, 'status' | 'progress' | 'message' | 'estimatedTimeRemaining' | 'error'> & { status: string; result?: JobStatus['result'] };

export function fetchJobStatus(kind: JobKind, jobId: string, signal?: AbortSignal): Promise<EditJobStatus> {
  return apiJson<EditJobStatus>(jobStatusPath(kind, jobId), { signal });
}

/** POST /api/jobs/{id}/cancel with the session's bearer token. */
export function cancelJob(jobId: string): Promise<unknown> {
  return apiJson(`/api/jobs/${enc(jobId)}/cancel`, { method: 'POST', headers: bearerHeaders() });
}
