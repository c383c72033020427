/**
 * Section 3: probe jobs through the whole system (gateway -> S3 + JetStream -> jobs -> media worker
 * -> jobs), every service a real process started by tools/stack/stack.ts on a throw-away database,
 * in its own NATS namespace. Latency of a job = from the client receiving the gateway's 202 to the
 * jobs service committing `completed` (jobs.jobs.completed_at; from then on GET /api/jobs/:id/status
 * says completed). Completion is read from Postgres so that polling does not load the machine.
 * Every job is submitted as one gateway session (the upload form's identity), whose hourly upload
 * limit is raised above the jobs the run submits: the limits are not what is measured here.
 */
import { jobStatusSchema } from '@wordcut/contracts';
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { startStack, SERVICES, type ServiceName } from '../stack/stack';
import { bearer, startGatewaySession } from '../testing/identity';
import { checkInterrupted, freePort, onCleanup, percentile, round } from './common';
import { benchEnv } from './stack';

export type JobsMode = 'sequential' | 'burst';

export interface JobsSummary {
  mode: JobsMode;
  label: string;
  jobs: number;
  /** POST /api/probe-jobs until the 202 (upload to S3 + publish), median ms. */
  acceptP50Ms: number;
  /** accepted (202 received) -> completed (committed by the jobs service), ms. */
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** accepted -> a worker started it (the `processing` transition), median ms. */
  toProcessingP50Ms: number;
  /** processing -> completed (presign + ffprobe + events), median ms. */
  processingP50Ms: number;
  wallSec: number;
}

export const JOBS_LABELS: Record<JobsMode, string> = {
  sequential: 'one job at a time (submit, wait until completed, next)',
  burst: 'burst: all jobs submitted at once',
};

interface Submitted {
  jobId: string;
  postedAt: number;
  acceptedAt: number;
}

interface JobTimes {
  id: string;
  status: string;
  error: string | null;
  completed_ms: number | null;
  processing_ms: number | null;
}

