/**
 * Key moments through every service as a real process (Postgres, NATS, s3rver, ffmpeg), on the
 * synthesised lesson of tools/media/generate-test-media.sh: flat sentences, a numbered list of four
 * steps and a short aphorism, spoken by espeak-ng with word-level captions. find-key-moments answers
 * 5 to 10 moments on sentence boundaries, none overlapping, the whole list as one Actionable moment
 * and the aphorism as a Quotable one; they are stored per version and owned like the video. With a
 * language model configured (a local fake OpenAI-compatible endpoint), its checked answer is used,
 * and a broken answer falls back on the local analyser.
 * Requires the services to be built (`npm run build:services`).
 */
import { keyMomentsResponseSchema, videoSchema, type KeyMomentsResponse, type Video } from '@wordcut/contracts';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { lessonMedia, type LessonTruth } from '../media/talk-media';
import { ROOT } from '../stack/stack';
import { eventually } from '../testing/env';
import { bearer } from '../testing/identity';
import { startSystem, type TestSystem } from './system';

const PORTS = { gateway: 13850, media: 13851, jobs: 13852, export: 13853, analytics: 13854 };
const MEDIA = join(ROOT, '.data', 'test-media');
/** Caption times are written to the millisecond. */
const EDGE = 0.002;

/** Uploads the lesson as `token`'s and waits until it is ready. */
async function uploadLesson(sys: TestSystem, token: string, lesson: { mp4: string; vtt: string }): Promise<Video> {
  const form = new FormData();
  form.append('video', new Blob([new Uint8Array(readFileSync(lesson.mp4))], { type: 'video/mp4' }), 'lesson.mp4');
  form.append('vtt', new Blob([readFileSync(lesson.vtt, 'utf8')], { type: 'text/vtt' }), 'lesson.vtt');
  const res = await fetch(sys.api('/api/videos/upload'), { method: 'POST', body: form, headers: bearer(token) });
  expect(res.status).toBe(201);
  const created = videoSchema.parse(await res.json());
  return eventually(async () => {
    const v = videoSchema.parse(await (await fetch(sys.api(`/api/videos/${created.id}`), { headers: bearer(token) })).json());
    return v.status === 'completed' ? v : v.status === 'failed' ? Promise.reject(new Error(v.vttError ?? 'failed')) : undefined;
  }, 90000, 'upload completed');
}

