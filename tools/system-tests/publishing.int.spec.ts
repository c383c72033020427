/**
 * Over 400 lines: one running system, sandbox and video serve every publishing case (a stack per file costs more than its length).
 * Publishing, through every service as a real process (real Postgres, NATS, s3rver,
 * ffmpeg) and the provider sandbox: session tokens (forged, expired, wrong audience), token
 * refresh, export jobs with Stripe-style idempotency, quota by day and by month, provider
 * failures (5xx, a connection cut mid-upload) with retries and resumable uploads whose bytes
 * match, signed webhooks (forged, stale and replayed ones refused), clone and reset; one export is one
 * trace across the services (spans collected by an OTLP receiver in this test).
 * Videos answer only their owner (the token's subject): each user here exports a video of their own.
 * Requires the services to be built (`npm run build:services`).
 */
import { exportCreatedSchema, exportJobStatusSchema, videoSchema, type ExportJobStatus, type Video } from '@wordcut/contracts';
import { signWebhook, WEBHOOK_SIGNATURE_HEADER } from '@wordcut/provider';
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyCuts, identityEditList } from '@wordcut/edit-list';
import { expectedFramesForSegments, generateTimecodeMedia, readFrameNumbers } from '../media/timecode-media';
import { eventually } from '../testing/env';
import { SpanCollector } from '../testing/span-collector';
import { startSystem, type TestSystem } from './system';

