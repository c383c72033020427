/**
 * The operator dashboard's access and video deletion against the real stack: the password login
 * (generic refusal, throttled per client), the session cookie's attributes, CSRF refusals, the
 * separation of operator and editor credentials, logout ending the session server-side, the video
 * list, and deletions that remove exactly what their preview named: every row and object of two
 * videos is listed before and after, and only the deleted one's are gone. A deletion left marked
 * (a storage failure midway) is finished by the sweeper. Requires `npm run build:services`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import {
  analyticsVideoPageSchema,
  errorLogPageSchema,
  failedWebhookPageSchema,
  metricsSchema,
  webhookRetryResultSchema,
  workerMetricsSchema,
  bulkDeletionPreviewSchema,
  deletionPreviewSchema,
  OPERATOR_ACCESS_DENIED,
  OPERATOR_CSRF_HEADER,
  operatorStatusSchema,
  videoSchema,
} from '@wordcut/contracts';
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from '@wordcut/provider';
import { Client } from 'pg';
import { DEFAULT_WEBHOOK_SECRET } from '../provider-sandbox/sandbox';
import { LOCAL_ANALYTICS_PASSWORD, ROOT } from '../stack/stack';
import { eventually } from '../testing/env';
import { bearer, startGatewaySession, type GatewaySessionForTest } from '../testing/identity';
import { operatorLogin, type OperatorSessionForTest } from '../testing/operator';
import { startSystem, type TestSystem } from './system';

const PORTS = { gateway: 14000, media: 14001, jobs: 14002, export: 14003, analytics: 14004 };
const MEDIA = join(ROOT, '.data', 'test-media');
const FAILURES_ALLOWED = 3;

/** Every row of a video, table by table (as JSON, in a stable order). */
const ROW_QUERIES: Record<string, string> = {
  'library.videos': `SELECT to_jsonb(v) AS row FROM library.videos v WHERE id = $1`,
  'library.transcripts': `SELECT to_jsonb(t) AS row FROM library.transcripts t WHERE video_id = $1 ORDER BY id`,
  'library.transcript_words': `SELECT to_jsonb(w) AS row FROM library.transcript_words w JOIN library.transcripts t ON t.id = w.transcript_id WHERE t.video_id = $1 ORDER BY w.word_order`,
  'library.clips': `SELECT to_jsonb(c) AS row FROM library.clips c WHERE video_id = $1 ORDER BY id`,
  'library.renders': `SELECT to_jsonb(r) AS row FROM library.renders r WHERE video_id = $1 ORDER BY job_id`,
  'library.silence_analyses': `SELECT to_jsonb(s) AS row FROM library.silence_analyses s WHERE video_id = $1 ORDER BY 1`,
  'library.key_moments': `SELECT to_jsonb(k) AS row FROM library.key_moments k WHERE video_id = $1 ORDER BY id`,
  'jobs.jobs': `SELECT to_jsonb(j) AS row FROM jobs.jobs j WHERE video_id = $1::text ORDER BY id`,
  'jobs.job_transitions': `SELECT to_jsonb(x) AS row FROM jobs.job_transitions x JOIN jobs.jobs j ON j.id = x.job_id WHERE j.video_id = $1::text ORDER BY x.id`,
};

