/**
 * Over 400 lines: one running system serves every ingest case (starting a stack costs more than the file is long).
 * Videos in, through every service as a real process: upload (MP4 + VTT) and provider sessions
 * -> S3 -> media workers (ffprobe, transcript, waveform, browser proxy) -> gateway (Postgres) ->
 * transcript, waveform and range streaming. Awkward real-world media and bad input included.
 * Uploads belong to a gateway session (the upload form's identity), provider imports to the
 * token's subject; every later call carries the same identity.
 * Requires the services to be built (`npm run build:services`).
 */
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { MAX_TRANSCRIPT_WORDS, transcriptSchema, videoSchema, waveformSchema, type Transcript, type Video } from '@wordcut/contracts';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProviderSandbox } from '../provider-sandbox/sandbox';
import { ROOT, type Stack, type StackEnv } from '../stack/stack';
import { eventually, uniqueSuffix } from '../testing/env';
import { bearer, startGatewaySession } from '../testing/identity';
import { startSystem, type TestSystem } from './system';

const PORTS = { gateway: 13300, media: 13301, jobs: 13302, export: 13303, analytics: 13304 };
const UPLOAD_LIMIT = 8 * 1024 * 1024;
const MEDIA = join(ROOT, '.data', 'test-media');

describe('ingest: videos in, transcript, waveform and streaming', () => {
  let sys: TestSystem;
  let env: StackEnv;
  let stack: Stack;
  let sandbox: ProviderSandbox;
  let s3client: S3Client;
  /** the uploader: a gateway session, as the upload form starts one */
  let owner: string;

  beforeAll(async () => {
    execFileSync('bash', [join(ROOT, 'tools/media/generate-test-media.sh'), MEDIA], { stdio: 'ignore' });
    execFileSync('bash', [join(ROOT, 'tools/media/generate-awkward-media.sh'), MEDIA], { stdio: 'ignore' });
    sys = await startSystem({ name: 'ingest', ports: PORTS, mediaDir: MEDIA, importFromSandbox: true, env: { UPLOAD_MAX_BYTES: String(UPLOAD_LIMIT) } });
    ({ env, stack, sandbox, s3client } = sys);
    ({ token: owner } = await startGatewaySession(sys.api('')));
  }, 180000);

  afterAll(async () => {
    await sys?.close();
  });

  const api = (path: string) => `${stack.services.gateway.url}${path}`;
  const file = (name: string) => readFileSync(join(MEDIA, name));
  /** a gateway call as `token` (default: the uploader) */
  const call = (path: string, init: RequestInit = {}, token = owner) => fetch(api(path), { ...init, headers: { ...bearer(token), ...(init.headers as Record<string, string> | undefined) } });

  async function upload(video: { body: Buffer; name: string; type?: string } | null, vtt: { body: Buffer | string; name: string; type?: string } | null, token = owner): Promise<Response> {
    const form = new FormData();
    if (video) form.append('video', new Blob([new Uint8Array(video.body)], { type: video.type ?? 'video/mp4' }), video.name);
    if (vtt) form.append('vtt', new Blob([typeof vtt.body === 'string' ? vtt.body : new Uint8Array(vtt.body)], { type: vtt.type ?? 'text/vtt' }), vtt.name);
    return call('/api/videos/upload', { method: 'POST', body: form }, token);
  }

  async function getVideo(id: string, token = owner): Promise<Video> {
    const res = await call(`/api/videos/${id}`, {}, token);
    expect(res.status).toBe(200);
    return videoSchema.parse(await res.json());
  }

  /** Waits for the video to complete or fail; a video that does not says what the services logged about it. */
  const settled = async (id: string, timeoutMs = 90000, token = owner): Promise<Video> => {
    try {
      return await eventually(
        async () => {
          const v = await getVideo(id, token);
          return v.status === 'completed' || v.status === 'failed' ? v : undefined;
        },
        timeoutMs,
        `video ${id} settled`,
      );
    } catch (err) {
      throw new Error(`${(err as Error).message}\n${sys.logsMentioning(id)}`);
    }
  };

  async function objectCount(): Promise<number> {
    let n = 0;
    let token: string | undefined;
    do {
      const page = await s3client.send(new ListObjectsV2Command({ Bucket: env.S3_BUCKET, ContinuationToken: token }));
      n += page.KeyCount ?? 0;
      token = page.NextContinuationToken;
    } while (token);
    return n;
  }

  async function transcriptOf(id: string, token = owner): Promise<Transcript> {
    const res = await call(`/api/videos/${id}/transcript`, {}, token);
    expect(res.status).toBe(200);
    return transcriptSchema.parse(await res.json());
  }

  describe('the demo talk, uploaded', () => {
    let video: Video;

    beforeAll(async () => {
      const res = await upload({ body: file('demo.mp4'), name: '../../etc/My demo talk.mp4' }, { body: file('demo.vtt'), name: 'demo.vtt' });
      expect(res.status).toBe(201);
      const created = videoSchema.parse(await res.json());
      expect(['uploaded', 'processing']).toContain(created.status);
      expect(created.vttMethod).toBe('VTT Upload');
      video = await settled(created.id);
    }, 120000);

    it('completes with the media facts, and a display-only file name', () => {
      expect(video.status).toBe('completed');
      expect(video.vttProgress).toBe(100);
      expect(video.vttError).toBeNull();
      expect(video.duration).toBeGreaterThan(25);
      expect([video.width, video.height]).toEqual([1280, 720]);
      expect(video.hasAudio).toBe(true);
      expect(video.originalName).toBe('My demo talk.mp4');
      expect(video.title).toBe('My demo talk');
      expect(video.languageCode).toBe('en');
      expect(video.transcriptId).not.toBeNull();
    });

    it('has a word-level transcript with paragraphs and the filler words', async () => {
      const t = await transcriptOf(video.id);
      expect(t.words.length).toBeGreaterThan(60);
      t.words.forEach((w, i) => {
        expect(w.word_order).toBe(i);
        expect(w.end).toBeGreaterThanOrEqual(w.start);
      });
      expect(t.paragraphs.length).toBeGreaterThan(1);
      expect(t.paragraphs.flatMap((p) => p.wordIndices)).toEqual(t.words.map((_, i) => i));
      const fillers = t.fillerWords.map((i) => t.words[i]!.text.toLowerCase().replace(/[^a-z]/g, ''));
      expect(fillers).toEqual(expect.arrayContaining(['um', 'uh']));
      expect(t.words[0]!.start).toBeGreaterThanOrEqual(0.4);
    });

    it('serves the waveform at the resolution asked for, from the stored peaks', async () => {
      const res = await call(`/api/videos/${video.id}/waveform?v=${video.mediaVersion}`);
      expect(res.status).toBe(200);
      const w = waveformSchema.parse(await res.json());
      expect(w.cached).toBe(true);
      expect(w.peaks).toHaveLength(1000);
      expect(Math.abs(w.duration - video.duration!)).toBeLessThan(0.5);
      // speech is loud somewhere, the 0.5 s lead-in is quiet
      expect(Math.max(...w.peaks)).toBeGreaterThan(0.2);
      expect(Math.max(...w.peaks.slice(0, 10))).toBeLessThan(0.05);
      const small = waveformSchema.parse(await (await call(`/api/videos/${video.id}/waveform?v=original&points=64`)).json());
      expect(small.peaks).toHaveLength(64);
      expect((await call(`/api/videos/${video.id}/waveform?points=0`)).status).toBe(400);
    });

    it('streams with HTTP ranges, ETag and conditional requests, and refuses many ranges', async () => {
      const path = `/api/videos/${video.id}/stream/processed?t=${encodeURIComponent(video.createdAt)}`;
      const get = (headers: Record<string, string> = {}) => call(path, { headers });
      const full = await get();
      expect(full.status).toBe(200);
      expect(full.headers.get('accept-ranges')).toBe('bytes');
      const size = Number(full.headers.get('content-length'));
      expect((await full.arrayBuffer()).byteLength).toBe(size);
      expect(size).toBe(video.fileSize);
      const etag = full.headers.get('etag')!;
      expect(etag).toBeTruthy();

      const part = await get({ Range: 'bytes=100-1099' });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${size}`);
      expect(Buffer.from(await part.arrayBuffer())).toEqual(file('demo.mp4').subarray(100, 1100));

      const tail = await get({ Range: 'bytes=-10' });
      expect(tail.status).toBe(206);
      expect(Buffer.from(await tail.arrayBuffer())).toEqual(file('demo.mp4').subarray(size - 10));

      expect((await get({ 'If-None-Match': etag })).status).toBe(304);
      const many = await get({ Range: 'bytes=0-10,0-10,0-10,0-10' });
      expect(many.status).toBe(416);
      expect(many.headers.get('content-range')).toBe(`bytes */${size}`);
      expect((await get({ Range: `bytes=${size + 5}-` })).status).toBe(416);

      // a <video> element sends no header: the video's signed stream URL serves the same bytes, ranges included
      expect(video.streamUrl).toMatch(new RegExp(`^/api/videos/${video.id}/stream/processed\\?st=`));
      const signed = await fetch(api(video.streamUrl!), { headers: { Range: 'bytes=100-1099' } });
      expect(signed.status).toBe(206);
      expect(signed.headers.get('etag')).toBe(etag);
      expect(Buffer.from(await signed.arrayBuffer())).toEqual(file('demo.mp4').subarray(100, 1100));
    });

    it('edits words with optimistic concurrency, flags the video, and resets the flags', async () => {
      const t = await transcriptOf(video.id);
      const res = await call(`/api/transcripts/${t.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ version: t.version, wordDeltas: [{ word_order: 1, changes: { text: 'and,' } }] }),
      });
      expect(res.status).toBe(200);
      const after = transcriptSchema.parse(await res.json());
      expect(after.version).toBe(t.version + 1);
      expect(after.words[1]!.text).toBe('and,');

      // a client still holding the old version is refused and nothing is overwritten
      const stale = await call(`/api/transcripts/${t.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', 'If-Match': `"${t.version}"` },
        body: JSON.stringify({ wordDeltas: [{ word_order: 1, changes: { text: 'CLOBBERED' } }] }),
      });
      expect(stale.status).toBe(409);
      expect((await transcriptOf(video.id)).words[1]!.text).toBe('and,');

      // deleting a word renumbers; a word that does not exist is a clear 422
      const del = await call(`/api/transcripts/${t.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', Prefer: 'return=minimal' },
        body: JSON.stringify({ version: after.version, wordDeltas: [{ word_order: 0, delete: true }] }),
      });
      expect(del.status).toBe(200);
      expect(await del.json()).toMatchObject({ version: after.version + 1, wordCount: t.words.length - 1 });
      const missing = await call(`/api/transcripts/${t.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ wordDeltas: [{ word_order: 999999, changes: { text: 'x' } }] }),
      });
      expect(missing.status).toBe(422);
      expect((await call(`/api/transcripts/${t.id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"words": 5}' })).status).toBe(400);

      const flagged = await getVideo(video.id);
      expect([flagged.vttChanged, flagged.wordBywordChanged]).toEqual([true, true]);
      const reset = await call(`/api/videos/${video.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ vttChanged: false, wordBywordChanged: false }),
      });
      expect(reset.status).toBe(200);
      expect(videoSchema.parse(await reset.json())).toMatchObject({ vttChanged: false, wordBywordChanged: false });
    });
  });

  describe('awkward real-world media', () => {
    const cases: [string, (v: Video) => void][] = [
      ['rotated.mp4', (v) => expect(v.height! > v.width!).toBe(true)],
      ['odd.mp4', (v) => expect(Math.abs(v.width! - 321) + Math.abs(v.height! - 241)).toBeLessThanOrEqual(2)],
      ['vfr.mp4', (v) => expect(v.duration).toBeGreaterThan(1)],
      ['hevc.mp4', (v) => expect(v.hasAudio).toBe(true)],
      ['noaudio.mp4', (v) => expect(v.hasAudio).toBe(false)],
      ['moov-end.mp4', (v) => expect(v.duration).toBeGreaterThan(1)],
    ];
    it.each(cases)('%s is brought in and plays', async (name, check) => {
      const res = await upload({ body: file(name), name }, { body: file('awkward.vtt'), name: 'awkward.vtt' });
      expect(res.status).toBe(201);
      const v = await settled(videoSchema.parse(await res.json()).id);
      expect(v.vttError).toBeNull();
      expect(v.status).toBe('completed');
      check(v);
      const stream = await call(`/api/videos/${v.id}/stream/processed`, { headers: { Range: 'bytes=0-15' } });
      expect(stream.status).toBe(206);
      // an MP4 the browser can read starts with its ftyp box
      expect(Buffer.from(await stream.arrayBuffer()).subarray(4, 8).toString('latin1')).toBe('ftyp');
      const wave = await call(`/api/videos/${v.id}/waveform`);
      if (v.hasAudio) expect(wave.status).toBe(200);
      else expect(await wave.json()).toMatchObject({ statusCode: 422, code: 'NO_AUDIO', message: 'This video has no audio track, so it has no waveform.' });
    }, 120000);
  });

  it('a caption file with a bad cue among good ones is brought in; what was skipped is answered with the transcript', async () => {
    const vtt = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nHello there\n\n00:00:00..000 --> 00:00:02.000\nbroken timing\n\n00:00:01.000 --> 00:00:02.000\ngeneral Kenobi\n';
    const res = await upload({ body: file('tiny.mp4'), name: 'tiny.mp4' }, { body: vtt, name: 'mixed.vtt' });
    expect(res.status).toBe(201);
    const v = await settled(videoSchema.parse(await res.json()).id);
    expect(v.status).toBe('completed');
    const t = await transcriptOf(v.id);
    expect(t.words.map((w) => w.text).join(' ')).toBe('Hello there general Kenobi');
    expect(t.warnings).toEqual([{ line: 6, message: expect.stringContaining('00:00:00..000') }]);
  }, 120000);

  it.each([
    ['SubRip (.srt), with a malformed entry skipped', 'talk.srt', '1\n00:00:00,000 --> 00:00:01,000\nHello there\n\n2\n00:00:01,000 -> 00:00:02,000\nbroken arrow\n\n3\n00:00:01,000 --> 00:00:02,000\ngeneral Kenobi\n', ['Hello', 'there', 'general', 'Kenobi'], null],
    [
      'Whisper JSON with word timings',
      'talk.json',
      JSON.stringify({ language: 'en', segments: [{ start: 0, end: 1.6, text: ' Hello there general', words: [{ word: ' Hello', start: 0.1, end: 0.4 }, { word: ' there', start: 0.45, end: 0.8 }, { word: ' general', start: 0.9, end: 1.5 }] }] }),
      ['Hello', 'there', 'general'],
      [0.1, 0.45, 0.9],
    ],
  ])('an upload with %s captions gets their words', async (_what, name, body, words, starts) => {
    const res = await upload({ body: file('tiny.mp4'), name: 'tiny.mp4' }, { body, name, type: name.endsWith('.json') ? 'application/json' : 'application/x-subrip' });
    expect(res.status).toBe(201);
    const v = await settled(videoSchema.parse(await res.json()).id);
    expect(v.status).toBe('completed');
    const t = await transcriptOf(v.id);
    expect(t.words.map((w) => w.text)).toEqual(words);
    if (starts) expect(t.words.map((w) => w.start)).toEqual(starts);
  }, 120000);

  describe('bad input gets a clear error and leaves nothing behind', () => {
    let before: number;
    /** a visitor of its own: these uploads count toward one identity's hourly upload limit */
    let visitor: string;
    const send = (video: Parameters<typeof upload>[0], vtt: Parameters<typeof upload>[1]) => upload(video, vtt, visitor);
    beforeAll(async () => {
      ({ token: visitor } = await startGatewaySession(sys.api('')));
    });
    beforeEach(async () => {
      before = await objectCount();
    });
    afterEach(async () => {
      expect(await objectCount()).toBe(before);
    });

    it('a text file named .mp4 is refused (415): the content is probed, not the name', async () => {
      const res = await send({ body: file('fake.mp4'), name: 'fake.mp4' }, { body: file('demo.vtt'), name: 'demo.vtt' });
      expect(res.status).toBe(415);
      expect((await res.json()).message).toMatch(/not a playable video|not a video/i);
    });

    it('a truncated MP4 is refused (415)', async () => {
      const res = await send({ body: file('truncated.mp4'), name: 'truncated.mp4' }, { body: file('demo.vtt'), name: 'demo.vtt' });
      expect(res.status).toBe(415);
    });

    it.each([
      ['an ASS file', '[Script Info]\nTitle: not a format we read\n'],
      ['garbage', 'garbage.vtt'],
    ])('a subtitle file in no format we read (%s) is refused (422)', async (_what, body) => {
      const content = body.endsWith('.vtt') ? file(body) : body;
      const res = await send({ body: file('tiny.mp4'), name: 'tiny.mp4' }, { body: content, name: 'subs.vtt' });
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ code: 'VTT_INVALID', message: expect.stringContaining('WEBVTT') });
    });

    // the whole file is read at upload now: a VTT that cannot become a transcript is refused at once, not failed later
    it('a VTT with a header but no usable cue is refused (422), naming the first problem and its line', async () => {
      const res = await send({ body: file('tiny.mp4'), name: 'tiny.mp4' }, { body: 'WEBVTT\n\nthis is not a cue\nnor is this\n', name: 'broken.vtt' });
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ code: 'VTT_INVALID', message: expect.stringMatching(/^The subtitle file has no usable cue: .*line 3/) });
    });

    it(`a VTT of more than ${MAX_TRANSCRIPT_WORDS.toLocaleString('en-US')} words is refused (422 TOO_MANY_WORDS)`, async () => {
      const words = Array.from({ length: MAX_TRANSCRIPT_WORDS + 1 }, () => 'w').join(' ');
      const res = await send({ body: file('tiny.mp4'), name: 'tiny.mp4' }, { body: `WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n${words}\n`, name: 'long.vtt' });
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ code: 'TOO_MANY_WORDS' });
    });

    it('a missing file is refused (400), a body that is not multipart too (415)', async () => {
      const res = await send({ body: file('tiny.mp4'), name: 'tiny.mp4' }, null);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toContain("'vtt'");
      const json = await call('/api/videos/upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }, visitor);
      expect(json.status).toBe(415);
    });

    it('a video over the size limit is refused (413)', async () => {
      const res = await send({ body: Buffer.alloc(UPLOAD_LIMIT + 1024 * 1024, 1), name: 'huge.mp4' }, { body: file('demo.vtt'), name: 'demo.vtt' });
      expect(res.status).toBe(413);
    });
  });

  // An upload's VTT is checked whole before anything is stored (above), so a transcript now fails
  // later only for a provider import: its VTT is fetched by the worker.
  it('an imported VTT that is not WebVTT fails the video with its error; a retry runs again', async () => {
    const token = await sandbox.signToken({
      sub: 'ingest-retry',
      sessionId: `s-${uniqueSuffix()}`,
      videoId: 'pv-retry',
      media: { videoUrl: `${sandbox.url}/media/tiny.mp4`, vttUrl: `${sandbox.url}/media/garbage.vtt` },
    });
    const res = await call('/api/provider/sessions', { method: 'POST' }, token);
    expect(res.status).toBe(200);
    const id = ((await res.json()) as { video: { id: string } }).video.id;
    const failed = await settled(id, 90000, token);
    expect(failed.status).toBe('failed');
    expect(failed.vttError).toBeTruthy();
    expect((await call(`/api/videos/${id}/transcript`, {}, token)).status).toBe(404);
    const retry = await call(`/api/videos/${id}/transcribe`, { method: 'POST' }, token);
    expect(retry.status).toBe(202);
    expect(videoSchema.parse(await retry.json()).status).toBe('processing');
    expect((await settled(id, 90000, token)).status).toBe('failed');
    // a retry of a video that is not failed is refused
    const busy = videoSchema.parse(await (await upload({ body: file('tiny.mp4'), name: 't.mp4' }, { body: file('demo.vtt'), name: 'd.vtt' })).json());
    expect((await call(`/api/videos/${busy.id}/transcribe`, { method: 'POST' })).status).toBe(409);
  }, 180000);

  describe('provider sessions', () => {
    const open = (token?: string) => fetch(api('/api/provider/sessions'), { method: 'POST', headers: token ? { Authorization: `Bearer ${token}` } : {} });
    const media = () => ({ videoUrl: `${sandbox.url}/media/demo.mp4`, vttUrl: `${sandbox.url}/media/demo.vtt` });

    it('imports the video a session names, once per session', async () => {
      const sessionId = `s-${uniqueSuffix()}`;
      const token = await sandbox.signToken({ sessionId, videoId: 'pv-1', title: 'From the provider', languageCode: 'en-GB', media: media() });
      const [a, b] = await Promise.all([open(token), open(token)]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const [ja, jb] = (await Promise.all([a.json(), b.json()])) as { success: boolean; video: { id: string; title: string } }[];
      expect(ja!.success).toBe(true);
      expect(ja!.video.id).toBe(jb!.video.id);
      expect(ja!.video.title).toBe('From the provider');
      const v = await settled(ja!.video.id, 90000, token);
      expect(v.status).toBe('completed');
      expect(v.providerSessionId).toBe(sessionId);
      expect(v.providerVideoId).toBe('pv-1');
      expect(v.languageCode).toBe('en-GB');
      expect((await transcriptOf(v.id, token)).words.length).toBeGreaterThan(60);
      const third = (await (await open(token)).json()) as { video: { id: string }; existing: boolean };
      expect(third).toMatchObject({ video: { id: v.id }, existing: true });
    }, 120000);

    it('refuses a missing, forged, expired or foreign token with 401', async () => {
      const claims = { sessionId: `s-${uniqueSuffix()}`, videoId: 'pv-2', media: media() };
      expect((await open()).status).toBe(401);
      // a gateway session (the upload form's identity) is no provider session
      const notProvider = await open(owner);
      expect(notProvider.status).toBe(401);
      expect(((await notProvider.json()) as { message: string }).message).toMatch(/from the provider/);
      for (const token of [
        await sandbox.signToken(claims, { key: 'forged' }),
        await sandbox.signToken(claims, { expiresInSec: -60 }),
        await sandbox.signToken(claims, { audience: 'someone-else' }),
        await sandbox.signToken(claims, { issuer: 'https://evil.example' }),
        'not.a.jwt',
      ]) {
        const res = await open(token);
        expect(res.status).toBe(401);
        expect(((await res.json()) as { message: string }).message.length).toBeGreaterThan(10);
      }
    });

    it.each([
      ['loopback', 'http://127.0.0.1:9/latest.mp4'],
      ['cloud metadata', 'http://169.254.169.254/latest/meta-data/'],
    ])('a media URL pointing at %s fails with a clear error and stores nothing', async (_what, videoUrl) => {
      const before = await objectCount();
      const token = await sandbox.signToken({ sessionId: `s-${uniqueSuffix()}`, videoId: 'pv-3', media: { videoUrl, vttUrl: `${sandbox.url}/media/demo.vtt` } });
      const res = await open(token);
      expect(res.status).toBe(200);
      const v = await settled(((await res.json()) as { video: { id: string } }).video.id, 45_000, token);
      expect(v.status).toBe('failed');
      expect(v.vttError).toMatch(/not allowed|private|refused/i);
      expect(await objectCount()).toBe(before);
    }, 60000);

    it('a redirect to a private address is re-checked and refused', async () => {
      const videoUrl = `${sandbox.url}/redirect?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`;
      const token = await sandbox.signToken({ sessionId: `s-${uniqueSuffix()}`, videoId: 'pv-4', media: { videoUrl, vttUrl: `${sandbox.url}/media/demo.vtt` } });
      const v = await settled(((await (await open(token)).json()) as { video: { id: string } }).video.id, 45_000, token);
      expect(v.status).toBe('failed');
      expect(v.vttError).toMatch(/not allowed|private|refused/i);
    }, 60000);
  });

  it('answers 404 for unknown or malformed ids', async () => {
    expect((await call('/api/videos/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await call('/api/videos/..%2F..%2Fetc')).status).toBe(404);
    expect(await (await fetch(api('/api/vtt/status'))).json()).toEqual({ configured: true, method: 'VTT Upload', legacyUploadEnabled: true, transcription: false });
  });
});
