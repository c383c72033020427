import { useQuery } from '@tanstack/react-query';
import { jobEstimateSchema, type JobEstimate, type JobKind } from '@wordcut/contracts';
import { apiJson } from '@wordcut/ui';
import { videoPath } from './api';

/** What a job box says of the time a job takes: what recent jobs of its kind and size took, or nothing. */
export function estimateText(estimate: JobEstimate | null | undefined): string | null {
  const sec = estimate?.typicalSec;
  if (sec === null || sec === undefined) return null;
  const took = sec < 60 ? `${Math.max(1, Math.round(sec))} seconds` : sec < 5400 ? `${Math.round(sec / 60)} minutes` : `${Math.round(sec / 3600)} hours`;
  return `Recent jobs like this on videos of this length took about ${took}.`;
}

/** GET /api/videos/{id}/job-estimate?kind=: fetched once a minute at most; a failure says nothing. */
export function useJobEstimate(videoId: string | null | undefined, kind: JobKind | null | undefined): string | null {
  const query = useQuery({
    queryKey: ['job-estimate', videoId, kind],
    queryFn: async ({ signal }) => jobEstimateSchema.parse(await apiJson(`${videoPath(videoId!)}/job-estimate?kind=${encodeURIComponent(kind!)}`, { signal })),
    enabled: Boolean(videoId && kind),
    staleTime: 60_000,
    retry: false,
  });
  return estimateText(query.data);
}

/** The estimate as a line of the job box, or nothing. */
export function JobEstimateLine({ videoId, kind, className = 'wc-muted wc-small' }: { videoId: string | null | undefined; kind: JobKind | null | undefined; className?: string }) {
  const text = useJobEstimate(videoId, kind);
  return text ? (
    <p className={className} data-testid="job-estimate">
      {text}
    </p>
  ) : null;
}