const PORTS = { gateway: 13500, media: 13501, jobs: 13502, export: 13503, analytics: 13504 };
const WEBHOOK_SECRET = 'whsec_publishing_system_test_0123456789abcdef';
const UPGRADE_URL = 'https://provider.example/upgrade';
const SESSION = 's-publish';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function vttFor(durationSec: number): string {
  const ts = (s: number) => {
    const ms = Math.round(s * 1000);
    return `00:00:${String(Math.floor(ms / 1000)).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;
  };
  const cues: string[] = [];
  for (let t = 0.2, i = 0; t + 0.4 < durationSec; t += 0.6, i++) cues.push(`${ts(t)} --> ${ts(t + 0.4)}\nword${i}${i % 8 === 7 ? '.' : ''}\n`);
  return `WEBVTT\n\n${cues.join('\n')}`;
}

describe('publishing: sessions, export jobs, quota, provider failures, webhooks, clone and reset', () => {
  let sys: TestSystem;
  const spans = new SpanCollector();
  let token: string;
  /** the publisher's first token (session SESSION); `token` becomes the clone's token later */
  let sessionToken: string;
  let video: Video;
  let sourceSha: string;

  const api = (path: string) => sys.api(path);
  const headers = (t: string | null = token) => ({ 'content-type': 'application/json', ...(t ? { authorization: `Bearer ${t}` } : {}) });
  const post = (path: string, body: unknown, t: string | null = token) => fetch(api(path), { method: 'POST', headers: headers(t), body: JSON.stringify(body) });
  const key = () => `${video.id}-${Date.now()}-${randomUUID().slice(0, 8)}`;
  const vttExport = (k = key(), extra: Record<string, unknown> = {}) => ({
    videoId: video.id,
    sessionId: SESSION,
    saveMainVideo: false,
    saveVtt: true,
    mainVideoEdits: { muteSegments: [], captionsEnabled: false, effectsApplied: [] },
    clips: [],
    idempotencyKey: k,
    ...extra,
  });

  const userToken = (sub: string, quotas: { exportsPerDay: number; exportsPerMonth: number }, more: Record<string, unknown> = {}) =>
    sys.sandbox.signToken({
      sub,
      sessionId: SESSION,
      videoId: 'talk',
      plan: { tier: 'test', quotas },
      media: mediaClaims(SESSION),
      ...more,
    });
  const mediaClaims = (session: string) => ({
    videoUrl: `${sys.sandbox.url}/media/talk.mp4`,
    vttUrl: `${sys.sandbox.url}/media/talk.vtt`,
    uploadUrlVideo: `${sys.sandbox.url}/uploads/${session}/video`,
    uploadUrlVtt: `${sys.sandbox.url}/uploads/${session}/vtt`,
    uploadUrlWordByword: `${sys.sandbox.url}/uploads/${session}/wordByword`,
  });

  async function getVideo(id = video.id, t = token): Promise<Video> {
    const res = await fetch(api(`/api/videos/${id}`), { headers: headers(t) });
    expect(res.status).toBe(200);
    return videoSchema.parse(await res.json());
  }

  async function finished(jobId: string, t = token, timeoutMs = 120000): Promise<ExportJobStatus> {
    return eventually(async () => {
      const res = await fetch(api(`/api/jobs/${jobId}/status`), { headers: headers(t) });
      if (res.status !== 200) throw new Error(`status ${res.status}: ${await res.text()}`);
      const s = exportJobStatusSchema.parse(await res.json());
      return s.status === 'completed' || s.status === 'failed' ? s : undefined;
    }, timeoutMs, `export ${jobId}`);
  }

  async function exportOk(body: unknown, t = token): Promise<string> {
    const res = await post('/api/jobs/export', body, t);
    const text = await res.text();
    expect({ status: res.status, text }).toMatchObject({ status: 202 });
    return exportCreatedSchema.parse(JSON.parse(text)).jobId;
  }

  const uploadInits = (kind: string, session = SESSION) =>
    sys.sandbox.requests().filter((r) => r.method === 'POST' && r.path === `/uploads/${session}/${kind}` && r.status < 300);

  beforeAll(async () => {
    const collectorUrl = await spans.start();
    sys = await startSystem({
      name: 'publish',
      ports: PORTS,
      importFromSandbox: true,
      env: {
        PROVIDER_WEBHOOK_SECRET: WEBHOOK_SECRET,
        EXPORT_UPGRADE_URL: UPGRADE_URL,
        PROVIDER_CHUNK_BYTES: String(256 * 1024),
        // every service exports its spans to this test (OTLP/HTTP), a batch every 200 ms
        OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
        OTEL_BSP_SCHEDULE_DELAY: '200',
      },
      webhookSecret: WEBHOOK_SECRET,
    });
    const source = join(sys.dir, 'talk.mp4');
    await generateTimecodeMedia(source, { durationSec: 12, fps: 30, gopFrames: 60 });
    writeFileSync(join(sys.dir, 'talk.vtt'), vttFor(12));
    sourceSha = sha256(readFileSync(source));
    token = await userToken('publisher', { exportsPerDay: 50, exportsPerMonth: 500 });
    sessionToken = token;
    video = await openSession(token);
  }, 240000);

  /** Opens the provider session of `t` (its video is imported for the token's user) and waits until the video is ready. */
  async function openSession(t: string): Promise<Video> {
    const res = await fetch(api('/api/provider/sessions'), { method: 'POST', headers: headers(t) });
    expect(res.status).toBe(200);
    const { video: v } = (await res.json()) as { video: { id: string } };
    return eventually(async () => {
      const got = await getVideo(v.id, t);
      return got.status === 'completed' ? got : got.status === 'failed' ? Promise.reject(new Error(got.vttError ?? 'failed')) : undefined;
    }, 90000, 'session video imported');
  }

  afterAll(async () => {
    await sys?.close();
    await spans.close();
  });

  beforeEach(() => sys.sandbox.clearFaults());

  describe('tracing', () => {
    it('one export is one trace: the request, the export service, its worker, the sources from the gateway and the uploads', async () => {
      const jobId = await exportOk(vttExport());
      await finished(jobId);
      // the gateway's server span of POST /api/jobs/export is the root
      const root = await eventually(async () => spans.spans.find((s) => s.service === 'gateway' && s.parentSpanId === null && /POST/.test(s.name) && spans.trace(s.traceId).some((x) => x.service === 'export')), 20000, 'the export request span');
      const tree = await eventually(async () => {
        const t = spans.trace(root.traceId);
        return t.some((s) => s.service === 'export' && /export\.run/.test(s.name)) && t.some((s) => s.service === 'gateway' && /export-sources/.test(s.name)) ? t : undefined;
      }, 20000, 'the run and its sources in the same trace');
      expect(tree.length).toBeGreaterThan(5);
      const ids = new Set(tree.map((s) => s.spanId));
      const orphans = tree.filter((s) => s.spanId !== root.spanId && (s.parentSpanId === null || !ids.has(s.parentSpanId)));
      expect(orphans.map((s) => `${s.service}: ${s.name}`)).toEqual([]);
      expect([...new Set(tree.map((s) => s.service))].sort()).toEqual(expect.arrayContaining(['export', 'gateway']));
      // the provider's upload calls are client spans of the same trace (kind 3 = CLIENT)
      expect(tree.some((s) => s.service === 'export' && s.kind === 3)).toBe(true);
    }, 150000);
  });

  describe('session tokens', () => {
    it('refuses forged, expired and wrong-audience tokens with 401, and a missing one with the route\'s own message', async () => {
      const forged = await sys.sandbox.signToken({ sub: 'publisher', sessionId: SESSION, videoId: 'talk' }, { key: 'forged' });
      const expired = await sys.sandbox.signToken({ sub: 'publisher', sessionId: SESSION, videoId: 'talk' }, { expiresInSec: -120 });
      const wrongAud = await sys.sandbox.signToken({ sub: 'publisher', sessionId: SESSION, videoId: 'talk' }, { audience: 'someone-else' });
      for (const bad of [forged, expired, wrongAud]) {
        const exp = await post('/api/jobs/export', vttExport(), bad);
        expect(exp.status).toBe(401);
        expect(((await exp.json()) as { error: string }).error).toBe('unauthorized');
        expect((await post('/api/wordcut/refresh-token', {}, bad)).status).toBe(401);
        expect((await post('/api/wordcut/clone', { videoId: video.id }, bad)).status).toBe(401);
        expect((await fetch(api(`/api/jobs/export_${randomUUID()}/status`), { headers: headers(bad) })).status).toBe(401);
      }
      // no token at all: the gateway's identity guard refuses before the route runs, in the export error shape and words
      const none = await post('/api/jobs/export', vttExport(), null);
      expect(none.status).toBe(401);
      expect(await none.json()).toMatchObject({ error: 'unauthorized', message: 'JWT token required for export. Please refresh the page.' });
      const retry = await post(`/api/jobs/export_${randomUUID()}/retry`, {}, null);
      expect(await retry.json()).toMatchObject({ error: 'invalid_request', message: 'Job ID and token required' });
    });

    it('refresh-token answers a new verified token, the media URLs and the server-counted usage', async () => {
      const res = await post('/api/wordcut/refresh-token', undefined);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { newToken: string; newUploadUrls: { video: string }; plan: { tier: string }; usage: { exportsToday: number; maxPerDay: number } };
      expect(body.newToken).not.toBe(token);
      expect(body.newUploadUrls.video).toBe(`${sys.sandbox.url}/uploads/${SESSION}/video`);
      expect(body.plan.tier).toBe('test');
      expect(body.usage).toMatchObject({ maxPerDay: 50 });
      // the new token works
      const q = await fetch(api('/api/wordcut/quota'), { headers: headers(body.newToken) });
      expect(q.status).toBe(200);
    });

    it('a token of another session cannot export this video; another person is told it does not exist', async () => {
      const other = await sys.sandbox.signToken({ sub: 'publisher', sessionId: 's-elsewhere', videoId: 'x' });
      const res = await post('/api/jobs/export', { ...vttExport(), sessionId: 's-elsewhere' }, other);
      expect(res.status).toBe(403);
      // someone else, even with a token naming this very session: the same answer as a missing video
      const stranger = await userToken('someone-else', { exportsPerDay: 50, exportsPerMonth: 500 });
      const foreign = await post('/api/jobs/export', vttExport(), stranger);
      const missing = await post('/api/jobs/export', { ...vttExport(), videoId: randomUUID() }, stranger);
      expect([foreign.status, missing.status]).toEqual([404, 404]);
      expect(((await foreign.json()) as { error: string }).error).toBe(((await missing.json()) as { error: string }).error);
    });
  });

  describe('export jobs', () => {
    it('the same idempotency key (twice at once, then again) creates one job and uploads once; another body is refused', async () => {
      const k = key();
      const before = uploadInits('vtt').length;
      const [a, b] = await Promise.all([post('/api/jobs/export', vttExport(k)), post('/api/jobs/export', vttExport(k))]);
      expect([a.status, b.status]).toEqual([202, 202]);
      const [ja, jb] = [exportCreatedSchema.parse(await a.json()), exportCreatedSchema.parse(await b.json())];
      expect(ja.jobId).toBe(jb.jobId);
      const done = await finished(ja.jobId);
      expect(done.status).toBe('completed');
      const again = await post('/api/jobs/export', vttExport(k));
      expect(again.status).toBe(202);
      expect(exportCreatedSchema.parse(await again.json()).jobId).toBe(ja.jobId);
      expect(uploadInits('vtt').length - before).toBe(1);
      const changed = await post('/api/jobs/export', vttExport(k, { saveMainVideo: true }));
      expect(changed.status).toBe(422);
      expect(((await changed.json()) as { error: string }).error).toBe('idempotency_key_reused');
    });

    it('provider 5xx answers are retried with backoff and the export completes; the stored bytes match the source', async () => {
      sys.sandbox.addFault({ match: { method: 'PUT', path: '^/uploads/resumable/' }, action: { kind: 'status', status: 503 }, times: 2 });
      const jobId = await exportOk(vttExport(key(), { saveMainVideo: true, saveVtt: false }));
      const done = await finished(jobId);
      expect(done.status).toBe('completed');
      expect(done.items.find((i) => i.type === 'main_video')).toMatchObject({ status: 'uploaded' });
      const failed503 = sys.sandbox.requests().filter((r) => r.path.startsWith('/uploads/resumable/') && r.status === 503);
      expect(failed503.length).toBeGreaterThanOrEqual(2);
      const lib = sys.sandbox.library();
      const main = lib.find((v) => v.sessionId === SESSION)?.files.video;
      expect(main?.sha256).toBe(sourceSha);
      expect((await getVideo()).providerMainVideoUploadStatus).toBe('uploaded');
    });

    it('a connection cut mid-upload resumes from the last received byte and the bytes match', async () => {
      const initsBefore = uploadInits('video').length;
      sys.sandbox.addFault({ match: { method: 'PUT', path: '^/uploads/resumable/' }, action: { kind: 'cut', afterBytes: 100 * 1024 }, times: 1 });
      const jobId = await exportOk(vttExport(key(), { saveMainVideo: true, saveVtt: false }));
      const done = await finished(jobId);
      expect(done.status).toBe('completed');
      expect(uploadInits('video').length - initsBefore).toBe(1);
      const puts = sys.sandbox.requests().filter((r) => r.method === 'PUT' && r.path.startsWith('/uploads/resumable/'));
      // after the cut, the client asked where to resume (or resent from a non-zero offset), never from byte 0 again
      const resumed = puts.filter((r) => r.contentRange && !/^bytes 0-/.test(r.contentRange));
      expect(resumed.length).toBeGreaterThan(0);
      const main = sys.sandbox.library().find((v) => v.sessionId === SESSION)?.files.video;
      expect(main?.sha256).toBe(sourceSha);
    });

    it('one export of a video at a time: another request meanwhile answers 409 export_in_progress naming the running job', async () => {
      // the provider holds the first upload creation for 3 s, so the first export is still running
      sys.sandbox.addFault({ match: { method: 'POST', path: `^/uploads/${SESSION}/vtt` }, action: { kind: 'timeout', ms: 3000 }, times: 1 });
      const first = await exportOk(vttExport(key()));
      const k2 = key();
      const second = await post('/api/jobs/export', vttExport(k2));
      expect(second.status).toBe(409);
      expect(await second.json()).toMatchObject({
        error: 'export_in_progress',
        jobId: first,
        message: 'This video is already being published. Its export is shown; publish again when it has finished.',
      });
      // the refusal is not kept under its key: once the first has finished, the same request is accepted
      expect((await finished(first)).status).toBe('completed');
      const again = await post('/api/jobs/export', vttExport(k2));
      expect(again.status).toBe(202);
      const againId = exportCreatedSchema.parse(await again.json()).jobId;
      expect(againId).not.toBe(first);
      expect((await finished(againId)).status).toBe('completed');
    });

    it('unapplied mute segments are rendered, each at its level, before the main video is uploaded', async () => {
      const muteSegments = [
        { start: 2, end: 3 },
        { start: 5, end: 6, level: 'whisper' as const },
      ];
      const jobId = await exportOk(vttExport(key(), { saveMainVideo: true, saveVtt: false, mainVideoEdits: { muteSegments, captionsEnabled: false, effectsApplied: [] } }));
      const done = await finished(jobId, token, 180000);
      expect(done.status).toBe('completed');
      const v = await getVideo();
      // a segment without a level is silence; the whisper is rendered as one
      expect(v.mutedSegments.some((m) => m.start <= 2.05 && m.end >= 2.95 && m.volume === 0)).toBe(true);
      expect(v.mutedSegments.some((m) => m.start <= 5.05 && m.end >= 5.95 && m.volume === 0.1)).toBe(true);
      const main = sys.sandbox.library().find((x) => x.sessionId === SESSION)?.files.video;
      expect(main?.sha256).not.toBe(sourceSha);
    }, 200000);
  });

  describe('quota', () => {
    /** a user of their own with the plan `quotas`, whose session's video is imported and ready (videos answer only their owner) */
    const quotaUser = async (sub: string, quotas: { exportsPerDay: number; exportsPerMonth: number }) => {
      const session = `s-${sub}`;
      const more = { sessionId: session, media: mediaClaims(session) };
      const t = await userToken(sub, quotas, more);
      const own = await openSession(t);
      const exportOf = () => vttExport(key(), { videoId: own.id, sessionId: session });
      return { t, more, exportOf };
    };

    it('by day: exportsPerDay is counted on the server; over it answers 429 quota_exceeded with retryAfter and upgradeUrl', async () => {
      const { t, more, exportOf } = await quotaUser('quota-day', { exportsPerDay: 1, exportsPerMonth: 100 });
      await finished(await exportOk(exportOf(), t), t);
      const res = await post('/api/jobs/export', exportOf(), t);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body).toMatchObject({ error: 'quota_exceeded', message: 'Export quota exceeded. Please upgrade your plan or wait until the quota resets.', upgradeUrl: UPGRADE_URL });
      expect(String(body['details'])).toMatch(/dai|day/i);
      // the browser cannot talk its way past it: a token claiming zero usage changes nothing
      const claimsZero = await userToken('quota-day', { exportsPerDay: 1, exportsPerMonth: 100 }, { ...more, usageSnapshot: { exportsToday: 0, exportsThisMonth: 0 } });
      expect((await post('/api/jobs/export', exportOf(), claimsZero)).status).toBe(429);
    }, 150000);

    it('by month: exportsPerMonth is counted on the server too', async () => {
      const { t, exportOf } = await quotaUser('quota-month', { exportsPerDay: 10, exportsPerMonth: 2 });
      // one export of a video at a time: each is let finish before the next
      await finished(await exportOk(exportOf(), t), t);
      await finished(await exportOk(exportOf(), t), t);
      const res = await post('/api/jobs/export', exportOf(), t);
      expect(res.status).toBe(429);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body['error']).toBe('quota_exceeded');
      expect(String(body['details'])).toMatch(/month/i);
      const q = (await (await fetch(api('/api/wordcut/quota'), { headers: headers(t) })).json()) as { exportsThisMonth: number; maxPerMonth: number };
      expect(q).toMatchObject({ exportsThisMonth: 2, maxPerMonth: 2 });
    }, 150000);
  });

  describe('webhooks', () => {
    const hook = (raw: string, signature: string | undefined) =>
      fetch(`${sys.stack.services.export.url}/webhooks/provider`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature ? { [WEBHOOK_SIGNATURE_HEADER]: signature } : {}) },
        body: raw,
      });

    it('the provider confirms uploads with signed webhooks, which the export records', async () => {
      const jobId = await exportOk(vttExport());
      await finished(jobId);
      const confirmed = await eventually(async () => {
        const s = exportJobStatusSchema.parse(await (await fetch(api(`/api/jobs/${jobId}/status`), { headers: headers() })).json());
        return s.items.every((i) => i.providerConfirmed) ? s : undefined;
      }, 30000, 'webhook confirmation');
      expect(confirmed.items.length).toBeGreaterThan(0);
    });

    it('refuses forged, stale and replayed webhooks', async () => {
      const event = {
        id: `evt_${randomUUID()}`,
        type: 'video.ready',
        createdAt: new Date().toISOString(),
        data: { sessionId: SESSION, uploadId: 'unknown-upload', kind: 'vtt', providerVideoId: 'talk' },
      };
      const raw = JSON.stringify(event);
      const now = Math.floor(Date.now() / 1000);
      expect((await hook(raw, undefined)).status).toBe(401);
      expect((await hook(raw, signWebhook('not-the-secret-not-the-secret-0123456789', raw, now))).status).toBe(401);
      expect((await hook(raw.replace('video.ready', 'upload.failed'), signWebhook(WEBHOOK_SECRET, raw, now))).status).toBe(401);
      expect((await hook(raw, signWebhook(WEBHOOK_SECRET, raw, now - 3600))).status).toBe(401);
      const first = await hook(raw, signWebhook(WEBHOOK_SECRET, raw, now));
      expect(first.status).toBe(202);
      const replay = await hook(raw, signWebhook(WEBHOOK_SECRET, raw, now + 1));
      expect(replay.status).toBe(200);
      expect(await replay.json()).toMatchObject({ duplicate: true });
    });
  });

  describe('clone and reset', () => {
    it('clone links the video to a new provider video; exports with the new token land there; a clone cannot be cloned', async () => {
      const res = await post('/api/wordcut/clone', { videoId: video.id });
      expect(res.status).toBe(200);
      const cloned = (await res.json()) as { token: string; sessionId: string; providerVideoId: string };
      expect(cloned.sessionId).not.toBe(SESSION);
      const v = await getVideo();
      expect(v).toMatchObject({ providerIsClone: true, providerSessionId: cloned.sessionId, providerVideoId: cloned.providerVideoId });
      const jobId = await exportOk({ ...vttExport(), sessionId: cloned.sessionId, token: cloned.token }, token);
      expect((await finished(jobId, cloned.token)).status).toBe('completed');
      const lib = sys.sandbox.library();
      const target = lib.find((x) => x.sessionId === cloned.sessionId);
      expect(target?.isClone).toBe(true);
      expect(target?.files.vtt?.bytes).toBeGreaterThan(0);
      const again = await post('/api/wordcut/clone', { videoId: video.id }, cloned.token);
      expect(again.status).toBe(409);
      expect(await again.json()).toMatchObject({ message: 'This video is already a clone' });
      token = cloned.token;
    });

    it('reset reverts the video to its original and says which files changed', async () => {
      const session = (await getVideo()).providerSessionId!;
      const res = await post(`/api/provider/sessions/${session}/reset`, { videoId: video.id });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ success: true, filesUpdated: { video: true } });
      const v = await getVideo();
      expect(v).toMatchObject({ processedFilename: null, mutedSegments: [], providerMainVideoUploadStatus: 'none' });
      const twice = await post(`/api/provider/sessions/${session}/reset`, { videoId: video.id });
      expect(await twice.json()).toMatchObject({ filesUpdated: { video: false, transcript: false } });
      // the publisher's token of the session before the clone cannot reset the clone's session
      expect((await post(`/api/provider/sessions/${session}/reset`, { videoId: video.id }, sessionToken)).status).toBe(403);
      // the session before the clone has no video any more
      expect((await post(`/api/provider/sessions/${SESSION}/reset`, { videoId: video.id })).status).toBe(404);
      // another person, even with a token naming this session, is told it has no video
      const stranger = await sys.sandbox.signToken({ sub: 'someone-else', sessionId: session, videoId: 'x' });
      const foreign = await post(`/api/provider/sessions/${session}/reset`, { videoId: video.id }, stranger);
      expect(foreign.status).toBe(404);
      expect(await foreign.json()).toMatchObject({ error: 'not_found' });
    });
  });

  describe('recordings in MKV and WebM', () => {
    it.each([
      ['an OBS MKV (H.264 + Opus)', 'obs', 'mkv', { codec: 'h264' as const }],
      ['a browser WebM (VP9 + Opus)', 'screen', 'webm', { codec: 'vp9' as const }],
    ])('%s comes in from the provider, is cut, and the cut is published as an MP4 of the right frames', async (_what, base, ext, o) => {
      const session = `s-${base}`;
      await generateTimecodeMedia(join(sys.dir, `${base}.${ext}`), { durationSec: 6, fps: 30, gopFrames: 30, audioCodec: 'opus', ...o });
      writeFileSync(join(sys.dir, `${base}.vtt`), vttFor(6));
      const t = await sys.sandbox.signToken({
        sub: `recorder-${base}`,
        sessionId: session,
        videoId: base,
        plan: { tier: 'test', quotas: { exportsPerDay: 50, exportsPerMonth: 500 } },
        media: { ...mediaClaims(session), videoUrl: `${sys.sandbox.url}/media/${base}.${ext}`, vttUrl: `${sys.sandbox.url}/media/${base}.vtt` },
      });
      const recording = await openSession(t);
      const cuts = [{ start: 1.0, end: 2.0 }];
      const cut = await post(`/api/videos/${recording.id}/apply-cuts`, { cuts }, t);
      expect(cut.status).toBe(202);
      const { jobId: cutJob } = (await cut.json()) as { jobId: string };
      await eventually(async () => {
        const job = (await (await fetch(api(`/api/video-processing/jobs/${cutJob}`), { headers: headers(t) })).json()) as { status: string };
        return job.status === 'completed' ? job : ['failed', 'error', 'cancelled'].includes(job.status) ? Promise.reject(new Error(JSON.stringify(job))) : undefined;
      }, 120000, 'cut rendered');

      const published = await exportOk({ ...vttExport(key(), { saveMainVideo: true, saveVtt: false }), videoId: recording.id, sessionId: session }, t);
      expect((await finished(published, t)).status).toBe('completed');
      const providerVideo = sys.sandbox.library().find((v) => v.sessionId === session)!;
      const res = await fetch(`${sys.sandbox.url}/library/files/${providerVideo.videoId}/video`);
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
      const out = join(sys.dir, `${base}.published.mp4`);
      writeFileSync(out, bytes);
      expect(await readFrameNumbers(out)).toEqual(expectedFramesForSegments(applyCuts(identityEditList(recording.duration!), cuts).segments, 30));
    }, 180000);
  });
});