export async function benchJobs(o: { s3Endpoint: string; tinyMedia: string; jobs: number; log: (line: string) => void }): Promise<{ summaries: JobsSummary[]; startupSec: number }> {
  const t0 = performance.now();
  const { db, namespace, env } = await benchEnv({ s3Endpoint: o.s3Endpoint, namespacePrefix: 'bench', migrate: 'all' });
  const ports = {} as Record<ServiceName, number>;
  for (const s of SERVICES) ports[s] = await freePort();
  // probe jobs are uploads: 2 warm-ups and 2 x `jobs` from one identity and one address within the hour
  const uploads = String(Math.max(1000, 4 * o.jobs + 10));
  const stack = await startStack({ env: { ...env, UPLOADS_PER_HOUR_PER_USER: uploads, UPLOADS_PER_HOUR_PER_IP: uploads }, ports });
  onCleanup('the stack (5 services)', () => stack.stop());
  checkInterrupted();
  const startupSec = round((performance.now() - t0) / 1000, 1);
  o.log(`  stack up in ${startupSec} s (database ${db.name}, namespace ${namespace})`);

  const gateway = stack.services.gateway.url;
  const auth = bearer((await startGatewaySession(gateway)).token);
  const video = readFileSync(o.tinyMedia);
  const pg = new Client({ connectionString: db.url });
  await pg.connect();
  onCleanup('Postgres client', () => pg.end());

  const submit = async (): Promise<Submitted> => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(video)], { type: 'video/mp4' }), 'tiny.mp4');
    const postedAt = Date.now();
    const res = await fetch(`${gateway}/api/probe-jobs`, { method: 'POST', body: form, headers: auth });
    const acceptedAt = Date.now();
    if (res.status !== 202) throw new Error(`POST /api/probe-jobs answered ${res.status}: ${await res.text()}`);
    const { jobId } = (await res.json()) as { jobId: string };
    return { jobId, postedAt, acceptedAt };
  };
  const times = async (ids: string[]): Promise<JobTimes[]> =>
    (
      await pg.query<JobTimes>(
        `SELECT j.id, j.status, j.error,
                (extract(epoch FROM j.completed_at) * 1000)::float8 AS completed_ms,
                (SELECT (extract(epoch FROM t.at) * 1000)::float8 FROM jobs.job_transitions t
                  WHERE t.job_id = j.id AND t.to_status = 'processing' ORDER BY t.id LIMIT 1) AS processing_ms
           FROM jobs.jobs j WHERE j.id = ANY($1)`,
        [ids],
      )
    ).rows;
  const waitFinished = async (ids: string[], pollMs: number): Promise<JobTimes[]> => {
    const until = Date.now() + 60_000;
    for (;;) {
      const rows = await times(ids);
      if (rows.length === ids.length && rows.every((r) => r.completed_ms !== null)) return rows;
      if (Date.now() > until) throw new Error(`jobs not finished within 60 s: ${rows.filter((r) => r.completed_ms !== null).length}/${ids.length}`);
      await new Promise((r) => setTimeout(r, pollMs));
    }
  };

  const summarize = async (mode: JobsMode, submitted: Submitted[], rows: JobTimes[], wallMs: number): Promise<JobsSummary> => {
    const byId = new Map(rows.map((r) => [r.id, r]));
    const failed = rows.filter((r) => r.status !== 'completed');
    if (failed.length > 0) throw new Error(`${failed.length} job(s) did not complete: ${failed[0]!.status} ${failed[0]!.error ?? ''}`);
    // what the user sees: every job completed through the gateway too
    for (const s of submitted) {
      const res = await fetch(`${gateway}/api/jobs/${s.jobId}/status`, { headers: auth });
      if (!res.ok) throw new Error(`GET /api/jobs/${s.jobId}/status answered ${res.status}: ${await res.text()}`);
      const status = jobStatusSchema.parse(await res.json());
      if (status.status !== 'completed') throw new Error(`gateway says ${s.jobId} is ${status.status}`);
    }
    const latency = submitted.map((s) => byId.get(s.jobId)!.completed_ms! - s.acceptedAt);
    const toProcessing = submitted.map((s) => byId.get(s.jobId)!.processing_ms! - s.acceptedAt);
    const processing = submitted.map((s) => byId.get(s.jobId)!.completed_ms! - byId.get(s.jobId)!.processing_ms!);
    return {
      mode,
      label: JOBS_LABELS[mode],
      jobs: submitted.length,
      acceptP50Ms: round(percentile(submitted.map((s) => s.acceptedAt - s.postedAt), 50)),
      p50Ms: round(percentile(latency, 50)),
      p95Ms: round(percentile(latency, 95)),
      maxMs: round(Math.max(...latency)),
      toProcessingP50Ms: round(percentile(toProcessing, 50)),
      processingP50Ms: round(percentile(processing, 50)),
      wallSec: round(wallMs / 1000, 2),
    };
  };

  // warm-up (not counted): first requests pay for connections, JIT and lazy module loading
  for (let i = 0; i < 2; i++) {
    const w = await submit();
    await waitFinished([w.jobId], 20);
  }

  const summaries: JobsSummary[] = [];
  {
    const start = performance.now();
    const submitted: Submitted[] = [];
    const rows: JobTimes[] = [];
    for (let i = 0; i < o.jobs; i++) {
      checkInterrupted();
      const s = await submit();
      submitted.push(s);
      rows.push(...(await waitFinished([s.jobId], 10)));
    }
    const summary = await summarize('sequential', submitted, rows, performance.now() - start);
    o.log(`  jobs sequential: p50 ${summary.p50Ms} ms, p95 ${summary.p95Ms} ms`);
    summaries.push(summary);
  }
  {
    const start = performance.now();
    const submitted = await Promise.all(Array.from({ length: o.jobs }, () => submit()));
    const rows = await waitFinished(
      submitted.map((s) => s.jobId),
      100,
    );
    const summary = await summarize('burst', submitted, rows, performance.now() - start);
    o.log(`  jobs burst:      p50 ${summary.p50Ms} ms, p95 ${summary.p95Ms} ms`);
    summaries.push(summary);
  }
  return { summaries, startupSec };
}
