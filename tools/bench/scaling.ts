/**
 * Section 16: the media workers scaling on one machine. The whole stack (every service a real
 * process, a throw-away database and NATS namespace), one demo talk uploaded, then 20 clip renders
 * (10 s each, 9:16 at 1080x1920, re-encoded) submitted at once through the public API, with 1, 2 and
 * 4 media worker processes consuming the same queue (`RENDER_CONCURRENCY` 1 each, as the chart
 * runs them). Per run: the wall time from the first POST to the last job committed `completed`,
 * the throughput, and each job's queue wait (its request to its `processing` transition) and
 * render time (`processing` to `completed`), read from the jobs service's tables.
 *
 * ffmpeg (libx264) uses every core for one render, so on 2 cores one worker already keeps both
 * busy while it encodes; a second worker overlaps what is not the encode (probe, audio, upload,
 * events), and a fourth only queues for the same cores.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { ROOT, ServiceProcess, startStack, SERVICES, type ServiceName } from '../stack/stack';
import { bearer, startGatewaySession } from '../testing/identity';
import { checkInterrupted, freePort, onCleanup, percentile, round } from './common';
import { benchEnv } from './stack';

export interface ScalingRun {
  workers: number;
  jobs: number;
  wallSec: number;
  jobsPerMinute: number;
  queueWaitP50Sec: number;
  queueWaitMaxSec: number;
  renderP50Sec: number;
}

export interface ScalingResults {
  cores: number;
  clipSec: number;
  runs: ScalingRun[];
  setupSec: number;
  sectionSec: number;
}

const CLIP_SEC = 10;

export async function benchScaling(o: { s3Endpoint: string; jobs: number; workerCounts: number[]; cores: number; log: (line: string) => void }): Promise<ScalingResults> {
  const t0 = performance.now();
  const { env, db } = await benchEnv({ s3Endpoint: o.s3Endpoint, namespacePrefix: 'bench_scale_', migrate: 'all' });
  const ports = {} as Record<ServiceName, number>;
  for (const s of SERVICES) ports[s] = await freePort();
  const stackEnv = { ...env, MAX_ACTIVE_JOBS_PER_USER: String(o.jobs + 5), LEGACY_UPLOAD_ENABLED: 'true', LOG_LEVEL: 'warn' };
  const stack = await startStack({ env: stackEnv, ports });
  onCleanup('the stack (5 services)', () => stack.stop());
  const extra: ServiceProcess[] = [];
  onCleanup('the extra media workers', () => Promise.all(extra.map((p) => p.stop())).then(() => undefined));

  const gateway = stack.services.gateway.url;
  const session = await startGatewaySession(gateway);
  const media = join(ROOT, '.data', 'test-media');
  execFileSync('bash', [join(ROOT, 'tools', 'media', 'generate-test-media.sh'), media], { stdio: 'ignore' });
  const form = new FormData();
  form.append('video', new Blob([new Uint8Array(readFileSync(join(media, 'demo.mp4')))], { type: 'video/mp4' }), 'scaling.mp4');
  form.append('vtt', new Blob([readFileSync(join(media, 'demo.vtt'), 'utf8')], { type: 'text/vtt' }), 'demo.vtt');
  const up = await fetch(`${gateway}/api/videos/upload`, { method: 'POST', headers: bearer(session.token), body: form });
  if (up.status !== 201) throw new Error(`upload answered ${up.status}: ${await up.text()}`);
  const { id } = (await up.json()) as { id: string };
  for (let k = 0; ; k++) {
    const v = (await (await fetch(`${gateway}/api/videos/${id}`, { headers: bearer(session.token) })).json()) as { status: string; duration: number | null };
    if (v.status === 'completed') break;
    if (v.status === 'failed' || k > 600) throw new Error('the demo talk did not become ready');
    await new Promise((r) => setTimeout(r, 200));
  }
  const pg = new Client({ connectionString: db.url });
  await pg.connect();
  onCleanup('Postgres client', () => pg.end());
  const setupSec = round((performance.now() - t0) / 1000, 1);

  const runs: ScalingRun[] = [];
  for (const workers of o.workerCounts) {
    checkInterrupted();
    while (1 + extra.length < workers) {
      const p = new ServiceProcess('media', await freePort(), { ...stack.services.media.env, WORKER_ID: `bench-media-${extra.length + 2}` });
      p.start();
      await p.waitHealthy(60_000);
      extra.push(p);
    }
    while (1 + extra.length > workers) await extra.pop()!.stop();
    o.log(`  16: ${o.jobs} clip renders with ${workers} media worker process(es)`);
    const started = Date.now();
    const ids: string[] = [];
    await Promise.all(
      Array.from({ length: o.jobs }, async (_, k) => {
        const res = await fetch(`${gateway}/api/clips`, {
          method: 'POST',
          headers: { ...bearer(session.token), 'content-type': 'application/json' },
          body: JSON.stringify({ videoId: id, name: `Scaling ${workers}-${k}`, startTime: 0, endTime: CLIP_SEC, aspectRatio: '9:16' }),
        });
        if (res.status !== 202) throw new Error(`POST /api/clips answered ${res.status}: ${await res.text()}`);
        ids.push(((await res.json()) as { jobId: string }).jobId);
      }),
    );
    let done: Array<{ id: string; status: string; created: Date; processing: Date | null; completed: Date | null }> = [];
    for (;;) {
      checkInterrupted();
      done = (
        await pg.query(
          `SELECT j.id, j.status, j.created_at AS created, j.completed_at AS completed,
                  (SELECT min(t.at) FROM jobs.job_transitions t WHERE t.job_id = j.id AND t.to_status = 'processing') AS processing
           FROM jobs.jobs j WHERE j.id = ANY($1)`,
          [ids],
        )
      ).rows as typeof done;
      const failed = done.find((j) => j.status === 'error' || j.status === 'cancelled');
      if (failed) throw new Error(`job ${failed.id} ended ${failed.status}`);
      if (done.length === ids.length && done.every((j) => j.status === 'completed')) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const last = Math.max(...done.map((j) => j.completed!.getTime()));
    const wallSec = (last - started) / 1000;
    const waits = done.map((j) => ((j.processing ?? j.completed!).getTime() - j.created.getTime()) / 1000);
    const renders = done.map((j) => (j.completed!.getTime() - (j.processing ?? j.created).getTime()) / 1000);
    runs.push({
      workers,
      jobs: o.jobs,
      wallSec: round(wallSec, 1),
      jobsPerMinute: round((o.jobs / wallSec) * 60, 1),
      queueWaitP50Sec: round(percentile(waits, 50), 1),
      queueWaitMaxSec: round(Math.max(...waits), 1),
      renderP50Sec: round(percentile(renders, 50), 1),
    });
  }
  return { cores: o.cores, clipSec: CLIP_SEC, runs, setupSec, sectionSec: round((performance.now() - t0) / 1000) };
}

export function renderScaling(x: ScalingResults, table: (headers: string[], rows: Array<Array<string | number>>) => string): string[] {
  const one = x.runs.find((r) => r.workers === 1);
  return [
    `16. Media workers scaling on ${x.cores} cores: ${x.runs[0]?.jobs ?? 0} clip renders (${x.clipSec} s, 9:16 1080x1920) submitted at once`,
    table(
      ['media worker processes', 'wall s', 'jobs / min', 'vs 1 worker', 'queue wait p50 s', 'queue wait max s', 'render p50 s'],
      x.runs.map((r) => [r.workers, r.wallSec, r.jobsPerMinute, one ? `${round(r.jobsPerMinute / one.jobsPerMinute, 2)}x` : '-', r.queueWaitP50Sec, r.queueWaitMaxSec, r.renderP50Sec]),
    ),
    `   section time ${x.sectionSec} s (set-up ${x.setupSec} s)`,
  ];
}