describe('operator access and video deletion', () => {
  let sys: TestSystem;
  let db: Client;
  let owner: GatewaySessionForTest;
  let operator: OperatorSessionForTest;
  const api = (path: string) => sys.api(path);

  const upload = async (session: GatewaySessionForTest, name: string): Promise<string> => {
    const f = new FormData();
    f.append('video', new Blob([new Uint8Array(readFileSync(join(MEDIA, 'demo.mp4')))], { type: 'video/mp4' }), name);
    f.append('vtt', new Blob([readFileSync(join(MEDIA, 'demo.vtt'), 'utf8')], { type: 'text/vtt' }), 'demo.vtt');
    const res = await fetch(api('/api/videos/upload'), { method: 'POST', headers: bearer(session.token), body: f });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    await eventually(async () => {
      const v = videoSchema.parse(await (await fetch(api(`/api/videos/${id}`), { headers: bearer(session.token) })).json());
      return v.status === 'completed' ? v : v.status === 'failed' ? Promise.reject(new Error(v.vttError ?? 'failed')) : undefined;
    }, 120000, `${name} completed`);
    return id;
  };

  const jobDone = (session: GatewaySessionForTest, jobId: string) =>
    eventually(async () => {
      const j = (await (await fetch(api(`/api/jobs/${jobId}/status`), { headers: bearer(session.token) })).json()) as { status: string };
      return ['completed', 'failed', 'error', 'cancelled'].includes(j.status) ? j : undefined;
    }, 90000, `job ${jobId} finished`);

  const rowsOf = async (videoId: string): Promise<Record<string, string[]>> => {
    const out: Record<string, string[]> = {};
    for (const [table, sql] of Object.entries(ROW_QUERIES)) out[table] = ((await db.query(sql, [videoId])).rows as { row: unknown }[]).map((r) => JSON.stringify(r.row));
    return out;
  };

  const objectsOf = async (videoId: string): Promise<string[]> => {
    const out = await sys.s3client.send(new ListObjectsV2Command({ Bucket: sys.env.S3_BUCKET, Prefix: `videos/${videoId}/` }));
    return (out.Contents ?? []).map((o) => o.Key!).sort();
  };

  const allObjects = async (): Promise<string[]> => {
    const out = await sys.s3client.send(new ListObjectsV2Command({ Bucket: sys.env.S3_BUCKET }));
    return (out.Contents ?? []).map((o) => o.Key!).sort();
  };

  const login = (password: string, client?: string) =>
    fetch(api('/api/analytics/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(client ? { 'x-forwarded-for': client } : {}) },
      body: JSON.stringify({ password }),
    });

  beforeAll(async () => {
    execFileSync('bash', [join(ROOT, 'tools/media/generate-test-media.sh'), MEDIA], { stdio: 'ignore' });
    sys = await startSystem({
      name: 'operator',
      ports: PORTS,
      mediaDir: MEDIA,
      env: { ANALYTICS_LOGIN_FAILURES_PER_15_MIN: String(FAILURES_ALLOWED), RETENTION_SWEEP_INTERVAL_MS: '1000' },
    });
    db = new Client({ connectionString: sys.env.DATABASE_URL });
    await db.connect();
    owner = await startGatewaySession(sys.stack.services.gateway.url);
    operator = await operatorLogin(sys.stack.services.gateway.url, LOCAL_ANALYTICS_PASSWORD);
  }, 300000);

  afterAll(async () => {
    await db?.end();
    await sys?.close();
  });

  describe('access', () => {
    it('says whether the browser is signed in, with the CSRF token only then', async () => {
      expect(operatorStatusSchema.parse(await (await fetch(api('/api/analytics/status'))).json())).toEqual({ authenticated: false });
      const signedIn = operatorStatusSchema.parse(await (await fetch(api('/api/analytics/status'), { headers: { cookie: operator.cookie } })).json());
      expect(signedIn).toMatchObject({ authenticated: true, csrfToken: operator.csrfToken });
    });

    it('sets an httpOnly, SameSite=Strict session cookie for /api', async () => {
      const res = await login(LOCAL_ANALYTICS_PASSWORD, '198.51.100.1');
      expect(res.status).toBe(200);
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('wordcut_operator='))!;
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Strict/);
      expect(cookie).toMatch(/; Path=\/api/);
      // a local stack on plain http; deployments keep ANALYTICS_COOKIE_SECURE on
      expect(cookie).not.toMatch(/; Secure/);
    });

    it('refuses a wrong and an empty password with the same generic words', async () => {
      const wrong = await login('not the password', '198.51.100.2');
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toMatchObject({ statusCode: 401, message: OPERATOR_ACCESS_DENIED });
      expect(wrong.headers.getSetCookie()).toEqual([]);
      expect((await login('', '198.51.100.2')).status).toBe(400);
    });

    it('takes the password only as JSON, never from a form another site could post', async () => {
      const form = await fetch(api('/api/analytics/login'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '198.51.100.4' },
        body: `password=${encodeURIComponent(LOCAL_ANALYTICS_PASSWORD)}`,
      });
      expect(form.status).toBe(415);
      expect(form.headers.getSetCookie()).toEqual([]);
    });

    it('throttles failed logins per client: beyond the limit even the right password is refused, with the same words', async () => {
      const client = '203.0.113.9';
      for (let i = 0; i < FAILURES_ALLOWED; i++) expect((await login(`wrong ${i}`, client)).status).toBe(401);
      const throttled = await login(LOCAL_ANALYTICS_PASSWORD, client);
      expect(throttled.status).toBe(429);
      expect(await throttled.json()).toMatchObject({ message: OPERATOR_ACCESS_DENIED });
      expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(throttled.headers.getSetCookie()).toEqual([]);
      // another client is not held back
      expect((await login(LOCAL_ANALYTICS_PASSWORD, '203.0.113.10')).status).toBe(200);
    });

    it('refuses a state-changing operator call without the CSRF token, or with a wrong one', async () => {
      const body = JSON.stringify({ videoIds: ['00000000-0000-4000-8000-000000000000'] });
      const attempts: Record<string, string>[] = [{ cookie: operator.cookie }, { cookie: operator.cookie, [OPERATOR_CSRF_HEADER]: 'forged' }];
      for (const headers of attempts) {
        const res = await fetch(api('/api/analytics/videos/bulk-delete'), { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
        expect(res.status).toBe(403);
        expect(await res.json()).toMatchObject({ message: 'Missing or invalid CSRF token' });
      }
      const logout = await fetch(api('/api/analytics/logout'), { method: 'POST', headers: { cookie: operator.cookie } });
      expect(logout.status).toBe(403);
      // with the token it is judged on its merits (no such video)
      const judged = await fetch(api('/api/analytics/videos/bulk-delete'), { method: 'POST', headers: { ...operator.headers, 'content-type': 'application/json' }, body });
      expect(judged.status).toBe(404);
    });

    it('keeps operator routes closed to editor tokens and editor routes closed to the operator cookie', async () => {
      expect((await fetch(api('/api/analytics/videos'), { headers: bearer(owner.token) })).status).toBe(401);
      expect((await fetch(api('/api/analytics/videos'))).status).toBe(401);
      expect((await fetch(api('/api/jobs/user-jobs'), { headers: { cookie: operator.cookie } })).status).toBe(401);
      expect((await fetch(api('/api/analytics/videos'), { headers: { cookie: operator.cookie } })).status).toBe(200);
    });

    it('ends the session server-side on logout: the same cookie opens nothing afterwards', async () => {
      const session = await operatorLogin(sys.stack.services.gateway.url, LOCAL_ANALYTICS_PASSWORD, { 'x-forwarded-for': '198.51.100.3' });
      const out = await fetch(api('/api/analytics/logout'), { method: 'POST', headers: session.headers });
      expect(out.status).toBe(200);
      expect(out.headers.getSetCookie().join()).toMatch(/wordcut_operator=;/);
      expect((await fetch(api('/api/analytics/videos'), { headers: { cookie: session.cookie } })).status).toBe(401);
      expect(operatorStatusSchema.parse(await (await fetch(api('/api/analytics/status'), { headers: { cookie: session.cookie } })).json())).toEqual({ authenticated: false });
    });
  });

  describe('videos', () => {
    let kept: string;
    let deleted: string;

    beforeAll(async () => {
      kept = await upload(owner, 'kept-talk.mp4');
      deleted = await upload(owner, 'doomed-talk.mp4');
      // rows of every kind for both: a clip (render + job), a cut, silence analysis, key moments
      for (const id of [kept, deleted]) {
        const clip = (await (await fetch(api('/api/clips'), { method: 'POST', headers: { ...bearer(owner.token), 'content-type': 'application/json' }, body: JSON.stringify({ videoId: id, name: 'Clip', startTime: 0, endTime: 2, aspectRatio: '1:1' }) })).json()) as { jobId: string };
        await jobDone(owner, clip.jobId);
        const cut = (await (await fetch(api(`/api/videos/${id}/apply-cuts`), { method: 'POST', headers: { ...bearer(owner.token), 'content-type': 'application/json' }, body: JSON.stringify({ cuts: [{ start: 3, end: 3.5 }] }) })).json()) as { jobId: string };
        await jobDone(owner, cut.jobId);
        expect((await fetch(api(`/api/videos/${id}/detect-silence`), { method: 'POST', headers: { ...bearer(owner.token), 'content-type': 'application/json' }, body: JSON.stringify({ minPauseDuration: 0.5 }) })).status).toBe(200);
        expect((await fetch(api(`/api/videos/${id}/find-key-moments`), { method: 'POST', headers: bearer(owner.token) })).status).toBe(200);
      }
    }, 400000);

    it('lists every video with its counts, searchable, filtered, sorted and paged', async () => {
      const list = async (query: string) => analyticsVideoPageSchema.parse(await (await fetch(api(`/api/analytics/videos${query}`), { headers: { cookie: operator.cookie } })).json());
      const all = await list('');
      expect(all.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1 });
      expect(all.videos.map((v) => v.originalName)).toEqual(['doomed-talk.mp4', 'kept-talk.mp4']);
      expect(all.videos[0]).toMatchObject({ userId: owner.userId, status: 'completed', transcriptCount: 1, clipCount: 1 });
      expect(all.videos[0]!.keyMomentCount).toBeGreaterThan(0);
      expect(all.videos[0]!.fileSize).toBeGreaterThan(0);
      expect(all.users).toEqual([owner.userId]);
      expect((await list('?search=KEPT')).videos.map((v) => v.id)).toEqual([kept]);
      expect((await list('?sortBy=name-asc')).videos.map((v) => v.id)).toEqual([deleted, kept]);
      expect((await list('?sortBy=oldest&limit=10&page=2')).pagination).toEqual({ page: 2, limit: 10, total: 2, totalPages: 1 });
      expect((await list('?userId=unknown')).pagination.total).toBe(0);
      expect((await list('?status=failed')).videos).toEqual([]);
      expect((await fetch(api('/api/analytics/videos?limit=15'), { headers: { cookie: operator.cookie } })).status).toBe(400);
    });

    it("answers another person 404 on a video's deletion preview and deletion, like a missing one", async () => {
      const stranger = await startGatewaySession(sys.stack.services.gateway.url);
      expect((await fetch(api(`/api/videos/${kept}/deletion-preview`), { headers: bearer(stranger.token) })).status).toBe(404);
      expect((await fetch(api(`/api/videos/${kept}`), { method: 'DELETE', headers: bearer(stranger.token) })).status).toBe(404);
      expect((await fetch(api(`/api/videos/${kept}`), { method: 'DELETE', headers: { cookie: operator.cookie } })).status).toBe(403);
    });

    it('refuses to delete a video while one of its jobs runs, with a clear message', async () => {
      await db.query(
        `INSERT INTO library.renders (job_id, video_id, kind, state, user_id, base_edit_version, base_edit, new_edit) VALUES ('cut_running-test', $1, 'cut', 'active', $2, 0, '{}', '{}')`,
        [kept, owner.userId],
      );
      try {
        const res = await fetch(api(`/api/videos/${kept}`), { method: 'DELETE', headers: operator.headers });
        expect(res.status).toBe(409);
        expect(await res.json()).toMatchObject({ message: expect.stringMatching(/has a job running/) });
        expect((await db.query(`SELECT deleting_at FROM library.videos WHERE id = $1`, [kept])).rows[0].deleting_at).toBeNull();
      } finally {
        await db.query(`DELETE FROM library.renders WHERE job_id = 'cut_running-test'`);
      }
    });

    it('deletes exactly what the preview named: every row and object of that video, nothing of the other', async () => {
      const before = { deleted: await rowsOf(deleted), kept: await rowsOf(kept) };
      const objectsBefore = { deleted: await objectsOf(deleted), kept: await objectsOf(kept), all: await allObjects() };
      // both videos have rows of every kind and objects
      for (const rows of [before.deleted, before.kept]) for (const [table, list] of Object.entries(rows)) expect([table, list.length > 0]).toEqual([table, true]);
      expect(objectsBefore.deleted.length).toBeGreaterThan(2);

      const preview = deletionPreviewSchema.parse(await (await fetch(api(`/api/videos/${deleted}/deletion-preview`), { headers: { cookie: operator.cookie } })).json());
      expect(preview).toMatchObject({
        video: { id: deleted, originalName: 'doomed-talk.mp4' },
        transcripts: before.deleted['library.transcripts']!.length,
        transcriptWords: before.deleted['library.transcript_words']!.length,
        clips: before.deleted['library.clips']!.length,
        keyMoments: before.deleted['library.key_moments']!.length,
        renders: before.deleted['library.renders']!.length,
        silenceAnalyses: before.deleted['library.silence_analyses']!.length,
        jobs: before.deleted['jobs.jobs']!.length,
      });
      expect([...preview.files].sort()).toEqual(objectsBefore.deleted);
      expect(preview.totalSize).toBe(preview.objects.reduce((s, o) => s + o.size, 0));

      const bulk = bulkDeletionPreviewSchema.parse(await (await fetch(api(`/api/analytics/videos/bulk-preview?ids=${deleted},${kept}`), { headers: { cookie: operator.cookie } })).json());
      expect(bulk.videos.map((v) => v.video.id)).toEqual([deleted, kept]);
      expect(bulk.totalFiles.length).toBe(objectsBefore.deleted.length + objectsBefore.kept.length);

      const res = await fetch(api(`/api/videos/${deleted}`), { method: 'DELETE', headers: operator.headers });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ deleted: [deleted], objects: objectsBefore.deleted.length });

      const after = { deleted: await rowsOf(deleted), kept: await rowsOf(kept) };
      for (const list of Object.values(after.deleted)) expect(list).toEqual([]);
      expect(after.kept).toEqual(before.kept);
      expect(await objectsOf(deleted)).toEqual([]);
      expect(await objectsOf(kept)).toEqual(objectsBefore.kept);
      expect(await allObjects()).toEqual(objectsBefore.all.filter((k) => !objectsBefore.deleted.includes(k)));
      expect((await fetch(api(`/api/videos/${deleted}`), { headers: bearer(owner.token) })).status).toBe(404);
    });

    it('finishes a deletion a failure left marked (the sweeper), and hides the video meanwhile', async () => {
      const leftover = await upload(owner, 'leftover.mp4');
      expect((await objectsOf(leftover)).length).toBeGreaterThan(0);
      const others = { rows: await rowsOf(kept), objects: await objectsOf(kept) };
      // what a storage failure midway leaves: the mark, with rows and objects still there
      await db.query(`UPDATE library.videos SET deleting_at = now() - interval '5 minutes' WHERE id = $1`, [leftover]);
      expect((await fetch(api(`/api/videos/${leftover}`), { headers: bearer(owner.token) })).status).toBe(404);
      await eventually(async () => ((await db.query(`SELECT 1 FROM library.videos WHERE id = $1`, [leftover])).rowCount === 0 ? true : undefined), 30000, 'the sweeper finished the deletion');
      for (const list of Object.values(await rowsOf(leftover))) expect(list).toEqual([]);
      expect(await objectsOf(leftover)).toEqual([]);
      expect(await rowsOf(kept)).toEqual(others.rows);
      expect(await objectsOf(kept)).toEqual(others.objects);
    }, 180000);

    it('lets the owner delete their own video with a bearer token, and bulk deletion by the operator', async () => {
      const mine = await upload(owner, 'mine.mp4');
      const ownPreview = await fetch(api(`/api/videos/${mine}/deletion-preview`), { headers: bearer(owner.token) });
      expect(ownPreview.status).toBe(200);
      expect((await fetch(api(`/api/videos/${mine}`), { method: 'DELETE', headers: bearer(owner.token) })).status).toBe(200);
      expect(await objectsOf(mine)).toEqual([]);
      const res = await fetch(api('/api/analytics/videos/bulk-delete'), { method: 'POST', headers: { ...operator.headers, 'content-type': 'application/json' }, body: JSON.stringify({ videoIds: [kept] }) });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ deleted: [kept] });
      for (const list of Object.values(await rowsOf(kept))) expect(list).toEqual([]);
      expect(await allObjects()).toEqual(expect.not.arrayContaining([expect.stringMatching(/^videos\//)]));
    }, 180000);
  });

  describe('figures, error log and failed webhooks', () => {
    const json = async (path: string) => {
      const res = await fetch(api(path), { headers: operator.headers });
      expect(res.status).toBe(200);
      return res.json();
    };
    const post = (path: string, body?: unknown) =>
      fetch(api(path), { method: 'POST', headers: { ...operator.headers, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

    it('reports the queue, the system, publishing and the events from our own services', async () => {
      const m = metricsSchema.parse(await json('/api/metrics'));
      expect(m.queue.health.status).toBe('healthy');
      expect(m.queue.consumers.map((c) => c.name).sort()).toEqual(['media-ingest', 'media-keymoments', 'media-probe', 'media-render']);
      expect(m.system.nodeVersion).toBe(process.version);
      expect(m.system.memory.used).toBeGreaterThan(0);
      expect(m.sqs).toMatchObject({ enabled: true, health: { status: 'healthy' } });
      expect(m.providerIntegration.error).toBeNull();
      // the clips and cuts of the videos above: requested, started and completed jobs
      expect(m.analytics).toMatchObject({ enabled: true, error: null });
      const byName = Object.fromEntries(m.analytics.last7Days.map((e) => [e.metricName, e.value]));
      expect(byName['jobs.completed']).toBeGreaterThanOrEqual(4);
      expect(byName['jobs.requested']).toBeGreaterThanOrEqual(4);
      expect(m.analytics.summary.todayCount).toBeGreaterThanOrEqual(m.analytics.last7Days.reduce((n, e) => n + e.value, 0) - 1);
    });

    it('reports the media workers over the last hour from the jobs they ran', async () => {
      const w = workerMetricsSchema.parse(await json('/api/analytics/lambda-metrics?periodMinutes=60'));
      expect(w.enabled).toBe(true);
      expect(w.metrics.invocations.total).toBeGreaterThanOrEqual(4);
      expect(w.metrics.duration.average).toBeGreaterThan(0);
      expect(w.metrics.duration.maximum).toBeGreaterThanOrEqual(w.metrics.duration.average);
      expect(w.metrics.concurrentExecutions).toBeGreaterThanOrEqual(1);
      expect(w.cost.requestCost).toBeCloseTo((w.metrics.invocations.total / 1e6) * 0.2, 10);
      expect(w.cost.totalCost).toBeCloseTo(w.cost.requestCost + w.cost.computeCost, 10);
      expect((await fetch(api('/api/analytics/lambda-metrics?periodMinutes=1'), { headers: operator.headers })).status).toBe(400);
    });

    it('lists a webhook that failed for good and the error it logged; a retry records its outcome; both can be deleted', async () => {
      const event = {
        id: `evt_${randomUUID()}`,
        type: 'upload.completed',
        createdAt: new Date().toISOString(),
        data: { sessionId: 'operator-test', uploadId: `missing-${randomUUID()}`, kind: 'vtt', providerVideoId: 'talk' },
      };
      const raw = JSON.stringify(event);
      const signature = signWebhook(DEFAULT_WEBHOOK_SECRET, raw, Math.floor(Date.now() / 1000));
      const res = await fetch(`${sys.stack.services.export.url}/webhooks/provider`, { method: 'POST', headers: { 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signature }, body: raw });
      expect(res.status).toBe(202);

      // three deliveries with backoff, then it is recorded as failed
      const failed = await eventually(async () => {
        const page = failedWebhookPageSchema.parse(await json('/api/analytics/webhooks/failed?limit=10'));
        return page.webhooks.find((w) => (w.webhookDetails.payload as { id: string }).id === event.id);
      }, 30000, 'the webhook is listed as failed');
      expect(failed).toMatchObject({ eventType: 'upload.completed', webhookRetryCount: 3, userId: null, webhookDetails: { webhookUrl: '/webhooks/provider', latestRetryError: null } });
      expect(failed.webhookDetails.error).toContain(event.data.uploadId);
      expect(failed.webhookDetails.jwtTokenMasked).toMatch(/^t=\d+,v1=[0-9a-f]{4}…[0-9a-f]{4}$/);

      const logged = await eventually(async () => {
        const page = errorLogPageSchema.parse(await json('/api/analytics/errors?severity=error&limit=100'));
        return page.errors.find((e) => e.service === 'export' && e.message.includes('provider webhook failed for good'));
      }, 20000, 'the export service logged the failure');
      expect(logged.endpoint).toBe('export.webhooks.provider');
      const warnings = errorLogPageSchema.parse(await json('/api/analytics/errors?severity=warn&limit=100'));
      expect(warnings.errors.every((e) => e.severity === 'warn')).toBe(true);

      // the retry really applies the event again: it still names no upload, so it fails and says why
      const retry = await post(`/api/analytics/webhooks/${failed.jobId}/retry`);
      expect(retry.status).toBe(200);
      expect(webhookRetryResultSchema.parse(await retry.json())).toMatchObject({ jobId: failed.jobId, succeeded: false, error: expect.stringContaining(event.data.uploadId) });
      const after = failedWebhookPageSchema.parse(await json('/api/analytics/webhooks/failed?limit=10')).webhooks.find((w) => w.jobId === failed.jobId)!;
      expect(after.webhookRetryCount).toBe(4);
      expect(after.webhookDetails.latestRetryError).toContain(event.data.uploadId);

      // CSRF: a state change without the header is refused and changes nothing
      const noCsrf = await fetch(api('/api/analytics/webhooks/bulk-delete'), { method: 'POST', headers: { cookie: operator.cookie, 'content-type': 'application/json' }, body: JSON.stringify({ jobIds: [failed.jobId] }) });
      expect(noCsrf.status).toBe(403);
      expect((await (await post('/api/analytics/webhooks/bulk-delete', { jobIds: [failed.jobId] })).json())).toEqual({ deleted: 1 });
      expect(failedWebhookPageSchema.parse(await json('/api/analytics/webhooks/failed?limit=100')).webhooks.some((w) => w.jobId === failed.jobId)).toBe(false);
      expect((await post(`/api/analytics/webhooks/${failed.jobId}/retry`)).status).toBe(404);

      expect((await (await post('/api/analytics/errors/bulk-delete', { errorIds: [logged.id] })).json())).toEqual({ deleted: 1 });
      const remaining = errorLogPageSchema.parse(await json('/api/analytics/errors?limit=100'));
      expect(remaining.errors.some((e) => e.id === logged.id)).toBe(false);
      expect((await post('/api/analytics/errors/bulk-delete', { errorIds: ['not-a-uuid'] })).status).toBe(400);
    }, 60000);
  });
});
