/**
 * Closed by default, proven for every route the running gateway serves: the routes are read from
 * the gateway's own start-up log (Nest maps each one), not from a list kept here. For each route:
 * no identity → 401, another person → 404 (the same as a missing object), the owner → the normal
 * answer; operator routes (analytics dashboard) answer only the operator's session cookie, and 401
 * to every bearer token. A route without an example below fails the test, so a new route is covered the day it
 * is added. Also: signed media URLs, gateway sessions, limits (running jobs, uploads, body sizes).
 * Requires the services to be built (`npm run build:services`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { videoSchema, type Video } from '@wordcut/contracts';
import { LOCAL_ANALYTICS_PASSWORD, ROOT } from '../stack/stack';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { Client } from 'pg';
import { eventually } from '../testing/env';
import { startGatewaySession } from '../testing/identity';
import { operatorLogin, type OperatorSessionForTest } from '../testing/operator';
import { startSystem, type TestSystem } from './system';

const PORTS = { gateway: 13600, media: 13601, jobs: 13602, export: 13603, analytics: 13604 };
const MEDIA = join(ROOT, '.data', 'test-media');
const OWNER = 'access-owner';
const SESSION = 'access-session';

/**
 * Routes anyone may call, with their answer to a bare call: health and metrics, the upload page's
 * settings, starting a gateway session, the operator's sign-in status and login (no JSON body: 415).
 */
const PUBLIC_ROUTES: Record<string, number> = {
  'GET /healthz': 200,
  'GET /metrics': 200,
  'GET /api/vtt/status': 200,
  'POST /api/auth/session': 201,
  'GET /api/analytics/status': 200,
  'POST /api/analytics/login': 415,
};

interface Ids {
  video: string;
  transcript: string;
  clip: string;
  job: string;
  session: string;
  moment: string;
  /** a second video of the owner's, for the deletion example */
  spare: string;
}

interface Example {
  /** the path with its parameters filled in */
  path: (ids: Ids) => string;
  body?: (ids: Ids) => unknown;
  /** the owner's normal answer(s) */
  owner: number[];
  /**
   * 'own': the route touches no object of someone else's (the stranger acts on their own behalf),
   * so a stranger gets a normal answer too, never 401 and never the owner's data.
   */
  stranger?: 'own';
  /** routes that change or remove what later examples use run last, in this order */
  late?: number;
  /**
   * An operator route (analytics dashboard): only the operator session cookie opens it (with the
   * CSRF header on state-changing calls); `owner` is then the operator's normal answer, and every
   * bearer token, the owner's included, gets 401.
   */
  operator?: true;
}

const form = () => {
  const f = new FormData();
  f.append('video', new Blob([new Uint8Array(readFileSync(join(MEDIA, 'demo.mp4')))], { type: 'video/mp4' }), 'demo.mp4');
  f.append('vtt', new Blob([readFileSync(join(MEDIA, 'demo.vtt'), 'utf8')], { type: 'text/vtt' }), 'demo.vtt');
  return f;
};

