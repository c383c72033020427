/**
 * Browser routes and HTTP paths of the gateway, shared by the
 * shell and the services.
 */
export const EDITOR_ROUTES = ['/', '/editor/:videoId?', '/videos', '/videos/:videoId', '/video/:videoId'] as const;
export const ANALYTICS_ROUTE = '/analytics';

export const ApiPaths = {
  probeJobs: '/api/probe-jobs',
  jobStatus: (jobId: string) => `/api/jobs/${encodeURIComponent(jobId)}/status`,
} as const;

/** Multipart upload limits for the walking-skeleton probe job. */
export const PROBE_UPLOAD_FIELD = 'file';
