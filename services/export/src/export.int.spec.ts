/**
 * The export service in-process (its real boot path: config, migrations check, S3, NATS, HTTP with
 * the raw body) against a real Postgres, NATS JetStream, s3rver and the provider sandbox (resumable
 * uploads, faults, signed webhooks to this service). The gateway's `rpc.library.export-sources`
 * and the jobs service's `rpc.jobs.get` are stood in for by small NATS responders here: they name
 * objects this test put into S3 (the gateway's real handler is tested with the gateway).
 */
import {
  ExportStream,
  ExportSubjects,
  exportItemUploadedEventSchema,
  exportRequestSchema,
  quotaUsageSchema,
  rpcExportCreateReplySchema,
  StorageKeys,
  rpcExportRetryReplySchema,
  rpcExportSourcesRequestSchema,
  rpcExportStatusReplySchema,
  rpcJobGetRequestSchema,
  Streams,
  Subjects,
  type ExportCaller,
  type ExportItemUploadedEvent,
  type ExportJobStatus,
  type ExportRequestInput,
  type JobStatus,
  type Plan,
  type ProviderWebhookEvent,
  type RpcExportCreate,
  type RpcExportCreateReply,
  type RpcExportSourcesReply,
  type RpcExportSourcesRequest,
  webhookRetryResultSchema,
} from '@wordcut/contracts';
import { Messaging, type InboundMessage } from '@wordcut/messaging';
import { createLogger, migrate, type RunningService } from '@wordcut/platform';
import { HttpProviderClient, signWebhook } from '@wordcut/provider';
import { quotaWindows } from '@wordcut/publishing';
import { S3ObjectStorage, startLocalS3, type LocalS3 } from '@wordcut/storage';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource, EntityManager } from 'typeorm';
import { startProviderSandbox, type ProviderSandbox } from '../../../tools/provider-sandbox/sandbox';
import { createTestDatabase, eventually, NATS_URL, uniqueSuffix } from '../../../tools/testing/env';
import { startExport } from './app';
import { exportConfigSchema, SCHEMA } from './config';
import { exportDataSource } from './data-source';
import { planItems } from './export-plan';
import { ExportStore } from './export-store';
import type { ExportRunMessage } from './run-message';
import { ExportWorker } from './export.worker';
import { RenderWaits } from './render-waits';
import { STALE_WEBHOOK_SKIPPED } from './operator-calls';

