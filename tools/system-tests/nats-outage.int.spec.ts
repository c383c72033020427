/**
 * A NATS outage under work: the whole stack on a NATS server of this test's own (JetStream, a
 * store directory of its own, a free port), clip renders queued and running, then NATS stopped
 * for 10 s and started again on the same store. Every job completes exactly once (one transition
 * to completed, one output object per clip), and every service is healthy again without a restart.
 * Requires the services to be built (`npm run build:services`) and `nats-server` on the PATH
 * (Debian's nats-server package, which runs the machine's own NATS).
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { videoSchema } from '@wordcut/contracts';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { ROOT } from '../stack/stack';
import { eventually, freePort } from '../testing/env';
import { bearer, startGatewaySession, type GatewaySessionForTest } from '../testing/identity';
import { startSystem, type TestSystem } from './system';

const PORTS = { gateway: 14100, media: 14101, jobs: 14102, export: 14103, analytics: 14104 };
const MEDIA = join(ROOT, '.data', 'test-media');
const CLIPS = 4;
/** How long NATS stays away: longer than a clip's render, so one finishes while it is gone. */
const OUTAGE_MS = 6_000;

const listening = (port: number): Promise<boolean> =>
  new Promise((ok) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      ok(true);
    });
    socket.once('error', () => ok(false));
  });

/** A JetStream-enabled nats-server of this test's own, on `port`, keeping its streams in `store`. */
class OwnNats {
  private child: ChildProcess | undefined;

  constructor(
    readonly port: number,
    private readonly store: string,
  ) {}

  async start(): Promise<void> {
    this.child = spawn('nats-server', ['-js', '-a', '127.0.0.1', '-p', String(this.port), '-sd', this.store], { stdio: 'ignore' });
    await eventually(async () => ((await listening(this.port)) ? true : undefined), 15_000, 'nats-server listening');
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((ok) => child.once('exit', ok));
    child.kill('SIGTERM');
    await exited;
  }
}

describe('a NATS outage while renders are queued and running', () => {
  let sys: TestSystem;
  let nats: OwnNats;
  let db: Client;
  let owner: GatewaySessionForTest;
  let store: string;
  const api = (path: string) => sys.api(path);

  beforeAll(async () => {
    execFileSync('bash', [join(ROOT, 'tools/media/generate-test-media.sh'), MEDIA], { stdio: 'ignore' });
    store = mkdtempSync(join(tmpdir(), 'wordcut-nats-'));
    nats = new OwnNats(await freePort(), store);
    await nats.start();
    sys = await startSystem({ name: 'natsout', ports: PORTS, mediaDir: MEDIA, env: { NATS_URL: `nats://127.0.0.1:${nats.port}`, MAX_ACTIVE_JOBS_PER_USER: '10' } });
    db = new Client({ connectionString: sys.env.DATABASE_URL });
    await db.connect();
    owner = await startGatewaySession(sys.stack.services.gateway.url);
  }, 300_000);

  afterAll(async () => {
    await db?.end();
    await sys?.close();
    await nats?.stop();
    rmSync(store, { recursive: true, force: true });
  });

  it('completes every job exactly once after NATS returns, and every service is healthy again', async () => {
    const form = new FormData();
    form.append('video', new Blob([new Uint8Array(readFileSync(join(MEDIA, 'demo.mp4')))], { type: 'video/mp4' }), 'outage.mp4');
    form.append('vtt', new Blob([readFileSync(join(MEDIA, 'demo.vtt'), 'utf8')], { type: 'text/vtt' }), 'demo.vtt');
    const up = await fetch(api('/api/videos/upload'), { method: 'POST', headers: bearer(owner.token), body: form });
    expect(up.status).toBe(201);
    const { id } = (await up.json()) as { id: string };
    await eventually(async () => {
      const v = videoSchema.parse(await (await fetch(api(`/api/videos/${id}`), { headers: bearer(owner.token) })).json());
      return v.status === 'completed' ? v : undefined;
    }, 120_000, 'the upload is ready');

    const jobs: Array<{ jobId: string; id: string }> = [];
    for (let k = 0; k < CLIPS; k++) {
      const res = await fetch(api('/api/clips'), {
        method: 'POST',
        headers: { ...bearer(owner.token), 'content-type': 'application/json' },
        body: JSON.stringify({ videoId: id, name: `Outage ${k}`, startTime: k, endTime: k + 5, aspectRatio: '9:16' }),
      });
      expect(res.status).toBe(202);
      jobs.push((await res.json()) as { jobId: string; id: string });
    }
    // one render is running (the worker takes one at a time), the others wait in the queue
    await eventually(async () => {
      const s = (await (await fetch(api(`/api/jobs/${jobs[0]!.jobId}/status`), { headers: bearer(owner.token) })).json()) as { status: string };
      return s.status === 'processing' || s.status === 'completed' ? true : undefined;
    }, 30_000, 'the first render started');

    const statusOf = async (jobId: string) => ((await (await fetch(api(`/api/jobs/${jobId}/status`), { headers: bearer(owner.token) })).json()) as { status: string }).status;
    const before = await Promise.all(jobs.map((j) => statusOf(j.jobId)));
    // the outage must meet work that is not done yet
    expect(before.filter((st) => st !== 'completed').length).toBeGreaterThanOrEqual(2);
    await nats.stop();
    await new Promise((r) => setTimeout(r, OUTAGE_MS));
    // while NATS is away the services say so
    expect((await fetch(`${sys.stack.services.jobs.url}/healthz`)).status).toBe(503);
    await nats.start();

    for (const job of jobs) {
      await eventually(async () => {
        const s = (await (await fetch(api(`/api/jobs/${job.jobId}/status`), { headers: bearer(owner.token) })).json()) as { status: string };
        if (s.status === 'error' || s.status === 'failed') throw new Error(`job ${job.jobId} failed: ${JSON.stringify(s)}\n${sys.logsMentioning(job.jobId)}`);
        return s.status === 'completed' ? s : undefined;
      }, 120_000, `job ${job.jobId} completed`);
    }

    // exactly once: one transition to completed per job, one output per clip
    const transitions = await db.query(`SELECT job_id, count(*)::int AS n FROM jobs.job_transitions WHERE job_id = ANY($1) AND to_status = 'completed' GROUP BY job_id`, [jobs.map((j) => j.jobId)]);
    expect(Object.fromEntries(transitions.rows.map((r: { job_id: string; n: number }) => [r.job_id, r.n]))).toEqual(Object.fromEntries(jobs.map((j) => [j.jobId, 1])));
    for (const job of jobs) {
      const listed = await sys.s3client.send(new ListObjectsV2Command({ Bucket: sys.env.S3_BUCKET, Prefix: `videos/${id}/clips/${job.id}/` }));
      expect((listed.Contents ?? []).filter((o) => o.Key!.endsWith('.mp4')).map((o) => o.Key)).toEqual([`videos/${id}/clips/${job.id}/${job.jobId}.mp4`]);
    }
    for (const [name, svc] of Object.entries(sys.stack.services)) {
      await eventually(async () => ((await fetch(`${svc.url}/healthz`)).status === 200 ? true : undefined), 30_000, `${name} healthy again`);
    }
  }, 300_000);
});