/** One example per route the gateway serves (METHOD + Nest path). */
const EXAMPLES: Record<string, Example> = {
  'GET /api/videos/:id': { path: (i) => `/api/videos/${i.video}`, owner: [200] },
  'PATCH /api/videos/:id': { path: (i) => `/api/videos/${i.video}`, body: () => ({ title: 'Renamed' }), owner: [200] },
  'POST /api/videos/:id/transcribe': { path: (i) => `/api/videos/${i.video}/transcribe`, owner: [409] },
  'GET /api/videos/:id/transcript': { path: (i) => `/api/videos/${i.video}/transcript`, owner: [200] },
  'PATCH /api/transcripts/:id': {
    path: (i) => `/api/transcripts/${i.transcript}`,
    body: () => ({ wordDeltas: [{ word_order: 0, changes: { text: 'Hello' } }] }),
    owner: [200],
  },
  'GET /api/videos/:id/waveform': { path: (i) => `/api/videos/${i.video}/waveform?points=100`, owner: [200] },
  'GET /api/videos/:id/stream/processed': { path: (i) => `/api/videos/${i.video}/stream/processed`, owner: [200] },
  'GET /api/videos/:id/subtitles': { path: (i) => `/api/videos/${i.video}/subtitles`, owner: [200] },
  // before any render: the moment belongs to the version it was found on
  'POST /api/key-moments/:momentId/export': {
    path: (i) => `/api/key-moments/${i.moment}/export`,
    body: () => ({ aspectRatio: '9:16', mode: 'reframe', reframe: { offsetX: 5, offsetY: 0, scale: 1.5 } }),
    owner: [202],
  },
  'POST /api/videos/upload': { path: () => '/api/videos/upload', body: form, owner: [201], stranger: 'own' },
  'POST /api/probe-jobs': {
    path: () => '/api/probe-jobs',
    body: () => {
      const f = new FormData();
      f.append('file', new Blob([new Uint8Array(readFileSync(join(MEDIA, 'tiny.mp4')))], { type: 'video/mp4' }), 'tiny.mp4');
      return f;
    },
    owner: [202],
    stranger: 'own',
  },
  'GET /api/jobs/:jobId/status': { path: (i) => `/api/jobs/${i.job}/status`, owner: [200] },
  'GET /api/video-processing/jobs/:jobId': { path: (i) => `/api/video-processing/jobs/${i.job}`, owner: [200] },
  'GET /api/caption-jobs/:jobId': { path: (i) => `/api/caption-jobs/${i.job.replace(/^cut_/, 'cap_')}`, owner: [404] },
  'GET /api/silence-jobs/:jobId': { path: (i) => `/api/silence-jobs/${i.job.replace(/^cut_/, 'sil_')}`, owner: [404] },
  'GET /api/videos/:id/export/:format': { path: (i) => `/api/videos/${i.video}/export/fcpxml`, owner: [200] },
  'GET /api/videos/:id/job-estimate': { path: (i) => `/api/videos/${i.video}/job-estimate?kind=cut`, owner: [200] },
  'GET /api/jobs/user-jobs': { path: () => '/api/jobs/user-jobs', owner: [200], stranger: 'own' },
  'GET /api/jobs/:jobId': { path: (i) => `/api/jobs/${i.job}`, owner: [200] },
  'POST /api/jobs/:jobId/cancel': { path: (i) => `/api/jobs/${i.job}/cancel`, owner: [200, 409] },
  'POST /api/videos/:id/apply-cuts': { path: (i) => `/api/videos/${i.video}/apply-cuts`, body: () => ({ cuts: [{ start: 1, end: 1.5 }] }), owner: [202, 409] },
  'POST /api/videos/:id/remove-filler-words': { path: (i) => `/api/videos/${i.video}/remove-filler-words`, body: () => ({ fillerWordIndices: [0] }), owner: [202, 409] },
  'POST /api/videos/:id/detect-silence': { path: (i) => `/api/videos/${i.video}/detect-silence`, body: () => ({ minPauseDuration: 0.5 }), owner: [200] },
  'POST /api/videos/:id/find-key-moments': { path: (i) => `/api/videos/${i.video}/find-key-moments`, owner: [200] },
  'GET /api/videos/:id/key-moments': { path: (i) => `/api/videos/${i.video}/key-moments`, owner: [200] },
  'POST /api/videos/:id/process-silence': { path: (i) => `/api/videos/${i.video}/process-silence`, body: () => ({ silenceRanges: [{ start: 2, end: 2.2 }] }), owner: [202, 409] },
  'POST /api/mute/jobs': {
    path: () => '/api/mute/jobs',
    body: (i) => ({ videoId: i.video, pendingMutes: [{ startTime: 1, endTime: 1.4, level: 'whisper' }] }),
    owner: [202, 409],
  },
  'POST /api/videos/:id/reorder': { path: (i) => `/api/videos/${i.video}/reorder`, body: () => ({ groupOrder: [1, 0] }), owner: [202, 409, 422] },
  'POST /api/videos/:id/burn-captions': { path: (i) => `/api/videos/${i.video}/burn-captions`, owner: [202, 409] },
  'POST /api/clips': { path: () => '/api/clips', body: (i) => ({ videoId: i.video, name: 'Second', startTime: 0, endTime: 2, aspectRatio: '1:1' }), owner: [202, 429] },
  'GET /api/videos/:id/clips': { path: (i) => `/api/videos/${i.video}/clips`, owner: [200] },
  'GET /api/clips/:id/download': { path: (i) => `/api/clips/${i.clip}/download`, owner: [200] },
  'GET /api/clips/:id/vtt': { path: (i) => `/api/clips/${i.clip}/vtt`, owner: [200] },
  'DELETE /api/clips/:id': { path: (i) => `/api/clips/${i.clip}`, owner: [200], late: 1 },
  'POST /api/videos/:id/transcript/replace': {
    path: (i) => `/api/videos/${i.video}/transcript/replace`,
    body: () => {
      const f = new FormData();
      f.append('vtt', new Blob(['1\n00:00:00,500 --> 00:00:02,000\nHello from a SubRip file\n'], { type: 'application/x-subrip' }), 'new.srt');
      return f;
    },
    owner: [200, 409],
    late: 1.5,
  },
  'POST /api/videos/:id/revert': { path: (i) => `/api/videos/${i.video}/revert`, owner: [200, 409], late: 2 },
  // after the revert, version 0 is the state it replaced
  'POST /api/videos/:id/versions/:seq/restore': { path: (i) => `/api/videos/${i.video}/versions/0/restore`, body: () => ({}), owner: [200, 409], late: 2.5 },
  'POST /api/provider/sessions': { path: () => '/api/provider/sessions', owner: [200], stranger: 'own' },
  'POST /api/auth/session/refresh': { path: () => '/api/auth/session/refresh', owner: [400], stranger: 'own' },
  'POST /api/wordcut/refresh-token': { path: () => '/api/wordcut/refresh-token', owner: [200], stranger: 'own' },
  'GET /api/wordcut/quota': { path: () => '/api/wordcut/quota', owner: [200], stranger: 'own' },
  'POST /api/jobs/export': {
    path: () => '/api/jobs/export',
    body: (i) => ({ videoId: i.video, sessionId: i.session, saveMainVideo: false, saveVtt: true, idempotencyKey: `access-${i.video}` }),
    owner: [202, 409],
  },
  'POST /api/jobs/:jobId/retry': { path: (i) => `/api/jobs/${i.job}/retry`, owner: [404] },
  'POST /api/provider/sessions/:sessionId/reset': { path: (i) => `/api/provider/sessions/${i.session}/reset`, body: (i) => ({ videoId: i.video }), owner: [200, 409], late: 3 },
  'POST /api/wordcut/clone': { path: () => '/api/wordcut/clone', body: (i) => ({ videoId: i.video }), owner: [200], late: 4 },
  'GET /api/videos/:id/deletion-preview': { path: (i) => `/api/videos/${i.video}/deletion-preview`, owner: [200] },
  'DELETE /api/videos/:id': { path: (i) => `/api/videos/${i.spare}`, owner: [200], late: 5 },
  'GET /api/analytics/videos': { path: () => '/api/analytics/videos?sortBy=name-asc&limit=10', owner: [200], operator: true },
  'GET /api/analytics/videos/bulk-preview': { path: (i) => `/api/analytics/videos/bulk-preview?ids=${i.video}`, owner: [200], operator: true },
  'POST /api/analytics/videos/bulk-delete': { path: () => '/api/analytics/videos/bulk-delete', body: () => ({ videoIds: ['00000000-0000-4000-8000-000000000000'] }), owner: [404], operator: true },
  'GET /api/metrics': { path: () => '/api/metrics', owner: [200], operator: true },
  'GET /api/analytics/lambda-metrics': { path: () => '/api/analytics/lambda-metrics?periodMinutes=60', owner: [200], operator: true },
  'GET /api/analytics/errors': { path: () => '/api/analytics/errors?severity=error&limit=10', owner: [200], operator: true },
  'POST /api/analytics/errors/bulk-delete': { path: () => '/api/analytics/errors/bulk-delete', body: () => ({ errorIds: ['00000000-0000-4000-8000-000000000000'] }), owner: [200], operator: true },
  'GET /api/analytics/webhooks/failed': { path: () => '/api/analytics/webhooks/failed?limit=10', owner: [200], operator: true },
  'POST /api/analytics/webhooks/:jobId/retry': { path: () => '/api/analytics/webhooks/00000000-0000-4000-8000-000000000000/retry', owner: [404], operator: true },
  'POST /api/analytics/webhooks/bulk-delete': { path: () => '/api/analytics/webhooks/bulk-delete', body: () => ({ jobIds: ['00000000-0000-4000-8000-000000000000'] }), owner: [200], operator: true },
  'POST /api/analytics/logout': { path: () => '/api/analytics/logout', owner: [200], operator: true, late: 6 },
};