describe('key moments: a synthesised lesson', () => {
  let sys: TestSystem;
  let truth: LessonTruth;
  let token: string;
  let strangerToken: string;
  let video: Video;

  const api = (path: string) => sys.api(path);
  const find = (id: string, t = token) => fetch(api(`/api/videos/${id}/find-key-moments`), { method: 'POST', headers: bearer(t) });
  const stored = (id: string, t = token) => fetch(api(`/api/videos/${id}/key-moments`), { headers: bearer(t) });
  const answer = async (res: Response): Promise<KeyMomentsResponse> => {
    expect(res.status).toBe(200);
    return keyMomentsResponseSchema.parse(await res.json());
  };
  /** The sentence of the lesson starting (or ending) at t, within a caption's rounding. */
  const startingAt = (t: number) => truth.sentences.findIndex((s) => Math.abs(s.start - t) <= EDGE);
  const endingAt = (t: number) => truth.sentences.findIndex((s) => Math.abs(s.end - t) <= EDGE);

  beforeAll(async () => {
    const lesson = lessonMedia(MEDIA);
    truth = lesson.truth;
    sys = await startSystem({ name: 'keymoments', ports: PORTS });
    token = await sys.sandbox.signToken({ sub: 'user-keymoments', sessionId: 's-keymoments', videoId: 'lesson' });
    strangerToken = await sys.sandbox.signToken({ sub: 'someone-else', sessionId: 's-other', videoId: 'other' });
    video = await uploadLesson(sys, token, lesson);
  }, 240000);

  afterAll(async () => {
    await sys?.close();
  });

  it('has no moments before the first analysis', async () => {
    expect(await answer(await stored(video.id))).toEqual({ moments: [], analysedAt: null, source: null });
  });

  it('finds 5 to 10 moments on sentence boundaries, none overlapping: the list as Actionable, the aphorism as Quotable', async () => {
    const { moments, source, analysedAt } = await answer(await find(video.id));
    expect(source).toBe('local');
    expect(analysedAt).not.toBeNull();
    expect(moments.length).toBeGreaterThanOrEqual(5);
    expect(moments.length).toBeLessThanOrEqual(10);
    const spans = moments.map((m) => ({ m, first: startingAt(m.startTime), last: endingAt(m.endTime) }));
    for (const { m, first, last } of spans) {
      expect({ title: m.title, first: first >= 0, last: last >= first }).toEqual({ title: m.title, first: true, last: true });
      expect(m.duration).toBeCloseTo(m.endTime - m.startTime, 2);
      expect(m.duration).toBeLessThanOrEqual(60);
      expect(m.reasons.length).toBeGreaterThan(0);
    }
    const byTime = [...spans].sort((a, b) => a.first - b.first);
    for (let k = 1; k < byTime.length; k++) expect(byTime[k]!.first).toBeGreaterThan(byTime[k - 1]!.last);

    const steps = truth.sentences.flatMap((s, k) => (s.kind === 'step' ? [k] : []));
    const actionable = spans.find(({ m }) => m.category === 'Actionable');
    expect(actionable).toBeDefined();
    expect(actionable!.first).toBeLessThanOrEqual(steps[0]!);
    expect(actionable!.last).toBeGreaterThanOrEqual(steps[steps.length - 1]!);
    expect(actionable!.m.reasons[0]).toBe('Lists 4 steps: ‘First’, ‘Second’, ‘Third’, ‘Finally’');

    const quote = truth.sentences.findIndex((s) => s.kind === 'quote');
    const quotable = spans.find(({ m }) => m.category === 'Quotable');
    expect(quotable).toBeDefined();
    expect(quotable!.first).toBeLessThanOrEqual(quote);
    expect(quotable!.last).toBeGreaterThanOrEqual(quote);
    expect(quotable!.m.title).toBe(truth.sentences[quote]!.text.replace(/\.$/, ''));
    // the two written to stand out rank above the flat stretches
    expect(moments.slice(0, 2).map((m) => m.category).sort()).toEqual(['Actionable', 'Quotable']);
  });

  it('finds a stretch of slides in the picture as Visual, from the scene changes a media worker stored', async () => {
    // the lesson's sound under a grey picture that shows five slides while its first four (flat) sentences are read
    const dir = mkdtempSync(join(tmpdir(), 'wordcut-slides-'));
    try {
      const slides = [1.5, 4.5, 7.5, 10.5, 13.5];
      const colours = ['red', 'yellow', 'green', 'blue', 'white'];
      const boxes = slides.map((t, k) => `drawbox=x=40:y=30:w=240:h=180:color=${colours[k]}:t=fill:enable='between(t,${t},${slides[k + 1] ?? 16.4})'`).join(',');
      const mp4 = join(dir, 'slides.mp4');
      execFileSync('ffmpeg', [
        '-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=gray:s=320x240:r=25:d=${truth.duration}`, '-i', join(MEDIA, 'lesson.mp4'),
        '-filter_complex', `[0:v]${boxes},format=yuv420p[v]`, '-map', '[v]', '-map', '1:a', '-c:v', 'libx264', '-preset', 'ultrafast',
        '-force_key_frames', ['0', ...slides, 16.4].join(','), '-g', '250', '-c:a', 'copy', '-shortest', '-movflags', '+faststart', mp4,
      ]);
      const withSlides = await uploadLesson(sys, token, { mp4, vtt: join(MEDIA, 'lesson.vtt') });
      const { moments } = await answer(await find(withSlides.id));
      const visual = moments.find((m) => m.category === 'Visual');
      expect(visual).toBeDefined();
      expect(visual!.startTime).toBeLessThanOrEqual(slides[0]!);
      expect(visual!.endTime).toBeGreaterThanOrEqual(slides[slides.length - 1]!);
      expect(visual!.reasons.join(' ')).toMatch(/The picture changes [5-6] times/);
      const stored = await sys.s3client.send(new GetObjectCommand({ Bucket: sys.env.S3_BUCKET, Key: `videos/${withSlides.id}/waveform/original.scenes.json` }));
      const scenes = JSON.parse(await stored.Body!.transformToString()) as { times: number[] };
      expect(scenes.times.slice(0, 5).map((t) => Math.round(t * 10) / 10)).toEqual(slides);
      // the plain lesson (one unchanging picture) has no Visual moment
      expect((await answer(await find(video.id))).moments.some((m) => m.category === 'Visual')).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120000);

  it('answers a repeat and the GET from the store, another person 404 like a missing video, no identity 401', async () => {
    const first = await answer(await find(video.id));
    expect(await answer(await find(video.id))).toEqual(first);
    expect(await answer(await stored(video.id))).toEqual(first);
    for (const call of [find, stored]) {
      const foreign = await call(video.id, strangerToken);
      const missing = await call('00000000-0000-4000-8000-000000000000', strangerToken);
      expect([foreign.status, missing.status]).toEqual([404, 404]);
      expect(((await foreign.json()) as { code: string }).code).toBe(((await missing.json()) as { code: string }).code);
    }
    expect((await fetch(api(`/api/videos/${video.id}/find-key-moments`), { method: 'POST' })).status).toBe(401);
    expect((await fetch(api(`/api/videos/${video.id}/key-moments`))).status).toBe(401);
  });
});

describe('key moments: with a language model configured', () => {
  let sys: TestSystem;
  let server: Server;
  let token: string;
  let truth: LessonTruth;
  let lesson: { mp4: string; vtt: string };
  /** what the fake endpoint answers next */
  let reply = '';
  const asked: Array<{ model: string; sentences: number }> = [];

  beforeAll(async () => {
    const media = lessonMedia(MEDIA);
    truth = media.truth;
    lesson = media;
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        const request = JSON.parse(body) as { model: string; messages: Array<{ content: string }> };
        asked.push({ model: request.model, sentences: request.messages[1]!.content.split('\n').length });
        res.writeHead(200, { 'content-type': 'application/json' }).end(reply);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    sys = await startSystem({ name: 'keymoments-llm', ports: { gateway: 13860, media: 13861, jobs: 13862, export: 13863, analytics: 13864 }, env: { KEY_MOMENTS_LLM_URL: url, KEY_MOMENTS_LLM_MODEL: 'fake-model', KEY_MOMENTS_LLM_API_KEY: 'k', KEY_MOMENTS_LLM_TIMEOUT_MS: '5000' } });
    token = await sys.sandbox.signToken({ sub: 'user-keymoments-llm', sessionId: 's-keymoments-llm', videoId: 'lesson' });
  }, 240000);

  afterAll(async () => {
    await sys?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  const find = async (id: string): Promise<KeyMomentsResponse> => {
    const res = await fetch(sys.api(`/api/videos/${id}/find-key-moments`), { method: 'POST', headers: bearer(token) });
    expect(res.status).toBe(200);
    return keyMomentsResponseSchema.parse(await res.json());
  };

  it('uses the model’s checked answer: sentence numbers become the sentences’ own times', async () => {
    const video = await uploadLesson(sys, token, lesson);
    const pick = (first: number, last: number, category: string, engagement: number) => ({ firstSentence: first, lastSentence: last, category, title: `Moment ${first}`, description: 'Said here.', engagement, reasons: ['chosen'] });
    reply = JSON.stringify({ choices: [{ message: { content: JSON.stringify({ moments: [pick(4, 7, 'Actionable', 90), pick(10, 12, 'Quotable', 80), pick(0, 2, 'High-impact', 40), pick(8, 9, 'Entertaining', 30), pick(13, 14, 'Visual', 20)] }) } }] });
    const answer = await find(video.id);
    expect(answer.source).toBe('llm');
    expect(asked[asked.length - 1]).toEqual({ model: 'fake-model', sentences: truth.sentences.length });
    expect(answer.moments.map((m) => m.title)).toEqual(['Moment 4', 'Moment 10', 'Moment 0', 'Moment 8', 'Moment 13']);
    const list = answer.moments[0]!;
    expect(list.startTime).toBeCloseTo(truth.sentences[4]!.start, 2);
    expect(list.endTime).toBeCloseTo(truth.sentences[7]!.end, 2);
    // a second request answers from the store, without asking again
    const count = asked.length;
    expect(await find(video.id)).toEqual(answer);
    expect(asked.length).toBe(count);
  });

  it('falls back on the local analyser when the answer is broken', async () => {
    const video = await uploadLesson(sys, token, lesson);
    reply = JSON.stringify({ choices: [{ message: { content: '{"moments": "none, ignore the schema"' } }] });
    const answer = await find(video.id);
    expect(answer.source).toBe('local');
    expect(answer.moments.map((m) => m.category)).toEqual(expect.arrayContaining(['Actionable', 'Quotable']));
  });
});

describe('key moments: a job of the media workers', () => {
  let sys: TestSystem;
  let token: string;
  let video: Video;
  const api = (path: string) => sys.api(path);
  const status = async (jobId: string) => (await (await fetch(api(`/api/jobs/${jobId}/status`), { headers: bearer(token) })).json()) as { kind: string; status: string; progress: number; message: string };

  beforeAll(async () => {
    const lesson = lessonMedia(MEDIA);
    // the request answers at once (202) and the worker waits 3 s before it analyses, so the test can cancel
    sys = await startSystem({ name: 'keymoments-job', ports: { gateway: 13870, media: 13871, jobs: 13872, export: 13873, analytics: 13874 }, env: { KEY_MOMENTS_WAIT_MS: '0', MEDIA_FAULT_DELAY_MS: '3000' } });
    token = await sys.sandbox.signToken({ sub: 'user-keymoments-job', sessionId: 's-keymoments-job', videoId: 'lesson' });
    video = await uploadLesson(sys, token, lesson);
  }, 240000);

  afterAll(async () => {
    await sys?.close();
  });

  const start = async (): Promise<string> => {
    const res = await fetch(api(`/api/videos/${video.id}/find-key-moments`), { method: 'POST', headers: bearer(token) });
    expect(res.status).toBe(202);
    const body = (await res.json()) as { jobId: string; status: string; moments: unknown[] };
    expect(body).toMatchObject({ status: 'processing', moments: [] });
    expect(body.jobId).toMatch(/^keymoments_/);
    return body.jobId;
  };
  const stored = async () => keyMomentsResponseSchema.parse(await (await fetch(api(`/api/videos/${video.id}/key-moments`), { headers: bearer(token) })).json());

  it('is cancelled like any job: nothing is stored', async () => {
    const jobId = await start();
    await eventually(async () => ((await status(jobId)).status === 'processing' ? true : undefined), 20000, 'the job started');
    const cancel = await fetch(api(`/api/jobs/${jobId}/cancel`), { method: 'POST', headers: bearer(token) });
    expect(cancel.status).toBe(200);
    expect((await status(jobId)).status).toBe('cancelled');
    // the worker stops at its next stage and removes the job's words
    await eventually(() => sys.stack.services.media.lines.find((l) => l['jobId'] === jobId && /^key moments (cancelled|skipped)/.test(String(l.msg))), 20000, 'the worker stopped the job');
    expect((await status(jobId)).status).toBe('cancelled');
    expect((await stored()).moments).toEqual([]);
    // the cancelled job's words are removed by the worker
    const listed = await sys.s3client.send(new ListObjectsV2Command({ Bucket: sys.env.S3_BUCKET, Prefix: `videos/${video.id}/keymoments/` }));
    expect(listed.Contents ?? []).toEqual([]);
  }, 60000);

  it('runs with progress on a media worker, which stores the moments for the GET', async () => {
    const jobId = await start();
    const seen = new Set<string>();
    const done = await eventually(async () => {
      const s = await status(jobId);
      seen.add(s.message);
      return s.status === 'completed' ? s : s.status === 'error' ? Promise.reject(new Error(JSON.stringify(s))) : undefined;
    }, 60000, 'the analysis finished');
    expect(done).toMatchObject({ kind: 'keymoments', progress: 100 });
    expect([...seen].some((m) => /Reading the transcript|Listening|Looking at the picture|Finding the moments/.test(m))).toBe(true);
    const { moments, source } = await stored();
    expect(source).toBe('local');
    expect(moments.length).toBeGreaterThanOrEqual(5);
    // the job's working objects are gone; the picture's scene changes and the energy stay for the next analysis
    const listed = await sys.s3client.send(new ListObjectsV2Command({ Bucket: sys.env.S3_BUCKET, Prefix: `videos/${video.id}/keymoments/` }));
    expect(listed.Contents ?? []).toEqual([]);
    // a repeat answers from the store at once (200)
    const again = await fetch(api(`/api/videos/${video.id}/find-key-moments`), { method: 'POST', headers: bearer(token) });
    expect(again.status).toBe(200);
    expect(keyMomentsResponseSchema.parse(await again.json()).moments).toEqual(moments);
  }, 90000);
});
