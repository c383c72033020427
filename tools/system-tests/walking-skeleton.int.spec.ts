/**
 * The walking skeleton through the whole system, with every service as a real process:
 * gateway -> S3 + JetStream -> jobs (Postgres) -> media worker (ffprobe) -> jobs -> gateway.
 * The caller is a gateway session (the upload form's identity): there is no provider here.
 * Requires the services to be built (`npm run build:services`).
 */
import { jobStatusSchema, probeResultSchema, type JobStatus } from '@wordcut/contracts';
import { FfmpegMediaTools } from '@wordcut/ffmpeg';
import { startLocalS3, S3ObjectStorage, type LocalS3 } from '@wordcut/storage';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { migrateAll, startStack, ServiceProcess, SERVICES, type Stack, type StackEnv } from '../stack/stack';
import { createTestDatabase, deleteNamespaceStreams, eventually, NATS_URL, stopStackReporting, uniqueSuffix } from '../testing/env';
import { bearer, startGatewaySession } from '../testing/identity';

const PORTS = { gateway: 13000, media: 13101, jobs: 13102, export: 13103, analytics: 13104 };
const UPLOAD_LIMIT = 3 * 1024 * 1024;

describe('walking skeleton: a probe job through every service', () => {
  let s3: LocalS3;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let env: StackEnv;
  let stack: Stack;
  let dir: string;
  let video: Buffer;
  let storage: S3ObjectStorage;
  /** the gateway session every job of this file belongs to */
  let token: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wordcut-sys-'));
    s3 = await startLocalS3({ port: 0, directory: join(dir, 's3') });
    db = await createTestDatabase();
    env = {
      DATABASE_URL: db.url,
      NATS_URL,
      NATS_NAMESPACE: `sys${uniqueSuffix()}`,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_BUCKET: 'wordcut-test',
      UPLOAD_MAX_BYTES: String(UPLOAD_LIMIT),
      // no provider sessions here: a key set URL nobody calls
      PROVIDER_JWKS_URL: 'http://127.0.0.1:9/.well-known/jwks.json',
      PROVIDER_API_URL: 'http://127.0.0.1:9',
      PROVIDER_WEBHOOK_SECRET: 'whsec_walking_skeleton_0123456789abcdef',
    };
    storage = new S3ObjectStorage(s3.storageConfig(env.S3_BUCKET));
    await new FfmpegMediaTools().runFfmpeg({
      args: ['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=2', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', '-y', join(dir, 'tiny.mp4')],
      timeoutMs: 60000,
    });
    video = readFileSync(join(dir, 'tiny.mp4'));
    writeFileSync(join(dir, 'notes.txt'), 'these are not the frames you are looking for\n');
    await migrateAll(env);
    stack = await startStack({ env, ports: PORTS, perService: { media: { MEDIA_ACK_WAIT_MS: '2000' } } });
    ({ token } = await startGatewaySession(stack.services.gateway.url));
  }, 120000);

  afterAll(async () => {
    await stopStackReporting(stack);
    await deleteNamespaceStreams(env.NATS_NAMESPACE);
    await s3?.close();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const gateway = () => stack.services.gateway.url;

  async function upload(body: Buffer, name: string, type = 'video/mp4', headers: Record<string, string> = {}): Promise<Response> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(body)], { type }), name);
    return fetch(`${gateway()}/api/probe-jobs`, { method: 'POST', body: form, headers: { ...bearer(token), ...headers } });
  }

  async function status(jobId: string): Promise<JobStatus> {
    const res = await fetch(`${gateway()}/api/jobs/${jobId}/status`, { headers: bearer(token) });
    expect(res.status).toBe(200);
    return jobStatusSchema.parse(await res.json());
  }

  const finished = (jobId: string, timeoutMs = 30000) =>
    eventually(async () => {
      const s = await status(jobId);
      return s.status === 'completed' || s.status === 'error' ? s : undefined;
    }, timeoutMs, `job ${jobId} finished`);

  /** Keys of the probe uploads in storage (earlier jobs' are deleted as they end: compare by key). */
  async function uploadedKeys(): Promise<string[]> {
    const { ListObjectsV2Command } = await import('@aws-sdk/client-s3');
    const out = await storage.client.send(new ListObjectsV2Command({ Bucket: env.S3_BUCKET, Prefix: 'uploads/' }));
    return (out.Contents ?? []).map((o) => o.Key!);
  }

  it('probes an uploaded video and reports its streams; the trace id of the caller follows the job into the worker', async () => {
    const correlationId = `test-${uniqueSuffix()}`;
    const traceId = randomBytes(16).toString('hex');
    const traceparent = `00-${traceId}-${randomBytes(8).toString('hex')}-01`;
    const res = await upload(video, 'tiny.mp4', 'video/mp4', { 'X-Correlation-Id': correlationId, traceparent });
    expect(res.status).toBe(202);
    const { jobId } = (await res.json()) as { jobId: string };
    expect(jobId).toMatch(/^probe_[0-9a-f-]{36}$/);
    expect(res.headers.get('location')).toBe(`/api/jobs/${jobId}/status`);

    const done = await finished(jobId);
    expect(done.status).toBe('completed');
    expect(done.progress).toBe(100);
    expect(done.attempts).toBe(1);
    const result = probeResultSchema.parse(done.result);
    expect(result.durationSec).toBeCloseTo(2, 0);
    const v = result.streams.find((s) => s.codecType === 'video');
    expect(v).toMatchObject({ codecName: 'h264', width: 320, height: 240 });
    expect(v?.frameRate).toBeCloseTo(25, 5);
    expect(result.streams.find((s) => s.codecType === 'audio')?.codecName).toBe('aac');

    const gwLine = stack.services.gateway.lines.find((l) => l.msg === 'probe job requested' && l['jobId'] === jobId);
    const workerLine = await eventually(() => stack.services.media.lines.find((l) => l.msg === 'probe completed' && l['jobId'] === jobId));
    const jobsLine = stack.services.jobs.lines.find((l) => l.msg === 'job accepted' && l['jobId'] === jobId);
    expect(gwLine?.trace_id).toBe(traceId);
    expect(workerLine.trace_id).toBe(gwLine?.trace_id);
    expect(jobsLine?.trace_id).toBe(gwLine?.trace_id);
    expect(workerLine.correlationId).toBe(correlationId);
    // the upload lives only as long as its job
    const key = `uploads/probe/${jobId.slice('probe_'.length)}`;
    await eventually(async () => ((await storage.head(key)) === null ? true : undefined), 10000, 'probe upload deleted');

    // the job is its uploader's: another identity is told it does not exist, a caller without one is asked for one
    const stranger = await startGatewaySession(gateway());
    const foreign = await fetch(`${gateway()}/api/jobs/${jobId}/status`, { headers: bearer(stranger.token) });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    expect((await fetch(`${gateway()}/api/jobs/${jobId}/status`)).status).toBe(401);
    const anonymous = new FormData();
    anonymous.append('file', new Blob([new Uint8Array(video)], { type: 'video/mp4' }), 'tiny.mp4');
    const refused = await fetch(`${gateway()}/api/probe-jobs`, { method: 'POST', body: anonymous });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED', message: 'Authentication required' });
  });

  it('shows a job from the moment it is accepted, and loses none while the jobs service is down', async () => {
    const first = await upload(video, 'a.mp4');
    const { jobId: quick } = (await first.json()) as { jobId: string };
    // polled at once: never a 404, whichever service has seen it yet
    expect(['pending', 'processing', 'completed']).toContain((await status(quick)).status);

    await stack.services.jobs.stop();
    const res = await upload(video, 'b.mp4');
    expect(res.status).toBe(202);
    const { jobId } = (await res.json()) as { jobId: string };
    const unavailable = await fetch(`${gateway()}/api/jobs/${jobId}/status`, { headers: bearer(token) });
    expect(unavailable.status).toBe(503);
    expect(await unavailable.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });

    stack.services.jobs.start();
    await stack.services.jobs.waitHealthy();
    const done = await finished(jobId);
    expect(done.status).toBe('completed');
    expect((await finished(quick)).status).toBe('completed');
  });

  it('fails a job whose file is not media, with a clear message', async () => {
    const res = await upload(readFileSync(join(dir, 'notes.txt')), 'notes.mp4', 'video/mp4');
    expect(res.status).toBe(202);
    const { jobId } = (await res.json()) as { jobId: string };
    const done = await finished(jobId);
    expect(done.status).toBe('error');
    expect(done.error).toMatch(/not a playable media file/i);
  });

  it('answers 413 above the upload limit and keeps nothing of the upload', async () => {
    const before = await uploadedKeys();
    const res = await upload(Buffer.alloc(UPLOAD_LIMIT + 1024 * 1024, 7), 'big.mp4');
    expect(res.status).toBe(413);
    const body = (await res.json()) as { code: string; message: string; error: string };
    expect(body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', error: 'Payload Too Large' });
    expect(body.message).toMatch(/larger than the limit/);
    expect((await uploadedKeys()).filter((k) => !before.includes(k))).toEqual([]);
  });

  it('rejects requests without a file, and unknown or malformed job ids, with error bodies', async () => {
    const empty = await fetch(`${gateway()}/api/probe-jobs`, { method: 'POST', body: new FormData(), headers: bearer(token) });
    expect(empty.status).toBe(400);
    const notMultipart = await fetch(`${gateway()}/api/probe-jobs`, { method: 'POST', body: '{}', headers: { ...bearer(token), 'content-type': 'application/json' } });
    expect(notMultipart.status).toBe(415);
    const unknown = await fetch(`${gateway()}/api/jobs/probe_00000000-0000-0000-0000-000000000000/status`, { headers: bearer(token) });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND', error: 'Not Found' });
    const bad = await fetch(`${gateway()}/api/jobs/..%2F..%2Fetc/status`, { headers: bearer(token) });
    expect(bad.status).toBe(400);
  });

  it('redelivers the job of a worker killed mid-job to another worker, and completes it once', async () => {
    // the first worker holds every job for 6 s (fault injection), long past its 2 s ack wait,
    // heartbeating all along; it is SIGKILLed while it holds this one
    await stack.services.media.stop();
    const slow = new ServiceProcess('media', PORTS.media, { ...process.env, ...env, MEDIA_ACK_WAIT_MS: '2000', MEDIA_FAULT_DELAY_MS: '6000' }).start();
    await slow.waitHealthy();
    const res = await upload(video, 'again.mp4');
    const { jobId } = (await res.json()) as { jobId: string };
    await eventually(async () => ((await status(jobId)).status === 'processing' ? true : undefined), 20000, 'job processing');
    await eventually(() => slow.lines.find((l) => l.msg === 'probe started' && l['jobId'] === jobId));
    expect(await slow.kill('SIGKILL')).toBeNull();

    const fresh = new ServiceProcess('media', PORTS.media, { ...process.env, ...env, MEDIA_ACK_WAIT_MS: '2000' }).start();
    stack.services.media = fresh;
    await fresh.waitHealthy();
    const done = await finished(jobId, 40000);
    expect(done.status).toBe('completed');
    expect(done.attempts).toBe(2);
    expect(fresh.lines.some((l) => l.msg === 'probe completed' && l['jobId'] === jobId)).toBe(true);

    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      const t = await pg.query(`SELECT to_status FROM jobs.job_transitions WHERE job_id = $1 ORDER BY id`, [jobId]);
      expect(t.rows.map((r: { to_status: string }) => r.to_status)).toEqual(['pending', 'processing', 'completed']);
      const events = await eventually(async () => {
        const r = await pg.query(`SELECT subject FROM analytics.job_events WHERE job_id = $1 AND subject = 'jobs.events.completed'`, [jobId]);
        return r.rowCount ? r : undefined;
      });
      expect(events.rowCount).toBe(1);
    } finally {
      await pg.end();
    }
  });

  it('serves /healthz and /metrics on every service, and says which dependency is down', async () => {
    for (const name of SERVICES) {
      const svc = stack.services[name];
      const h = await fetch(`${svc.url}/healthz`);
      expect(h.status).toBe(200);
      const report = (await h.json()) as { status: string; service: string; checks: Record<string, { status: string }> };
      expect(report).toMatchObject({ status: 'ok', service: name });
      expect(Object.values(report.checks).every((c) => c.status === 'ok')).toBe(true);
      const m = await fetch(`${svc.url}/metrics`);
      expect(m.status).toBe(200);
      const text = await m.text();
      expect(text).toContain('process_cpu_user_seconds_total');
      expect(text).toContain(`service="${name}"`);
    }
    const gw = await (await fetch(`${gateway()}/metrics`)).text();
    expect(gw).toMatch(/wordcut_http_request_duration_seconds_count\{[^}]*route="\/api\/probe-jobs"[^}]*status="202"/);
    const media = await (await fetch(`${stack.services.media.url}/metrics`)).text();
    expect(media).toMatch(/wordcut_messages_handled_total\{[^}]*consumer="media-probe"[^}]*outcome="ack"/);

    await s3.close();
    const down = await fetch(`${gateway()}/healthz`);
    expect(down.status).toBe(503);
    const report = (await down.json()) as { checks: Record<string, { status: string; error?: string }> };
    expect(report.checks['s3']?.status).toBe('error');
    expect(report.checks['nats']?.status).toBe('ok');
  });

  it('refuses to boot with a bad configuration and names every problem', async () => {
    const bad = new ServiceProcess('gateway', 13999, { PATH: process.env['PATH'], S3_BUCKET: 'Bad_Bucket', S3_ACCESS_KEY_ID: 'x' }).start();
    const code = await new Promise<number | null>((r) => bad.child!.once('exit', r));
    expect(code).toBe(1);
    const text = bad.stderr.join('\n');
    expect(text).toContain('gateway: invalid configuration');
    expect(text).toMatch(/NATS_URL/);
    expect(text).toMatch(/S3_SECRET_ACCESS_KEY/);
    expect(text).toMatch(/S3_BUCKET: must be a valid bucket name/);
    expect(text).toMatch(/GATEWAY_SESSION_SECRET/);
  });
});