describe('access: an identity on every route, an owner on every object', () => {
  let sys: TestSystem;
  let ownerToken: string;
  let strangerToken: string;
  let ids: Ids;
  let routes: string[];
  let operator: OperatorSessionForTest;

  const api = (path: string) => sys.api(path);
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const isForm = body instanceof FormData;
    return fetch(api(path), {
      method,
      headers: { ...headers, ...(body !== undefined && !isForm ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
  };
  const getVideo = async (id: string, token = ownerToken): Promise<Video> => videoSchema.parse(await (await fetch(api(`/api/videos/${id}`), { headers: bearer(token) })).json());
  const jobDone = (jobId: string) =>
    eventually(async () => {
      const j = (await (await fetch(api(`/api/jobs/${jobId}/status`), { headers: bearer(ownerToken) })).json()) as { status: string };
      return ['completed', 'failed', 'error', 'cancelled'].includes(j.status) ? j : undefined;
    }, 90000, `job ${jobId} finished`);

  beforeAll(async () => {
    execFileSync('bash', [join(ROOT, 'tools/media/generate-test-media.sh'), MEDIA], { stdio: 'ignore' });
    sys = await startSystem({
      name: 'access',
      ports: PORTS,
      mediaDir: MEDIA,
      importFromSandbox: true,
      env: { UPLOADS_PER_HOUR_PER_USER: '4', RETENTION_DAYS: '1', RETENTION_SWEEP_INTERVAL_MS: '1000' },
    });
    const media = { videoUrl: `${sys.sandbox.url}/media/demo.mp4`, vttUrl: `${sys.sandbox.url}/media/demo.vtt` };
    ownerToken = await sys.sandbox.signToken({ sub: OWNER, sessionId: SESSION, videoId: 'demo', media });
    strangerToken = await sys.sandbox.signToken({ sub: 'access-stranger', sessionId: 'access-other', videoId: 'demo', media });
    const opened = (await (await send('POST', '/api/provider/sessions', bearer(ownerToken))).json()) as { video: { id: string } };
    const video = await eventually(async () => {
      const v = await getVideo(opened.video.id);
      return v.status === 'completed' ? v : v.status === 'failed' ? Promise.reject(new Error(v.vttError ?? 'failed')) : undefined;
    }, 120000, 'the owner video completed');
    const clip = (await (await send('POST', '/api/clips', bearer(ownerToken), { videoId: video.id, name: 'First', startTime: 0, endTime: 2, aspectRatio: '16:9' })).json()) as {
      id: string;
      jobId: string;
    };
    await jobDone(clip.jobId);
    const cut = (await (await send('POST', `/api/videos/${video.id}/apply-cuts`, bearer(ownerToken), { cuts: [{ start: 3, end: 3.5 }] })).json()) as { jobId: string };
    await jobDone(cut.jobId);
    const found = (await (await send('POST', `/api/videos/${video.id}/find-key-moments`, bearer(ownerToken))).json()) as { moments: { id: string }[] };
    const spareToken = await sys.sandbox.signToken({ sub: OWNER, sessionId: `${SESSION}-spare`, videoId: 'demo', media });
    const spare = (await (await send('POST', '/api/provider/sessions', bearer(spareToken))).json()) as { video: { id: string } };
    await eventually(async () => ((await getVideo(spare.video.id)).status === 'completed' ? true : undefined), 120000, 'the spare video completed');
    operator = await operatorLogin(sys.stack.services.gateway.url, LOCAL_ANALYTICS_PASSWORD);
    ids = { video: video.id, transcript: video.transcriptId!, clip: clip.id, job: cut.jobId, session: SESSION, moment: found.moments[0]!.id, spare: spare.video.id };
    routes = sys.stack.services.gateway.lines
      .filter((l) => l['context'] === 'RouterExplorer')
      .map((l) => /^Mapped \{(.+), (\w+)\} route$/.exec(String(l.msg)))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => `${m[2]} ${m[1]}`);
  }, 300000);

  afterAll(async () => {
    await sys?.close();
  });

  it('reads the routes from the running gateway, and every one has an example here', () => {
    expect(routes.length).toBeGreaterThan(30);
    const covered = new Set([...Object.keys(EXAMPLES), ...Object.keys(PUBLIC_ROUTES)]);
    expect(routes.filter((r) => !covered.has(r))).toEqual([]);
    expect(Object.keys(EXAMPLES).filter((r) => !routes.includes(r))).toEqual([]);
  });

  it('answers 401 to a caller without an identity on every route but the public ones', async () => {
    const open: string[] = [];
    for (const route of routes) {
      const [method, path] = route.split(' ') as [string, string];
      const example = EXAMPLES[route];
      const res = await send(method, example ? example.path(ids) : path, {}, example?.body?.(ids));
      if (res.status !== 401) open.push(`${route} → ${res.status}`);
      else expect(await res.json()).toMatchObject({ statusCode: 401 });
    }
    expect(open.sort()).toEqual(Object.entries(PUBLIC_ROUTES).map(([r, status]) => `${r} → ${status}`).sort());
  });

  it('answers 401 to a forged, a foreign-keyed and an expired bearer token', async () => {
    const forged = `${ownerToken.slice(0, -4)}AAAA`;
    const expired = await sys.sandbox.signToken({ sub: OWNER, sessionId: SESSION, videoId: 'demo' }, { expiresInSec: -120 });
    for (const token of [forged, expired, 'not-a-token']) {
      expect((await fetch(api(`/api/videos/${ids.video}`), { headers: bearer(token) })).status).toBe(401);
    }
  });

  it("answers another person 404 on every route that touches the owner's objects, like a missing one", async () => {
    const leaks: string[] = [];
    for (const [route, example] of Object.entries(EXAMPLES)) {
      if (example.stranger === 'own' || example.late) continue;
      const [method] = route.split(' ') as [string];
      const res = await send(method, example.path(ids), bearer(strangerToken), example.body?.(ids));
      // an operator route reads no bearer token at all
      if (res.status !== (example.operator ? 401 : 404)) leaks.push(`${route} → ${res.status}`);
    }
    expect(leaks).toEqual([]);
    // a missing video answers the same body as someone else's
    const missing = await send('GET', `/api/videos/00000000-0000-4000-8000-000000000000`, bearer(strangerToken));
    const foreign = await send('GET', `/api/videos/${ids.video}`, bearer(strangerToken));
    expect(foreign.status).toBe(missing.status);
    const [a, b] = [(await missing.json()) as { code: string }, (await foreign.json()) as { code: string }];
    expect(b.code).toBe(a.code);
  });

  it('runs at most MAX_ACTIVE_JOBS_PER_USER jobs per person at once: 429 with Retry-After beyond', async () => {
    const create = (n: number) => send('POST', '/api/clips', bearer(ownerToken), { videoId: ids.video, name: `Burst ${n}`, startTime: 0, endTime: 2, aspectRatio: '9:16' });
    const answers = await Promise.all([1, 2, 3, 4, 5].map(create));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([202, 202, 202, 429, 429]);
    const refused = answers.find((r) => r.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { message: string }).message).toMatch(/already have 3 jobs running \(the limit is 3\)/);
    for (const r of answers.filter((a) => a.status === 202)) await jobDone(((await r.json()) as { jobId: string }).jobId);
    // room again once they finished
    const after = await create(6);
    expect(after.status).toBe(202);
    await jobDone(((await after.json()) as { jobId: string }).jobId);
  }, 120000);

  it('gives the owner the normal answer on every route (destructive ones last)', async () => {
    const ordered = Object.entries(EXAMPLES).sort(([, a], [, b]) => (a.late ?? 0) - (b.late ?? 0));
    const wrong: string[] = [];
    for (const [route, example] of ordered) {
      const [method] = route.split(' ') as [string];
      if (example.operator) {
        const withToken = await send(method, example.path(ids), bearer(ownerToken), example.body?.(ids));
        if (withToken.status !== 401) wrong.push(`${route} with the owner's bearer token → ${withToken.status}`);
      }
      const res = await send(method, example.path(ids), example.operator ? operator.headers : bearer(ownerToken), example.body?.(ids));
      if (!example.owner.includes(res.status)) wrong.push(`${route} → ${res.status} ${(await res.text()).slice(0, 200)}`);
      // a running job holds the video: let it finish so the next example meets an idle video
      if (res.status === 202) {
        const body = (await res.clone().json().catch(() => ({}))) as { jobId?: string };
        if (body.jobId && !body.jobId.startsWith('exp_')) await jobDone(body.jobId).catch(() => undefined);
      }
    }
    expect(wrong).toEqual([]);
  }, 300000);

  describe('signed media URLs and gateway sessions', () => {
    it('plays the stream from the URL signed for the owner, for that path only', async () => {
      const video = await getVideo(ids.video);
      expect(video.streamUrl).toMatch(new RegExp(`^/api/videos/${ids.video}/stream/processed\\?st=`));
      const res = await fetch(api(video.streamUrl!), { headers: { range: 'bytes=0-99' } });
      expect(res.status).toBe(206);
      const token = new URL(video.streamUrl!, 'http://x').searchParams.get('st')!;
      const otherPath = `/api/videos/00000000-0000-4000-8000-000000000000/stream/processed?st=${token}`;
      expect((await fetch(api(otherPath))).status).toBe(401);
      expect((await fetch(api(`/api/videos/${ids.video}/transcript?st=${token}`))).status).toBe(401);
      expect((await fetch(api(`/api/videos/${ids.video}/stream/processed?st=${token.slice(0, -3)}abc`))).status).toBe(401);
    });

    it('serves the subtitles as WebVTT from the URL signed for the owner, for that path only', async () => {
      const video = await getVideo(ids.video);
      expect(video.subtitlesUrl).toMatch(new RegExp(`^/api/videos/${ids.video}/subtitles\\?st=`));
      const res = await fetch(api(`${video.subtitlesUrl!}&v=${video.mediaVersion}`));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/vtt/);
      expect(await res.text()).toMatch(/^WEBVTT/);
      const token = new URL(video.subtitlesUrl!, 'http://x').searchParams.get('st')!;
      expect((await fetch(api(`/api/videos/${ids.video}/transcript?st=${token}`))).status).toBe(401);
    });

    it('signs clip downloads for the owner', async () => {
      const made = (await (await send('POST', '/api/clips', bearer(ownerToken), { videoId: ids.video, name: 'Signed', startTime: 0, endTime: 2 })).json()) as { jobId: string };
      await jobDone(made.jobId);
      const clips = (await (await fetch(api(`/api/videos/${ids.video}/clips`), { headers: bearer(ownerToken) })).json()) as Array<{ outputPath: string; vttPath: string }>;
      expect(clips.length).toBeGreaterThan(0);
      expect((await fetch(api(clips[0]!.vttPath))).status).toBe(200);
      expect(clips[0]!.outputPath).toContain('?st=');
    });

    it('refreshes a gateway session as the same owner, and a provider token cannot', async () => {
      const session = await startGatewaySession(sys.stack.services.gateway.url);
      expect(session.userId).toMatch(/^wordcut:/);
      const res = await send('POST', '/api/auth/session/refresh', bearer(session.token));
      expect(res.status).toBe(200);
      const refreshed = (await res.json()) as { token: string; userId: string };
      expect(refreshed.userId).toBe(session.userId);
      expect((await send('POST', '/api/auth/session/refresh', bearer(ownerToken))).status).toBe(400);
    });
  });

  describe('owner namespaces', () => {
    it("answers a stranger reusing someone's provider session id 404, naming nothing of that video", async () => {
      const media = { videoUrl: `${sys.sandbox.url}/media/demo.mp4`, vttUrl: `${sys.sandbox.url}/media/demo.vtt` };
      const sessionId = `${SESSION}-namespaces`;
      const opened = await send('POST', '/api/provider/sessions', bearer(await sys.sandbox.signToken({ sub: OWNER, sessionId, videoId: 'demo', media })));
      expect(opened.status).toBe(200);
      const { video } = (await opened.json()) as { video: { id: string; title: string } };
      await eventually(async () => ((await getVideo(video.id)).status === 'completed' ? true : undefined), 120000, 'the session video completed');
      const res = await send('POST', '/api/provider/sessions', bearer(await sys.sandbox.signToken({ sub: 'access-stranger', sessionId, videoId: 'demo', media })));
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain(video.id);
    }, 150000);

    it("keeps a provider subject that looks like a gateway session's owner apart from it", async () => {
      const session = await startGatewaySession(sys.stack.services.gateway.url);
      const up = await send('POST', '/api/videos/upload', bearer(session.token), form());
      expect(up.status).toBe(201);
      const { id } = (await up.json()) as { id: string };
      const lookalike = await sys.sandbox.signToken({ sub: session.userId, sessionId: `lookalike-${id}`, videoId: 'demo' });
      expect((await fetch(api(`/api/videos/${id}`), { headers: bearer(lookalike) })).status).toBe(404);
      // the upload's own session reads it (and its ingest ends before the next test counts objects)
      await eventually(async () => ((await getVideo(id, session.token)).status === 'completed' ? true : undefined), 90000, 'upload completed');
    }, 120000);
  });

  describe('limits', () => {
    it('refuses large JSON bodies before reading them, and reads a large transcript body only once the token verifies', async () => {
      const big = { videoId: ids.video, name: 'x'.repeat(2 * 1024 * 1024), startTime: 0, endTime: 1 };
      const clip = await send('POST', '/api/clips', bearer(ownerToken), big);
      expect(clip.status).toBe(413);
      expect(((await clip.json()) as { message: string }).message).toMatch(/too large/);
      // ~2.6 MB: over the 1 MB default, under the transcript's 24 MB
      const words = Array.from({ length: 20000 }, (_, i) => ({ word_order: i, changes: { text: `word${i}`.padEnd(100, 'x') } }));
      // read only once the token verifies: without one, or with a bogus one, 401 and the body unread
      const anonymous = await send('PATCH', `/api/transcripts/${ids.transcript}`, {}, { wordDeltas: words });
      expect(anonymous.status).toBe(401);
      const started = Date.now();
      const bogus = await send('PATCH', `/api/transcripts/${ids.transcript}`, bearer('not.a.token'), { wordDeltas: words });
      expect(bogus.status).toBe(401);
      expect(Date.now() - started).toBeLessThan(2000);
      const owner = await send('PATCH', `/api/transcripts/${ids.transcript}`, bearer(ownerToken), { wordDeltas: words, version: 1 });
      // read and judged: the body is fine by size, its version is stale
      expect(owner.status).toBe(409);
    });

    it('refuses subtitles with more words than a transcript may hold, with 422, storing nothing', async () => {
      const session = await startGatewaySession(sys.stack.services.gateway.url);
      const at = (sec: number, ms: string) => `00:${String(Math.floor(sec / 60)).padStart(2, '0')}:${String(sec % 60).padStart(2, '0')}.${ms}`;
      const vtt = `WEBVTT\n\n${Array.from({ length: 2001 }, (_, c) => `${at(c, '000')} --> ${at(c, '900')}\n${Array.from({ length: 100 }, (_, w) => `c${c}w${w}`).join(' ')}\n`).join('\n')}`;
      const f = new FormData();
      f.append('video', new Blob([new Uint8Array(readFileSync(join(MEDIA, 'tiny.mp4')))], { type: 'video/mp4' }), 'tiny.mp4');
      f.append('vtt', new Blob([vtt], { type: 'text/vtt' }), 'long.vtt');
      const before = await objectCount('videos/');
      const res = await send('POST', '/api/videos/upload', bearer(session.token), f);
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ code: 'TOO_MANY_WORDS', message: expect.stringMatching(/200,100 words; WordCut edits transcripts of up to 200,000 words/) });
      expect(await objectCount('videos/')).toBe(before);
    });

    it('limits uploads per person per hour: 429 with Retry-After', async () => {
      const session = await startGatewaySession(sys.stack.services.gateway.url);
      const probe = () => {
        const f = new FormData();
        f.append('file', new Blob([new Uint8Array(readFileSync(join(MEDIA, 'tiny.mp4')))], { type: 'video/mp4' }), 'tiny.mp4');
        return send('POST', '/api/probe-jobs', bearer(session.token), f);
      };
      for (let i = 0; i < 4; i++) expect((await probe()).status).toBe(202);
      const refused = await probe();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    });
  });

  describe('retention', () => {
    it('removes a video nobody opened for RETENTION_DAYS, with every object it owned', async () => {
      const session = await startGatewaySession(sys.stack.services.gateway.url);
      const res = await send('POST', '/api/videos/upload', bearer(session.token), form());
      expect(res.status).toBe(201);
      const { id } = (await res.json()) as { id: string };
      await eventually(async () => ((await getVideo(id, session.token)).status === 'completed' ? true : undefined), 90000, 'upload completed');
      expect(await objectCount(`videos/${id}/`)).toBeGreaterThan(0);
      const db = new Client({ connectionString: sys.env.DATABASE_URL });
      await db.connect();
      try {
        await db.query(`UPDATE library.videos SET accessed_at = now() - interval '2 days' WHERE id = $1`, [id]);
        // watched in the database: a GET by the owner is an access and would keep the video
        await eventually(async () => ((await db.query(`SELECT 1 FROM library.videos WHERE id = $1`, [id])).rowCount === 0 ? true : undefined), 20000, 'video removed');
      } finally {
        await db.end();
      }
      expect((await fetch(api(`/api/videos/${id}`), { headers: bearer(session.token) })).status).toBe(404);
      expect(await objectCount(`videos/${id}/`)).toBe(0);
      // the owner's other video, opened today, stays
      expect((await getVideo(ids.video)).id).toBe(ids.video);
    }, 150000);
  });

  async function objectCount(prefix: string): Promise<number> {
    const out = await sys.s3client.send(new ListObjectsV2Command({ Bucket: sys.env.S3_BUCKET, Prefix: prefix }));
    return out.KeyCount ?? 0;
  }
});