const logger = createLogger('export-test', 'silent');
const SECRET = 'whsec_export_integration_test_secret_0123456789';
const UPGRADE_URL = 'https://wordcut.example/upgrade';
const BUCKET = 'export-int-test';
const CHUNK = 256 * 1024;
const PRO: Plan = { tier: 'pro', quotas: { exportsPerDay: 50, exportsPerMonth: 500 } };
const sha256Hex = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface Fixture {
  sessionId: string;
  providerVideoId: string;
  userId: string;
  videoId: string;
  clipId: string;
  caller: ExportCaller;
  bytes: { main: Buffer; vtt: Buffer; words: Buffer; clip: Buffer };
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

describe('export service (real Postgres, NATS, s3rver and provider sandbox)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let ds: DataSource;
  let s3dir: string;
  let mediaDir: string;
  let s3: LocalS3;
  let storage: S3ObjectStorage;
  let sandbox: ProviderSandbox;
  let svc: RunningService;
  let bus: Messaging;
  let ns: string;
  const sources = new Map<string, (req: RpcExportSourcesRequest) => RpcExportSourcesReply | Promise<RpcExportSourcesReply>>();
  const sourceRequests: RpcExportSourcesRequest[] = [];
  const renderJobs = new Map<string, JobStatus['status'][]>();
  const itemEvents: ExportItemUploadedEvent[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = exportDataSource(db.url);
    await ds.initialize();
    await migrate(ds, SCHEMA);
    s3dir = await mkdtemp(join(tmpdir(), 'wordcut-export-s3-'));
    mediaDir = await mkdtemp(join(tmpdir(), 'wordcut-export-media-'));
    s3 = await startLocalS3({ port: 0, directory: s3dir });
    storage = new S3ObjectStorage(s3.storageConfig(BUCKET));
    await storage.ensureBucket();

    const port = await freePort();
    sandbox = await startProviderSandbox({
      port: 0,
      mediaDir,
      editorUrl: 'http://localhost:4200',
      webhookUrl: `http://127.0.0.1:${port}/webhooks/provider`,
      webhookSecret: SECRET,
      webhookRetryDelaysMs: [100, 200],
      webhookReadyDelayMs: 20,
    });

    ns = `t${uniqueSuffix()}`;
    bus = await Messaging.connect({ servers: NATS_URL, namespace: ns, name: 'export-test-gateway', logger });
    // the gateway's part: what to upload for a video (or a mute render first)
    bus.serve(ExportSubjects.rpcSources, rpcExportSourcesRequestSchema, async (req) => {
      sourceRequests.push(req);
      return (await sources.get(req.videoId)?.(req)) ?? ({ state: 'refused', message: 'This video is not in the library.' } satisfies RpcExportSourcesReply);
    });
    // the jobs service's part: a mute render moving through its states
    bus.serve(Subjects.rpcJobGet, rpcJobGetRequestSchema, async ({ jobId }) => {
      const states = renderJobs.get(jobId);
      if (!states) return null;
      const status = states.length > 1 ? states.shift()! : states[0]!;
      const now = new Date().toISOString();
      return {
        id: jobId,
        kind: 'mute',
        status,
        progress: status === 'completed' ? 100 : 40,
        message: status,
        estimatedTimeRemaining: null,
        error: status === 'error' ? 'ffmpeg exited with code 1' : null,
        result: null,
        attempts: 1,
        createdAt: now,
        updatedAt: now,
        completedAt: status === 'completed' ? now : null,
      } satisfies JobStatus;
    });
    bus.subscribe(ExportSubjects.itemUploaded, exportItemUploadedEventSchema, (_s, e) => itemEvents.push(e));

    const config = exportConfigSchema.parse({
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      NATS_URL,
      NATS_NAMESPACE: ns,
      DATABASE_URL: db.url,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_BUCKET: BUCKET,
      PROVIDER_API_URL: sandbox.url,
      PROVIDER_WEBHOOK_SECRET: SECRET,
      EXPORT_UPGRADE_URL: UPGRADE_URL,
      EXPORT_CONCURRENCY: '2',
      PROVIDER_CHUNK_BYTES: String(CHUNK),
    });
    svc = await startExport({
      config,
      installSignalHandlers: false,
      tuning: {
        service: { sweepIntervalMs: 300 },
        worker: { retryBaseMs: 200 },
        webhooks: { retryBaseMs: 200 },
        provider: { retry: { tries: 4, baseMs: 20, maxMs: 200 }, requestTimeoutMs: 5000 },
      },
    });
  }, 60_000);

  afterAll(async () => {
    await svc?.stop();
    await sandbox?.close();
    if (bus) {
      for (const s of [ExportStream.name, Streams.jobs.name, Streams.deadLetter.name]) await bus.jsm.streams.delete(bus.streamName(s)).catch(() => undefined);
      await bus.close();
    }
    storage?.destroy();
    await s3?.close();
    await ds?.destroy();
    await db?.drop();
    for (const d of [s3dir, mediaDir]) if (d) await rm(d, { recursive: true, force: true });
  });

  /** A video with objects in S3 (a 3-chunk main video, captions, words, one clip) and a caller whose token the sandbox signed. */
  async function fixture(o: { plan?: Plan; userId?: string; withSources?: boolean } = {}): Promise<Fixture> {
    const sessionId = `sess-${uniqueSuffix()}`;
    const providerVideoId = `pv-${uniqueSuffix()}`;
    const userId = o.userId ?? `user-${uniqueSuffix()}`;
    const videoId = randomUUID();
    const clipId = randomUUID();
    const bytes = {
      main: randomBytes(CHUNK * 2 + 1234),
      vtt: Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\nhello world\n'),
      words: Buffer.from(JSON.stringify({ words: [{ text: 'hello', start: 0, end: 0.5 }] })),
      clip: randomBytes(CHUNK + 99),
    };
    const keys = {
      main: `videos/${videoId}/renders/r1.mp4`,
      vtt: `videos/${videoId}/renders/r1.vtt`,
      words: `videos/${videoId}/renders/r1.words.json`,
      clip: `videos/${videoId}/clips/${clipId}/c1.mp4`,
    };
    await storage.upload(keys.main, bytes.main, { contentType: 'video/mp4' });
    await storage.upload(keys.vtt, bytes.vtt, { contentType: 'text/vtt' });
    await storage.upload(keys.words, bytes.words, { contentType: 'application/json' });
    await storage.upload(keys.clip, bytes.clip, { contentType: 'video/mp4' });
    if (o.withSources !== false) {
      sources.set(videoId, () => ({
        state: 'ready',
        mainVideo: { key: keys.main, contentType: 'video/mp4', name: 'Talk' },
        vtt: { key: keys.vtt, contentType: 'text/vtt', name: 'Talk.vtt' },
        wordByword: { key: keys.words, contentType: 'application/json', name: 'Talk.words.json' },
        clips: [{ key: keys.clip, contentType: 'video/mp4', name: 'Best bit', clipId }],
      }));
    }
    const plan = o.plan ?? PRO;
    const token = await sandbox.signToken({ sub: userId, sessionId, videoId: providerVideoId, plan });
    const caller: ExportCaller = { userId, plan, sessionId, providerVideoId, token, uploadUrls: { video: `${sandbox.url}/uploads/${sessionId}/video` } };
    return { sessionId, providerVideoId, userId, videoId, clipId, caller, bytes };
  }

  const requestOf = (f: Fixture, over: Partial<ExportRequestInput> = {}): ExportRequestInput => ({
    videoId: f.videoId,
    sessionId: f.sessionId,
    saveMainVideo: true,
    saveVtt: true,
    clips: [{ clipId: f.clipId, clipIndex: 0, aspectRatio: '9:16', duration: 8 }],
    idempotencyKey: `key-${uniqueSuffix()}`,
    token: f.caller.token,
    ...over,
  });

  const create = (f: Fixture, request: ExportRequestInput, caller: ExportCaller = f.caller): Promise<RpcExportCreateReply> =>
    bus.request(ExportSubjects.rpcCreate, { caller, request, names: { mainVideo: 'Talk', clips: { [f.clipId]: 'Best bit' } } } satisfies Omit<RpcExportCreate, 'request'> & { request: ExportRequestInput }, rpcExportCreateReplySchema, 10_000);
  const status = (jobId: string, caller: ExportCaller) => bus.request(ExportSubjects.rpcStatus, { jobId, caller }, rpcExportStatusReplySchema);
  const retry = (jobId: string, caller: ExportCaller) => bus.request(ExportSubjects.rpcRetry, { jobId, caller }, rpcExportRetryReplySchema, 10_000);

  function created(r: RpcExportCreateReply) {
    if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.refusal)}`);
    return r;
  }

  async function finished(jobId: string, caller: ExportCaller, timeoutMs = 20_000): Promise<ExportJobStatus> {
    return eventually(
      async () => {
        const r = await status(jobId, caller);
        return r.ok && (r.status.status === 'completed' || r.status.status === 'failed') ? r.status : undefined;
      },
      timeoutMs,
      `export ${jobId} finished`,
    );
  }

  /** Resumable uploads started at the provider for one session and kind (each is one upload). */
  const uploadsStarted = (sessionId: string, kind: string) =>
    sandbox.requests().filter((r) => r.method === 'POST' && r.path === `/uploads/${sessionId}/${kind}` && r.query.includes('uploadType=resumable') && r.status === 200);

  const exportCaptionKeys = (videoId: string, jobId: string) => [StorageKeys.exportVtt(videoId, jobId), StorageKeys.exportWordByWord(videoId, jobId)];

  /** The gateway's captions: written for each export at the export's own keys when it asks for its sources. */
  function captionsPerExport(f: Fixture): (req: RpcExportSourcesRequest) => Promise<RpcExportSourcesReply> {
    const ready = sources.get(f.videoId)!;
    return async (req) => {
      const reply = await ready(req);
      if (reply.state !== 'ready' || !reply.vtt || !reply.wordByword) return reply;
      const [vttKey, wordsKey] = exportCaptionKeys(f.videoId, req.exportJobId) as [string, string];
      await storage.upload(vttKey, f.bytes.vtt, { contentType: 'text/vtt' });
      await storage.upload(wordsKey, f.bytes.words, { contentType: 'application/json' });
      return { ...reply, vtt: { ...reply.vtt, key: vttKey }, wordByword: { ...reply.wordByword, key: wordsKey } };
    };
  }

  /** A job written straight into the store: no run message is published, so the service's own worker never runs it. */
  async function insertUnpublishedJob(f: Fixture, over: Partial<ExportRequestInput>, tweak?: (tx: EntityManager, jobId: string) => Promise<unknown>): Promise<string> {
    const store = new ExportStore(ds);
    const request = exportRequestSchema.parse(requestOf(f, { ...over, token: undefined }));
    const names = { mainVideo: 'Talk', clips: { [f.clipId]: 'Best bit' } };
    const jobId = `export_${randomUUID()}`;
    await ds.transaction(async (tx) => {
      await store.insertJob(
        tx,
        { id: jobId, userId: f.userId, videoId: f.videoId, sessionId: f.sessionId, providerVideoId: f.providerVideoId, request, caller: f.caller, names, retryOf: null, countsTowardQuota: true },
        planItems(request, names),
      );
      await tweak?.(tx, jobId);
    });
    return jobId;
  }

  it('exports every item with progress to 100 and announces each item; the same key twice, and twice at once, makes one job and one upload', async () => {
    const f = await fixture();
    const request = requestOf(f);
    const first = created(await create(f, request));
    expect(first).toMatchObject({ replayed: false, created: { status: 'queued', itemCount: 3, quota: { exportsToday: 1, exportsThisMonth: 1, maxPerDay: 50, maxPerMonth: 500 } } });
    expect(first.created.jobId).toMatch(/^export_[0-9a-f-]{36}$/);
    // a token refreshed meanwhile does not make it another request
    const again = created(await create(f, { ...request, token: 'refreshed.token.value' }));
    expect(again).toEqual({ ...first, replayed: true });

    const done = await finished(first.created.jobId, f.caller);
    expect(done).toMatchObject({ status: 'completed', progress: 100, currentStep: 'Export complete', error: null, retryOf: null, videoId: f.videoId });
    expect(done.items.map((i) => [i.type, i.id, i.name, i.status, i.bytes])).toEqual([
      ['main_video', 'main_video', 'Talk', 'uploaded', f.bytes.main.length],
      ['vtt', 'vtt', 'Talk (subtitles)', 'uploaded', f.bytes.vtt.length],
      ['word_by_word', 'word_by_word', 'Talk (word-by-word timing)', 'uploaded', f.bytes.words.length],
      ['clip', f.clipId, 'Best bit', 'uploaded', f.bytes.clip.length],
    ]);
    expect(uploadsStarted(f.sessionId, 'video')).toHaveLength(1);
    expect(uploadsStarted(f.sessionId, 'clip')).toHaveLength(1);
    // the provider holds exactly our bytes; the clip was filed under its name
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(sandbox.uploads.get(`${f.sessionId}/video`)).toMatchObject({ bytes: f.bytes.main.length, sha256: sha(f.bytes.main) });
    expect(sandbox.uploads.get(`${f.sessionId}/wordByword`)).toMatchObject({ sha256: sha(f.bytes.words) });
    const video = sandbox.library().find((v) => v.videoId === f.providerVideoId)!;
    expect(video.clips.map((c) => c.title)).toEqual(['Best bit']);
    // the main video went in three chunks
    expect(sandbox.requests().filter((r) => r.method === 'PUT' && r.path.startsWith('/uploads/resumable/') && r.contentRange?.endsWith(`/${f.bytes.main.length}`))).toHaveLength(3);
    await eventually(() => (itemEvents.filter((e) => e.exportJobId === first.created.jobId).length === 4 ? true : undefined), 5000, 'item events');
    expect(itemEvents.filter((e) => e.exportJobId === first.created.jobId)).toEqual(
      expect.arrayContaining([
        { exportJobId: first.created.jobId, videoId: f.videoId, type: 'main_video', clipId: null, status: 'uploaded', providerVideoId: f.providerVideoId },
        expect.objectContaining({ type: 'clip', clipId: f.clipId, status: 'uploaded' }),
      ]),
    );
    // the caller's token is not kept once the job is over
    const [row] = (await ds.query(`SELECT caller->>'token' AS token, request ? 'token' AS has_token FROM export.export_jobs WHERE id = $1`, [first.created.jobId])) as Array<{ token: string; has_token: boolean }>;
    expect(row).toEqual({ token: '', has_token: false });

    // two concurrent requests with one new key: one job, both answers name it
    const f2 = await fixture({ userId: f.userId });
    const r2 = requestOf(f2);
    const [a, b] = await Promise.all([create(f2, r2), create(f2, r2)]);
    expect(created(a).created).toEqual(created(b).created);
    expect([created(a).replayed, created(b).replayed].sort()).toEqual([false, true]);
    await finished(created(a).created.jobId, f2.caller);
    expect(uploadsStarted(f2.sessionId, 'video')).toHaveLength(1);
    const jobs = (await ds.query(`SELECT count(*)::int AS n FROM export.export_jobs WHERE video_id = $1`, [f2.videoId])) as Array<{ n: number }>;
    expect(jobs[0]!.n).toBe(1);
  });

  it('refuses a key reused with another request (422), an invalid request (400), another session (409), and another user\'s job (404)', async () => {
    const f = await fixture();
    const request = requestOf(f, { saveMainVideo: false, saveVtt: true, clips: [] });
    const firstJob = created(await create(f, request)).created.jobId;
    expect(await create(f, { ...request, saveMainVideo: true })).toEqual({
      ok: false,
      refusal: { status: 422, error: 'idempotency_key_reused', message: 'This idempotency key was already used with a different request.' },
    });
    const invalid = await create(f, { ...request, idempotencyKey: `key-${uniqueSuffix()}`, saveVtt: false });
    expect(invalid).toMatchObject({ ok: false, refusal: { status: 400, error: 'invalid_request' } });
    if (!invalid.ok) expect(invalid.refusal.message).toContain('Please select at least one item to export');

    const elsewhere = await create(f, { ...request, idempotencyKey: `key-${uniqueSuffix()}`, sessionId: 'another-session' });
    expect(elsewhere).toEqual({ ok: false, refusal: { status: 409, error: 'session_mismatch', message: 'Export delayed - Video data is updating, please try again in a moment' } });

    // one export of a video at a time (see 'refuses a second export of a video while one runs')
    await finished(firstJob, f.caller);

    const other = await fixture();
    const mine = created(await create(f, requestOf(f, { clips: [], saveMainVideo: false }))).created.jobId;
    expect(await status(mine, other.caller)).toEqual({ ok: false, refusal: { status: 404, error: 'not_found', message: 'Export job not found.' } });
    expect(await retry(mine, other.caller)).toMatchObject({ ok: false, refusal: { status: 404, error: 'not_found' } });
    await finished(mine, f.caller);
    expect(await retry(mine, f.caller)).toEqual({ ok: false, refusal: { status: 409, error: 'not_retryable', message: 'Only a failed export can be retried.' } });
  });

  it('refuses a second export of a video while one runs (409 export_in_progress naming it), and a retry into it', async () => {
    const f = await fixture();
    // a failed export of the video, to retry later
    sandbox.addFault({ match: { method: 'POST', path: `^/uploads/${f.sessionId}/vtt$` }, action: { kind: 'status', status: 400 }, times: 1 });
    const failed = created(await create(f, requestOf(f, { saveMainVideo: false, clips: [] }))).created.jobId;
    expect((await finished(failed, f.caller)).status).toBe('failed');
    // the provider holds the next upload creation for 3 s: that export is still running meanwhile
    sandbox.addFault({ match: { method: 'POST', path: `^/uploads/${f.sessionId}/vtt$` }, action: { kind: 'timeout', ms: 3000 }, times: 1 });
    const running = created(await create(f, requestOf(f, { saveMainVideo: false, clips: [] }))).created.jobId;
    const inProgress = {
      ok: false,
      refusal: { status: 409, error: 'export_in_progress', jobId: running, message: 'This video is already being published. Its export is shown; publish again when it has finished.' },
    };
    expect(await create(f, requestOf(f, { saveMainVideo: true, clips: [] }))).toEqual(inProgress);
    expect(await retry(failed, f.caller)).toEqual(inProgress);
    const jobs = (await ds.query(`SELECT count(*)::int AS n FROM export.export_jobs WHERE video_id = $1`, [f.videoId])) as Array<{ n: number }>;
    expect(jobs[0]!.n).toBe(2);
    expect((await finished(running, f.caller)).status).toBe('completed');
    // once it has finished, the video can be exported (and the failed one retried) again
    const retried = await retry(failed, f.caller);
    expect(retried).toMatchObject({ ok: true, replayed: false });
    expect((await finished(created(retried).created.jobId, f.caller)).status).toBe('completed');
  });

  it('refuses the third export of a day (429, retryAfter, upgradeUrl) and an export over the month, and reports the quota', async () => {
    const daily: Plan = { tier: 'free', quotas: { exportsPerDay: 2, exportsPerMonth: 5 } };
    const f = await fixture({ plan: daily, withSources: false });
    const vttOnly = () => requestOf(f, { saveMainVideo: false, clips: [] });
    // one export of a video at a time: the first (failing: no sources) has finished before the second
    await finished(created(await create(f, vttOnly())).created.jobId, f.caller);
    const second = created(await create(f, vttOnly()));
    expect(second.created.quota).toMatchObject({ exportsToday: 2, maxPerDay: 2, exportsThisMonth: 2, maxPerMonth: 5 });
    const third = await create(f, vttOnly());
    const w = quotaWindows(new Date());
    expect(third).toMatchObject({
      ok: false,
      refusal: { status: 429, error: 'quota_exceeded', message: 'Export quota exceeded. Please upgrade your plan or wait until the quota resets.', upgradeUrl: UPGRADE_URL },
    });
    if (third.ok) throw new Error('unreachable');
    expect(third.refusal.details).toMatch(/daily limit of 2 exports/i);
    const untilMidnight = Math.ceil((w.nextDailyReset.getTime() - Date.now()) / 1000);
    expect(third.refusal.retryAfter).toBeGreaterThan(0);
    expect(Math.abs(third.refusal.retryAfter! - untilMidnight)).toBeLessThanOrEqual(5);
    expect(await bus.request(ExportSubjects.rpcQuota, { userId: f.userId, plan: daily }, quotaUsageSchema)).toMatchObject({
      exportsToday: 2,
      exportsThisMonth: 2,
      nextDailyReset: w.nextDailyReset.toISOString(),
      nextMonthlyReset: w.nextMonthlyReset.toISOString(),
    });

    // the month: three exports earlier this month (at its first instant) against a limit of 3
    const monthly: Plan = { tier: 'free', quotas: { exportsPerDay: 10, exportsPerMonth: 3 } };
    const g = await fixture({ plan: monthly, withSources: false });
    for (let i = 0; i < 3; i++) {
      await ds.query(
        `INSERT INTO export.export_jobs (id, user_id, video_id, session_id, status, request, caller, names, created_at)
         VALUES ($1, $2, $3, $4, 'completed', '{}', '{}', '{}', $5)`,
        [`export_${randomUUID()}`, g.userId, g.videoId, g.sessionId, w.monthStart],
      );
    }
    const over = await create(g, requestOf(g, { saveMainVideo: false, clips: [] }));
    expect(over).toMatchObject({ ok: false, refusal: { status: 429, error: 'quota_exceeded', upgradeUrl: UPGRADE_URL } });
    if (over.ok) throw new Error('unreachable');
    expect(over.refusal.details).toMatch(/monthly limit of 3 exports/i);
    expect(Math.abs(over.refusal.retryAfter! - Math.ceil((w.nextMonthlyReset.getTime() - Date.now()) / 1000))).toBeLessThanOrEqual(5);
  });

  it('completes through two 503s of the provider (retried, resumed)', async () => {
    const f = await fixture();
    sandbox.addFault({ match: { method: 'POST', path: `^/uploads/${f.sessionId}/video$` }, action: { kind: 'status', status: 503 }, times: 2 });
    const r = created(await create(f, requestOf(f, { saveVtt: false, clips: [] })));
    const done = await finished(r.created.jobId, f.caller);
    expect(done).toMatchObject({ status: 'completed', progress: 100, items: [expect.objectContaining({ type: 'main_video', status: 'uploaded', bytes: f.bytes.main.length })] });
    const initiations = sandbox.requests().filter((q) => q.method === 'POST' && q.path === `/uploads/${f.sessionId}/video`);
    expect(initiations.map((q) => q.status)).toEqual([503, 503, 200]);
    expect(sandbox.uploads.get(`${f.sessionId}/video`)?.bytes).toBe(f.bytes.main.length);
  });

  /** The moment the job is recorded as waiting for a render. */
  const waiting = (jobId: string) =>
    eventually(async () => {
      const [row] = (await ds.query(`SELECT render_job_id, waiting_since FROM export.export_jobs WHERE id = $1`, [jobId])) as Array<{ render_job_id: string | null; waiting_since: Date | null }>;
      return row?.waiting_since ? row.render_job_id : undefined;
    }, 10_000, `export ${jobId} waiting for its render`);
  const renderEnded = (subject: string, event: Record<string, unknown>) => bus.publish(subject, { worker: 'media-1', at: new Date().toISOString(), ...event });
  /**
   * A video whose sources answer "rendering" first (a mute render the gateway started, in `state`
   * as the jobs service reports it), then as usual; `asked()` counts the sources requests.
   */
  async function renderingFirst(state: JobStatus['status']) {
    const f = await fixture();
    const ready = sources.get(f.videoId)!;
    const renderJobId = `mute_${randomUUID()}`;
    renderJobs.set(renderJobId, [state]);
    let asked = 0;
    sources.set(f.videoId, (req) => (asked++ === 0 ? { state: 'rendering', renderJobId } : ready(req)));
    return { f, renderJobId, asked: () => asked };
  }
  /** An export (main video only) waiting for the mute render its sources name, which is processing. */
  async function waitingForRender() {
    const f = await fixture();
    const renderJobId = `mute_${randomUUID()}`;
    renderJobs.set(renderJobId, ['processing']);
    sources.set(f.videoId, () => ({ state: 'rendering', renderJobId }));
    const r = created(await create(f, requestOf(f, { saveVtt: false, clips: [] })));
    await waiting(r.created.jobId);
    return { f, renderJobId, jobId: r.created.jobId };
  }

  it('waits for the mute render the gateway names, without polling, and goes on when the render job completes', async () => {
    const { f, renderJobId, asked } = await renderingFirst('processing');
    const r = created(await create(f, requestOf(f, { saveVtt: false, clips: [], mainVideoEdits: { muteSegments: [{ start: 1, end: 2 }, { start: 3, end: 4 }] } })));
    expect(await waiting(r.created.jobId)).toBe(renderJobId);
    const during = await status(r.created.jobId, f.caller);
    expect(during.ok && during.status).toMatchObject({ status: 'processing', currentStep: 'Applying 2 mute segment(s)...' });
    const req = sourceRequests.filter((q) => q.exportJobId === r.created.jobId);
    expect(req[0]).toEqual({ exportJobId: r.created.jobId, videoId: f.videoId, userId: f.userId, muteSegments: [{ start: 1, end: 2 }, { start: 3, end: 4 }], mainVideo: true, vtt: false, clipIds: [] });
    // nothing moves while the render runs: the job is asked about once, not every second
    await new Promise((done) => setTimeout(done, 1500));
    expect(asked()).toBe(1);
    await renderEnded(Subjects.jobCompleted, { jobId: renderJobId, result: {} });
    const done = await finished(r.created.jobId, f.caller);
    expect(done.status).toBe('completed');
    expect(asked()).toBe(2);
  });

  it('a render named at create is waited for before the first run; a failed or cancelled render fails the export with its reason', async () => {
    const f = await fixture();
    const renderJobId = `mute_${randomUUID()}`;
    renderJobs.set(renderJobId, ['processing']);
    const requests = () => sourceRequests.filter((q) => q.videoId === f.videoId).length;
    const reply = created(
      await bus.request(
        ExportSubjects.rpcCreate,
        { caller: f.caller, request: requestOf(f, { saveVtt: false, clips: [], mainVideoEdits: { muteSegments: [{ start: 1, end: 2 }] } }), names: { mainVideo: 'Talk', clips: {} }, renderJobId },
        rpcExportCreateReplySchema,
        10_000,
      ),
    );
    expect(await waiting(reply.created.jobId)).toBe(renderJobId);
    expect(requests()).toBe(0);
    await renderEnded(Subjects.jobCompleted, { jobId: renderJobId, result: {} });
    expect((await finished(reply.created.jobId, f.caller)).status).toBe('completed');
    expect(requests()).toBe(1);

    const bad = await waitingForRender();
    await renderEnded(Subjects.jobFailed, { jobId: bad.renderJobId, error: 'ffmpeg exited with code 1', code: 'render_failed' });
    const failed = await finished(bad.jobId, bad.f.caller);
    expect(failed).toMatchObject({ status: 'failed', error: { error: 'export_failed', message: 'Export failed. Please try again.' } });
    expect(failed.error!.details).toContain('ffmpeg exited with code 1');
    expect(failed.items.map((i) => [i.type, i.status])).toEqual([['main_video', 'failed']]);

    const stopped = await waitingForRender();
    await renderEnded(Subjects.jobCancelled, { jobId: stopped.renderJobId, by: stopped.f.userId });
    expect((await finished(stopped.jobId, stopped.f.caller)).error!.details).toContain(`render job ${stopped.renderJobId}`);
  });

  it('a render that ended before the wait was recorded is found by looking it up once', async () => {
    const { f, asked } = await renderingFirst('completed');
    const r = created(await create(f, requestOf(f, { saveVtt: false, clips: [], mainVideoEdits: { muteSegments: [{ start: 1, end: 2 }] } })));
    expect((await finished(r.created.jobId, f.caller)).status).toBe('completed');
    expect(asked()).toBe(2);
  });

  it('fails on a provider refusal, and a retry is a new job that skips what was uploaded and does not count toward the quota', async () => {
    const f = await fixture();
    sandbox.addFault({ match: { method: 'POST', path: `^/uploads/${f.sessionId}/clip$` }, action: { kind: 'status', status: 400, body: 'clip rejected' }, times: 1 });
    const first = created(await create(f, requestOf(f)));
    const failed = await finished(first.created.jobId, f.caller);
    expect(failed).toMatchObject({ status: 'failed', error: { error: 'export_failed', message: 'Export failed. Please try again.' } });
    expect(failed.error!.details).toMatch(/400/);
    expect(failed.items.map((i) => [i.type, i.status])).toEqual([
      ['main_video', 'uploaded'],
      ['vtt', 'uploaded'],
      ['word_by_word', 'uploaded'],
      ['clip', 'failed'],
    ]);
    await eventually(() => (itemEvents.some((e) => e.exportJobId === first.created.jobId && e.status === 'failed' && e.clipId === f.clipId) ? true : undefined), 5000, 'failed item event');

    const fresh: ExportCaller = { ...f.caller, token: await sandbox.signToken({ sub: f.userId, sessionId: f.sessionId, videoId: f.providerVideoId, plan: PRO }) };
    // the same user in another session (the video was cloned since): the retry must not publish to the clone
    const cloneSession = `clone-${uniqueSuffix()}`;
    const clone: ExportCaller = { ...fresh, sessionId: cloneSession, providerVideoId: `pv-${cloneSession}`, token: await sandbox.signToken({ sub: f.userId, sessionId: cloneSession, videoId: `pv-${cloneSession}`, plan: PRO }) };
    expect(await retry(first.created.jobId, clone)).toEqual({
      ok: false,
      refusal: { status: 409, error: 'session_mismatch', message: 'Export delayed - Video data is updating, please try again in a moment' },
    });
    expect(await ds.query(`SELECT id FROM export.export_jobs WHERE retry_of = $1`, [first.created.jobId])).toEqual([]);
    const again = created(await retry(first.created.jobId, fresh));
    expect(again.replayed).toBe(false);
    expect(again.created.jobId).not.toBe(first.created.jobId);
    expect(again.created.quota.exportsToday).toBe(1);
    // a second click on the same failed job answers with the same retry
    expect(created(await retry(first.created.jobId, fresh)).created.jobId).toBe(again.created.jobId);
    const done = await finished(again.created.jobId, fresh);
    expect(done).toMatchObject({ status: 'completed', retryOf: first.created.jobId });
    expect(done.items.every((i) => i.status === 'uploaded')).toBe(true);
    expect(uploadsStarted(f.sessionId, 'video')).toHaveLength(1);
    expect(uploadsStarted(f.sessionId, 'clip')).toHaveLength(1);
    expect(sourceRequests.filter((q) => q.exportJobId === again.created.jobId)).toEqual([expect.objectContaining({ mainVideo: false, vtt: false, clipIds: [f.clipId] })]);
    expect(await bus.request(ExportSubjects.rpcQuota, { userId: f.userId, plan: PRO }, quotaUsageSchema)).toMatchObject({ exportsToday: 1 });
  });

  it('a failed job fails the items it never reached and announces them; its caption objects are deleted', async () => {
    const f = await fixture();
    sources.set(f.videoId, captionsPerExport(f));
    sandbox.addFault({ match: { method: 'POST', path: `^/uploads/${f.sessionId}/video$` }, action: { kind: 'status', status: 400, body: 'video rejected' } });
    const jobId = created(await create(f, requestOf(f))).created.jobId;
    const failed = await finished(jobId, f.caller);
    expect(failed).toMatchObject({ status: 'failed', error: { error: 'export_failed' } });
    expect(failed.items.map((i) => [i.type, i.status, i.error])).toEqual([
      ['main_video', 'failed', expect.stringMatching(/400 \(video rejected\)/)],
      ['vtt', 'failed', 'The export failed before this item was uploaded.'],
      ['word_by_word', 'failed', 'The export failed before this item was uploaded.'],
      ['clip', 'failed', 'The export failed before this item was uploaded.'],
    ]);
    const events = await eventually(() => {
      const mine = itemEvents.filter((e) => e.exportJobId === jobId);
      return new Set(mine.map((e) => e.type)).size === 4 ? mine : undefined;
    }, 5000, 'every item announced failed');
    expect(events.every((e) => e.status === 'failed' && e.videoId === f.videoId && e.providerVideoId === null)).toBe(true);
    expect(events.find((e) => e.type === 'clip')).toMatchObject({ clipId: f.clipId });
    expect(sourceRequests.filter((q) => q.exportJobId === jobId)).toEqual([expect.objectContaining({ vtt: true })]);
    for (const key of exportCaptionKeys(f.videoId, jobId)) expect(await storage.head(key)).toBeNull();
  });

  it('deletes the caption objects of a completed export, and only those', async () => {
    const f = await fixture();
    sources.set(f.videoId, captionsPerExport(f));
    const jobId = created(await create(f, requestOf(f, { saveMainVideo: false, clips: [] }))).created.jobId;
    expect(await finished(jobId, f.caller)).toMatchObject({ status: 'completed' });
    // they were what the provider got
    expect(sandbox.uploads.get(`${f.sessionId}/vtt`)).toMatchObject({ sha256: sha256Hex(f.bytes.vtt) });
    expect(sandbox.uploads.get(`${f.sessionId}/wordByword`)).toMatchObject({ sha256: sha256Hex(f.bytes.words) });
    for (const key of exportCaptionKeys(f.videoId, jobId)) expect(await storage.head(key)).toBeNull();
    expect(await storage.head(`videos/${f.videoId}/renders/r1.vtt`)).not.toBeNull();
  });

  it('the sweeper fails a stalled job with the items it never finished, announces them and deletes its caption objects', async () => {
    const f = await fixture();
    // captions first: the sweeper may take the job the moment it is committed
    const keys = (jobId: string) => exportCaptionKeys(f.videoId, jobId);
    const jobId = await insertUnpublishedJob(f, { clips: [] }, async (tx, id) => {
      for (const key of keys(id)) await storage.upload(key, f.bytes.vtt, { contentType: 'text/vtt' });
      await tx.query(`UPDATE export.export_jobs SET status = 'processing', started_at = now() - interval '20 minutes', updated_at = now() - interval '20 minutes' WHERE id = $1`, [id]);
      await tx.query(
        `UPDATE export.export_items SET status = CASE type WHEN 'main_video' THEN 'uploaded' WHEN 'vtt' THEN 'uploading' ELSE 'pending' END, upload_id = CASE type WHEN 'main_video' THEN 'up_done' END,
                upload_session_uri = CASE type WHEN 'vtt' THEN 'http://provider.test/uploads/resumable/up_cut' END, upload_session_sha256 = CASE type WHEN 'vtt' THEN $2 END
          WHERE job_id = $1`,
        [id, sha256Hex(f.bytes.vtt)],
      );
    });
    const failed = await finished(jobId, f.caller);
    expect(failed).toMatchObject({ status: 'failed', error: { error: 'export_failed', details: 'The export stopped making progress (its worker stopped).' } });
    expect(failed.items.map((i) => [i.type, i.status])).toEqual([
      ['main_video', 'uploaded'],
      ['vtt', 'failed'],
      ['word_by_word', 'failed'],
    ]);
    await eventually(() => (new Set(itemEvents.filter((e) => e.exportJobId === jobId).map((e) => e.type)).size === 2 ? true : undefined), 5000, 'unfinished items announced');
    expect(itemEvents.filter((e) => e.exportJobId === jobId).map((e) => [e.type, e.status]).sort()).toEqual([
      ['vtt', 'failed'],
      ['word_by_word', 'failed'],
    ]);
    for (const key of keys(jobId)) expect(await storage.head(key)).toBeNull();
    // the provider session of the cut upload is forgotten with it
    expect(await ds.query(`SELECT item_id FROM export.export_items WHERE job_id = $1 AND upload_session_uri IS NOT NULL`, [jobId])).toEqual([]);
  });

  describe('an upload cut by a restart', () => {
    const streamSequence = 900_000_000 + Math.floor(Math.random() * 1_000_000);
    const runOf = (jobId: string, deliveryCount: number): InboundMessage<ExportRunMessage> => ({
      data: { jobId },
      subject: `${ExportSubjects.run}.${jobId}`,
      deliveryCount,
      streamSequence,
      msgId: jobId,
      working: () => undefined,
    });
    /** A worker of a new process: its own store and provider client. */
    const newWorker = () =>
      new ExportWorker(
        bus,
        new ExportStore(ds),
        storage,
        new HttpProviderClient({ apiUrl: sandbox.url, chunkSize: CHUNK, retry: { tries: 4, baseMs: 20, maxMs: 200 }, requestTimeoutMs: 5000 }),
        logger,
        null,
        new RenderWaits(bus, new ExportStore(ds), storage, logger, null),
        { concurrency: 1 },
      );
    const itemRow = async (jobId: string) =>
      ((await ds.query(`SELECT status, upload_session_uri, upload_session_sha256 FROM export.export_items WHERE job_id = $1 AND type = 'main_video'`, [jobId])) as Array<{
        status: string;
        upload_session_uri: string | null;
        upload_session_sha256: string | null;
      }>)[0]!;

    /** Runs a main-video export until its second chunk is on its way, then stops the worker as a shutdown does. */
    async function cutByRestart(f: Fixture): Promise<{ jobId: string; sessionPath: string }> {
      const jobId = await insertUnpublishedJob(f, { saveVtt: false, clips: [] });
      // the second chunk is held by the provider: the worker is stopped while it waits
      sandbox.addFault({ match: { method: 'PUT', path: '^/uploads/resumable/' }, action: { kind: 'timeout', ms: 10_000 }, skip: 1 });
      const first = newWorker();
      const running = first.handle(runOf(jobId, 1));
      const sessionPath = await eventually(
        async () => {
          const uri = (await itemRow(jobId)).upload_session_uri;
          const path = uri ? new URL(uri).pathname : null;
          return path && sandbox.requests().filter((r) => r.method === 'PUT' && r.path === path).length === 2 ? path : undefined;
        },
        5000,
        'the second chunk on its way',
      );
      first.stop();
      await expect(running).rejects.toThrow(/shutting down/);
      expect(await itemRow(jobId)).toEqual({ status: 'uploading', upload_session_uri: `${sandbox.url}${sessionPath}`, upload_session_sha256: sha256Hex(f.bytes.main) });
      return { jobId, sessionPath };
    }

    it('a new worker continues it in the stored provider session from where the provider stands', async () => {
      const f = await fixture();
      const { jobId, sessionPath } = await cutByRestart(f);
      await newWorker().handle(runOf(jobId, 2));
      expect(await finished(jobId, f.caller)).toMatchObject({ status: 'completed', items: [expect.objectContaining({ type: 'main_video', status: 'uploaded', bytes: f.bytes.main.length })] });
      expect(uploadsStarted(f.sessionId, 'video')).toHaveLength(1);
      const total = f.bytes.main.length;
      // the first chunk, the one cut by the stop, then the new worker: where do you stand, and the rest from there
      expect(sandbox.requests().filter((r) => r.method === 'PUT' && r.path === sessionPath).map((r) => [r.contentRange, r.status])).toEqual([
        [`bytes 0-${CHUNK - 1}/${total}`, 308],
        [`bytes ${CHUNK}-${2 * CHUNK - 1}/${total}`, 0],
        [`bytes */${total}`, 308],
        [`bytes ${CHUNK}-${2 * CHUNK - 1}/${total}`, 308],
        [`bytes ${2 * CHUNK}-${total - 1}/${total}`, 200],
      ]);
      expect(sandbox.uploads.get(`${f.sessionId}/video`)).toMatchObject({ bytes: total, sha256: sha256Hex(f.bytes.main) });
      expect(await itemRow(jobId)).toEqual({ status: 'uploaded', upload_session_uri: null, upload_session_sha256: null });
    });

    it('starts a new provider session when the bytes to upload changed meanwhile', async () => {
      const f = await fixture();
      const { jobId } = await cutByRestart(f);
      const edited = randomBytes(f.bytes.main.length);
      await storage.upload(`videos/${f.videoId}/renders/r1.mp4`, edited, { contentType: 'video/mp4' });
      await newWorker().handle(runOf(jobId, 2));
      expect(await finished(jobId, f.caller)).toMatchObject({ status: 'completed' });
      expect(uploadsStarted(f.sessionId, 'video')).toHaveLength(2);
      expect(sandbox.uploads.get(`${f.sessionId}/video`)).toMatchObject({ sha256: sha256Hex(edited) });
    });
  });

  it('runs a job again after an infrastructure error, ignores a duplicate run message, and the sweeper publishes a lost one', async () => {
    const f = await fixture();
    const ready = sources.get(f.videoId)!;
    let calls = 0;
    sources.set(f.videoId, (req) => {
      if (calls++ === 0) throw new Error('library database unavailable');
      return ready(req);
    });
    const r = created(await create(f, requestOf(f, { saveVtt: false, clips: [] })));
    const done = await finished(r.created.jobId, f.caller);
    expect(done.status).toBe('completed');
    expect(calls).toBe(2);
    expect(uploadsStarted(f.sessionId, 'video')).toHaveLength(1);
    const [before] = (await ds.query(`SELECT updated_at, run_seq FROM export.export_jobs WHERE id = $1`, [r.created.jobId])) as Array<{ updated_at: Date; run_seq: string }>;
    await bus.publish(`${ExportSubjects.run}.${r.created.jobId}`, { jobId: r.created.jobId }, { msgId: `${r.created.jobId}:again` });
    await new Promise((res) => setTimeout(res, 500));
    expect((await ds.query(`SELECT updated_at, run_seq FROM export.export_jobs WHERE id = $1`, [r.created.jobId]))[0]).toEqual(before);
    expect(uploadsStarted(f.sessionId, 'video')).toHaveLength(1);

    // a job committed but never announced (the publish after the commit failed): the sweeper runs it
    const g = await fixture();
    const store = new ExportStore(ds);
    const request = exportRequestSchema.parse(requestOf(g, { saveVtt: false, clips: [], token: undefined }));
    const lostId = `export_${randomUUID()}`;
    await ds.transaction((tx) =>
      store.insertJob(
        tx,
        { id: lostId, userId: g.userId, videoId: g.videoId, sessionId: g.sessionId, providerVideoId: g.providerVideoId, request, caller: g.caller, names: { mainVideo: 'Talk', clips: {} }, retryOf: null, countsTowardQuota: true },
        planItems(request, { mainVideo: 'Talk', clips: {} }),
      ),
    );
    await ds.query(`UPDATE export.export_jobs SET created_at = now() - interval '1 minute' WHERE id = $1`, [lostId]);
    expect(await finished(lostId, g.caller)).toMatchObject({ status: 'completed', progress: 100 });
  });

  it('refuses an unauthorised token at the provider with the reload message', async () => {
    const f = await fixture();
    const expired = await sandbox.signToken({ sub: f.userId, sessionId: f.sessionId, videoId: f.providerVideoId }, { expiresInSec: -120 });
    const r = created(await create(f, requestOf(f, { saveVtt: false, clips: [] }), { ...f.caller, token: expired }));
    const done = await finished(r.created.jobId, f.caller);
    expect(done).toMatchObject({ status: 'failed', error: { error: 'unauthorized', message: 'The provider refused the session token. Please reload the page.' } });
  });

  describe('provider webhooks', () => {
    const post = (body: string, signature?: string) =>
      fetch(`${svc.url}/webhooks/provider`, { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'provider-signature': signature } : {}) }, body });
    const eventRow = async (id: string) =>
      ((await ds.query(`SELECT status, attempts, last_error FROM export.webhook_events WHERE event_id = $1`, [id])) as Array<{ status: string; attempts: number; last_error: string | null }>)[0];

    it('confirms items from the signed events of an upload, once; a replay is a duplicate and is not applied again', async () => {
      const f = await fixture();
      const r = created(await create(f, requestOf(f, { saveVtt: false, clips: [] })));
      await finished(r.created.jobId, f.caller);
      const item = await eventually(
        async () => {
          const s = await status(r.created.jobId, f.caller);
          return s.ok && s.status.items[0]?.providerConfirmed ? s.status.items[0] : undefined;
        },
        10_000,
        'item confirmed by webhook',
      );
      expect(item).toMatchObject({ type: 'main_video', providerConfirmed: true, providerVideoId: f.providerVideoId });
      await sandbox.webhooksSettled();
      const uploadId = sandbox.uploads.get(`${f.sessionId}/video`)!.uploadId;
      const events = sandbox.webhookEvents().filter((e) => e.data.uploadId === uploadId);
      expect(events.map((e) => e.type)).toEqual(['upload.completed', 'video.ready']);
      expect(sandbox.webhookDeliveries().filter((d) => events.some((e) => e.id === d.eventId) && d.ok).map((d) => d.status)).toEqual([202, 202]);
      const ready = events[1]!;
      await eventually(async () => ((await eventRow(ready.id))?.status === 'applied' ? true : undefined), 10_000, 'video.ready applied');
      const before = await eventRow(ready.id);

      const replay = await sandbox.resendWebhook(ready.id);
      expect(replay.attempts.map((a) => a.status)).toEqual([200]);
      const res = await post(JSON.stringify(ready), signWebhook(SECRET, JSON.stringify(ready), Math.floor(Date.now() / 1000)));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: true, duplicate: true });
      await new Promise((r) => setTimeout(r, 500));
      expect(await eventRow(ready.id)).toEqual(before);
    });

    it('an upload.failed after the export completed fails the item and announces it; the job stays completed', async () => {
      const f = await fixture();
      const jobId = created(await create(f, requestOf(f, { saveVtt: false, clips: [] }))).created.jobId;
      await finished(jobId, f.caller);
      const uploadId = sandbox.uploads.get(`${f.sessionId}/video`)!.uploadId;
      // the upload's confirmations are applied first, as a provider sends them before it finds a problem
      await eventually(
        async () => {
          const confirmations = sandbox.webhookEvents().filter((e) => e.data.uploadId === uploadId);
          const rows = await Promise.all(confirmations.map((e) => eventRow(e.id)));
          return confirmations.length === 2 && rows.every((r) => r?.status === 'applied') ? true : undefined;
        },
        10_000,
        'upload.completed and video.ready applied',
      );
      const event: ProviderWebhookEvent = {
        id: `evt_${randomUUID()}`,
        type: 'upload.failed',
        createdAt: new Date().toISOString(),
        data: { sessionId: f.sessionId, uploadId, kind: 'video', providerVideoId: null },
      };
      expect((await sandbox.sendWebhook(event)).attempts.map((a) => a.status)).toEqual([202]);
      const announced = await eventually(() => itemEvents.find((e) => e.exportJobId === jobId && e.status === 'failed'), 10_000, 'failed item announced');
      expect(announced).toEqual({ exportJobId: jobId, videoId: f.videoId, type: 'main_video', clipId: null, status: 'failed', providerVideoId: null });
      const s = await status(jobId, f.caller);
      expect(s).toMatchObject({
        ok: true,
        status: { status: 'completed', items: [expect.objectContaining({ type: 'main_video', status: 'failed', providerConfirmed: false, error: 'The provider could not process this upload.' })] },
      });
      expect(await eventRow(event.id)).toMatchObject({ status: 'applied' });
    });

    it('applies a webhook only if it is the newest of its upload: a retry of an older failed event does not overwrite the newer state', async () => {
      const f = await fixture();
      const jobId = created(await create(f, requestOf(f, { saveVtt: false, clips: [] }))).created.jobId;
      await finished(jobId, f.caller);
      const uploadId = sandbox.uploads.get(`${f.sessionId}/video`)!.uploadId;
      // A: the upload's confirmations (upload.completed, then video.ready), applied
      const confirmations = await eventually(
        async () => {
          const events = sandbox.webhookEvents().filter((e) => e.data.uploadId === uploadId);
          const rows = await Promise.all(events.map((e) => eventRow(e.id)));
          return events.length === 2 && rows.every((r) => r?.status === 'applied') ? events : undefined;
        },
        10_000,
        'upload.completed and video.ready applied',
      );
      const confirmed = expect.objectContaining({ type: 'main_video', status: 'uploaded', providerConfirmed: true, providerVideoId: f.providerVideoId, error: null });
      expect(await status(jobId, f.caller)).toMatchObject({ ok: true, status: { items: [confirmed] } });
      const olderThanA = new Date(Date.parse(confirmations[0]!.createdAt) - 60_000).toISOString();
      const store = new ExportStore(ds);
      const failedFor = async (e: ProviderWebhookEvent) => {
        await store.webhookEvents.recordWebhook(e);
        await store.recordFailedWebhook(e, `no export item has upload id ${e.data.uploadId}`, 3);
        return ((await ds.query(`SELECT id FROM export.failed_webhooks WHERE event_id = $1`, [e.id])) as Array<{ id: string }>)[0]!.id;
      };
      const retryHook = (id: string) => bus.request(ExportSubjects.rpcRetryWebhook, { id }, webhookRetryResultSchema.nullable(), 10_000);
      const record = async (id: string) =>
        ((await ds.query(`SELECT retry_count, last_retry_error, resolved_at IS NOT NULL AS resolved FROM export.failed_webhooks WHERE id = $1`, [id])) as Array<Record<string, unknown>>)[0];

      // B: an upload.failed older than A, which failed for good (it came before the upload id was committed)
      const b: ProviderWebhookEvent = { id: `evt_${randomUUID()}`, type: 'upload.failed', createdAt: olderThanA, data: { sessionId: f.sessionId, uploadId, kind: 'video', providerVideoId: null } };
      const bRecord = await failedFor(b);
      expect(await retryHook(bRecord)).toEqual({ jobId: bRecord, succeeded: false, error: STALE_WEBHOOK_SKIPPED });
      expect(await status(jobId, f.caller)).toMatchObject({ ok: true, status: { status: 'completed', items: [confirmed] } });
      expect(await eventRow(b.id)).toMatchObject({ status: 'skipped' });
      expect(await record(bRecord)).toEqual({ retry_count: 1, last_retry_error: STALE_WEBHOOK_SKIPPED, resolved: true });
      expect(await retryHook(bRecord)).toBeNull();

      // an older event's first delivery is skipped too (acknowledged, not retried)
      const late: ProviderWebhookEvent = { ...b, id: `evt_${randomUUID()}` };
      expect((await sandbox.sendWebhook(late)).attempts.map((a) => a.status)).toEqual([202]);
      await eventually(async () => ((await eventRow(late.id))?.status === 'skipped' ? true : undefined), 10_000, 'late upload.failed skipped');
      expect(await eventRow(late.id)).toEqual({ status: 'skipped', attempts: 1, last_error: null });
      expect(await status(jobId, f.caller)).toMatchObject({ ok: true, status: { items: [confirmed] } });
      expect(itemEvents.filter((e) => e.exportJobId === jobId && e.status === 'failed')).toEqual([]);

      // a failed event newer than A is applied by its retry
      const d: ProviderWebhookEvent = { ...b, id: `evt_${randomUUID()}`, createdAt: new Date().toISOString() };
      const dRecord = await failedFor(d);
      expect(await retryHook(dRecord)).toEqual({ jobId: dRecord, succeeded: true, error: null });
      expect(await eventRow(d.id)).toMatchObject({ status: 'applied' });
      expect(await status(jobId, f.caller)).toMatchObject({
        ok: true,
        status: { items: [expect.objectContaining({ status: 'failed', providerConfirmed: false, error: 'The provider could not process this upload.' })] },
      });
      // and then A's events, retried, are older than D: they cannot confirm the item again
      const aRecord = await failedFor({ ...confirmations[1]!, id: `evt_${randomUUID()}` });
      expect(await retryHook(aRecord)).toMatchObject({ succeeded: false, error: STALE_WEBHOOK_SKIPPED });
      expect(await status(jobId, f.caller)).toMatchObject({ ok: true, status: { items: [expect.objectContaining({ status: 'failed', providerConfirmed: false })] } });
    });

    it('refuses forged, stale, unsigned and malformed webhooks', async () => {
      const event: ProviderWebhookEvent = {
        id: `evt_${randomUUID()}`,
        type: 'upload.completed',
        createdAt: new Date().toISOString(),
        data: { sessionId: 's', uploadId: `up_${randomUUID()}`, kind: 'video', providerVideoId: null },
      };
      const forged = await sandbox.sendWebhook(event, { signWith: 'whsec_not_the_secret_at_all_0123456789abc' });
      expect(forged.attempts.map((a) => a.status)).toEqual([401]);
      const stale = await sandbox.sendWebhook(event, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
      expect(stale.attempts.map((a) => a.status)).toEqual([401]);
      const body = JSON.stringify(event);
      const unsigned = await post(body);
      expect(unsigned.status).toBe(401);
      expect(await unsigned.json()).toEqual({ error: 'invalid_signature', reason: 'missing_header' });
      const forgedDirect = await post(body, signWebhook('whsec_not_the_secret_at_all_0123456789abc', body, Math.floor(Date.now() / 1000)));
      expect(await forgedDirect.json()).toEqual({ error: 'invalid_signature', reason: 'signature_mismatch' });
      const staleDirect = await post(body, signWebhook(SECRET, body, Math.floor(Date.now() / 1000) - 3600));
      expect(await staleDirect.json()).toEqual({ error: 'invalid_signature', reason: 'timestamp_out_of_tolerance' });
      // the signature covers the raw bytes: the same JSON re-serialised with other spacing does not verify
      const respaced = JSON.stringify(event, null, 2);
      expect((await post(respaced, signWebhook(SECRET, body, Math.floor(Date.now() / 1000)))).status).toBe(401);
      const malformed = JSON.stringify({ id: 'evt_x', type: 'video.deleted' });
      const bad = await post(malformed, signWebhook(SECRET, malformed, Math.floor(Date.now() / 1000)));
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ error: 'invalid_payload' });
      expect(await eventRow(event.id)).toBeUndefined();
    });

    it('records an event for an unknown upload in failed_webhooks after three deliveries', async () => {
      const event: ProviderWebhookEvent = {
        id: `evt_${randomUUID()}`,
        type: 'upload.completed',
        createdAt: new Date().toISOString(),
        data: { sessionId: 's', uploadId: `up_unknown_${randomUUID()}`, kind: 'video', providerVideoId: 'pv' },
      };
      const sent = await sandbox.sendWebhook(event);
      expect(sent.attempts.map((a) => a.status)).toEqual([202]);
      const failed = await eventually(
        async () => {
          const rows = (await ds.query(`SELECT event_id, type, attempts, error, retried_at, payload FROM export.failed_webhooks WHERE event_id = $1`, [event.id])) as Array<Record<string, unknown>>;
          return rows.length ? rows : undefined;
        },
        15_000,
        'failed webhook recorded',
      );
      expect(failed).toEqual([{ event_id: event.id, type: 'upload.completed', attempts: 3, error: `no export item has upload id ${event.data.uploadId}`, retried_at: null, payload: event }]);
      expect(await eventRow(event.id)).toEqual({ status: 'failed', attempts: 3, last_error: `no export item has upload id ${event.data.uploadId}` });
    });
  });

  it('serves its metrics', async () => {
    const text = await (await fetch(`${svc.url}/metrics`)).text();
    expect(text).toMatch(/exports_created_total\{[^}]*\} [1-9]/);
    expect(text).toMatch(/exports_completed_total\{[^}]*status="completed"[^}]*\} [1-9]/);
    expect(text).toMatch(/export_upload_bytes_total\{[^}]*\} [1-9]/);
    expect(text).toMatch(/webhooks_received_total\{[^}]*result="duplicate"[^}]*\} [1-9]/);
  });
});
