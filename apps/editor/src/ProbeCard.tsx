import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { Query } from '@tanstack/react-query';
import { ApiPaths, PROBE_UPLOAD_FIELD } from '@wordcut/contracts';
import type { JobAccepted, JobStatus, JobStatusValue, ProbeResult, ProbeStream } from '@wordcut/contracts';
import { apiJson, describeError, isApiError, toast } from '@wordcut/ui';
import { formatBitRate, formatBytes, formatDuration, formatRate } from './format';

/** Job polling interval (seed 000 §9). */
export const JOB_POLL_INTERVAL_MS = 2000;

const RUNNING: ReadonlySet<JobStatusValue> = new Set(['pending', 'processing']);

const STATUS_LABELS: Record<JobStatusValue, string> = {
  pending: 'Queued',
  processing: 'Processing',
  completed: 'Completed',
  error: 'Failed',
  cancelled: 'Cancelled',
};

/**
 * A poll that failed with a client error (4xx: the job is unknown, access denied) stops the
 * polling; network errors and 5xx answers are ignored and the next poll comes as usual
 * (seed 000 §8: poll network errors are silently ignored).
 */
function isFatalPollError(error: unknown): boolean {
  return isApiError(error) && error.status >= 400 && error.status < 500;
}

export function pollInterval(query: Query<JobStatus, Error, JobStatus, readonly unknown[]>): number | false {
  const status = query.state.data?.status;
  if (status && !RUNNING.has(status)) return false;
  if (isFatalPollError(query.state.error)) return false;
  return JOB_POLL_INTERVAL_MS;
}

/** The walking-skeleton flow: upload a file, start a probe job, follow it, show ffprobe's answer. */
export function ProbeCard() {
  const inputId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);

  const start = useMutation({
    mutationFn: async (media: File) => {
      const form = new FormData();
      form.append(PROBE_UPLOAD_FIELD, media, media.name);
      return apiJson<JobAccepted>(ApiPaths.probeJobs, { method: 'POST', body: form });
    },
    onSuccess: (accepted) => setJobId(accepted.jobId),
    onError: (error) => toast({ title: 'Probe failed', description: describeError(error), variant: 'destructive' }),
  });

  const job = useQuery<JobStatus, Error, JobStatus, readonly unknown[]>({
    queryKey: [ApiPaths.jobStatus(jobId ?? '')],
    enabled: jobId !== null,
    refetchInterval: pollInterval,
  });

  const data = job.data;
  const toastedFor = useRef<string | null>(null);
  useEffect(() => {
    if (data?.status === 'error' && toastedFor.current !== data.id) {
      toastedFor.current = data.id;
      toast({ title: 'Probe failed', description: data.error ?? data.message, variant: 'destructive' });
    }
  }, [data]);

  const running = start.isPending || (jobId !== null && (!data || RUNNING.has(data.status)) && !isFatalPollError(job.error));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!file || running) return;
    setJobId(null);
    start.mutate(file);
  };

  const reset = () => {
    setJobId(null);
    setFile(null);
    start.reset();
    formRef.current?.reset();
  };

  return (
    <section className="wc-card" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`} className="wc-card__title">
        Probe a media file
      </h2>
      <p className="wc-muted">Upload a video or audio file; the server inspects it with ffprobe and reports what it contains.</p>
      <form ref={formRef} className="wc-form" onSubmit={onSubmit}>
        <div className="wc-field">
          <label htmlFor={inputId}>Media file</label>
          <input
            id={inputId}
            name={PROBE_UPLOAD_FIELD}
            type="file"
            accept="video/*,audio/*"
            disabled={running}
            onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
          />
        </div>
        <div className="wc-actions">
          <button type="submit" className="wc-button wc-button--primary" disabled={!file || running}>
            {start.isPending ? 'Uploading…' : 'Probe'}
          </button>
          {jobId && !running ? (
            <button type="button" className="wc-button" onClick={reset}>
              Probe another file
            </button>
          ) : null}
        </div>
      </form>

      {start.isError ? (
        <p className="wc-error-text" role="alert">
          {describeError(start.error)}
        </p>
      ) : null}

      {jobId ? <JobView jobId={jobId} data={data} error={job.error} /> : null}
    </section>
  );
}

function JobView({ jobId, data, error }: { jobId: string; data: JobStatus | undefined; error: Error | null }) {
  const fatal = isFatalPollError(error) ? error : null;
  return (
    <div className="wc-job" data-testid="probe-job" aria-live="polite">
      <div className="wc-job__row">
        <span className="wc-muted">Job</span> <span className="wc-mono">{jobId}</span>
      </div>
      {fatal ? (
        <p className="wc-error-text" role="alert">
          {describeError(fatal)}
        </p>
      ) : !data ? (
        <p className="wc-muted">Waiting for the job status…</p>
      ) : (
        <>
          <div className="wc-job__row">
            <span className={`wc-badge wc-badge--${data.status}`} data-testid="probe-status">
              {STATUS_LABELS[data.status]}
            </span>
            <span data-testid="probe-progress">{Math.round(data.progress)}%</span>
            {data.estimatedTimeRemaining != null && RUNNING.has(data.status) ? (
              <span className="wc-muted">about {formatDuration(data.estimatedTimeRemaining)} left</span>
            ) : null}
          </div>
          <progress className="wc-progress" max={100} value={data.progress} aria-label="Probe progress" />
          {data.message ? <p data-testid="probe-message">{data.message}</p> : null}
          {data.status === 'error' ? (
            <p className="wc-error-text" role="alert" data-testid="probe-error">
              {data.error ?? 'The probe failed.'}
            </p>
          ) : null}
          {data.status === 'completed' && data.result ? <ProbeResultView result={data.result} /> : null}
        </>
      )}
    </div>
  );
}

function streamSummary(stream: ProbeStream): string {
  const parts: string[] = [stream.codecName ?? 'unknown codec'];
  if (stream.width != null && stream.height != null) parts.push(`${stream.width}×${stream.height}`);
  if (stream.frameRate != null) parts.push(formatRate(stream.frameRate, 'fps'));
  if (stream.sampleRate != null) parts.push(formatRate(stream.sampleRate, 'Hz'));
  if (stream.channels != null) parts.push(`${stream.channels} ch`);
  if (stream.durationSec != null) parts.push(formatDuration(stream.durationSec));
  return parts.join(' · ');
}

export function ProbeResultView({ result }: { result: ProbeResult }) {
  const rows: Array<[key: string, term: string, detail: string]> = [
    ['format', 'Format', result.formatName],
    ['duration', 'Duration', result.durationSec != null ? formatDuration(result.durationSec) : 'N/A'],
    ['size', 'Size', result.sizeBytes != null ? formatBytes(result.sizeBytes) : 'N/A'],
  ];
  if (result.bitRate != null) rows.push(['bitrate', 'Bit rate', formatBitRate(result.bitRate)]);
  for (const stream of result.streams) {
    rows.push([`stream-${stream.index}`, `Stream ${stream.index} (${stream.codecType})`, streamSummary(stream)]);
  }
  return (
    <dl className="wc-dl" data-testid="probe-result">
      {rows.map(([key, term, detail]) => (
        <div key={key} className="wc-dl__row">
          <dt>{term}</dt>
          <dd>{detail}</dd>
        </div>
      ))}
    </dl>
  );
}
