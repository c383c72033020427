/**
 * The provider sandbox over HTTP, as a client that is not ours would see it: the resumable upload
 * protocol step by step, the provider API, the library (JSON and page), the control API, and the
 * transcription stand-in on the synthesised talk and lesson of tools/media (real ffmpeg).
 * (HttpProviderClient against it: libs/provider/src/client.int.spec.ts.)
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { mediaInput, runFfmpeg, toFfmpegInput, withInputOptions } from '@wordcut/ffmpeg';
import { buildTranscriptFromVtt, wordsToWordByWord, type BuiltTranscript } from '@wordcut/transcript';
import { talkMedia, type LessonTruth } from '../media/talk-media';
import { startSandboxWithMedia, type SandboxWithMedia } from '../testing/provider-sandbox';
import { UNKNOWN_AUDIO_MESSAGE } from './routes-transcription';
import type { LibraryVideo, ProviderSandbox } from './sandbox';

let served: SandboxWithMedia | undefined;
let sandbox: ProviderSandbox;
const sha256 = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');
const json = async (res: Response): Promise<Record<string, unknown>> => (await res.json()) as Record<string, unknown>;

beforeAll(async () => {
  served = await startSandboxWithMedia('provider-sandbox-', { 'demo.mp4': randomBytes(2048), 'demo.vtt': 'WEBVTT\n' });
  sandbox = served.sandbox;
});

afterAll(() => served?.close());

beforeEach(() => sandbox.reset());

/** Opens the demo as a user would (GET /open) and returns the token from the redirect. */
async function open(session: string): Promise<string> {
  const res = await fetch(`${sandbox.url}/open?video=demo&session=${session}`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location')!).searchParams.get('token')!;
}

const auth = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

async function initiate(token: string, session: string, kind: string, size: number, extra: Record<string, string> = {}): Promise<Response> {
  return fetch(`${sandbox.url}/uploads/${session}/${kind}?uploadType=resumable`, {
    method: 'POST',
    headers: { ...auth(token), 'x-upload-content-length': String(size), 'x-upload-content-type': 'video/mp4', ...extra },
  });
}

const put = (uri: string, range: string, body?: Buffer): Promise<Response> =>
  fetch(uri, { method: 'PUT', headers: { 'content-range': range }, ...(body ? { body: new Uint8Array(body) } : {}), redirect: 'manual' });

describe('/open and the library', () => {
  it('records the opened video and session; the library lists it as JSON and as a page', async () => {
    await open('s-open');
    const lib = sandbox.library();
    expect(lib).toEqual([
      expect.objectContaining({ videoId: 'demo', sessionId: 's-open', title: 'demo', kind: 'original', isClone: false, files: {}, clips: [], media: { videoUrl: `${sandbox.url}/media/demo.mp4`, vttUrl: `${sandbox.url}/media/demo.vtt` } }),
    ]);
    expect(await json(await fetch(`${sandbox.url}/api/library`))).toEqual({ videos: lib });
    const page = await (await fetch(`${sandbox.url}/library`)).text();
    expect(page).toContain('demo <small>(Original)</small>');
    expect(page).toContain('No uploads yet.');
  });

  it('with a token, /api/library lists that user’s videos; a bad token is refused', async () => {
    await open('s-mine');
    const other = await sandbox.signToken({ sub: 'someone', sessionId: 's-theirs', videoId: 'theirs' });
    await fetch(`${sandbox.url}/api/token/refresh`, { method: 'POST', headers: auth(other) });
    expect(sandbox.library().map((v) => v.videoId)).toEqual(['demo', 'theirs']);
    const theirs = (await json(await fetch(`${sandbox.url}/api/library`, { headers: auth(other) })))['videos'] as LibraryVideo[];
    expect(theirs.map((v) => v.videoId)).toEqual(['theirs']);
    expect((await fetch(`${sandbox.url}/api/library`, { headers: auth('junk') })).status).toBe(401);
  });
});

describe('resumable uploads, step by step', () => {
  it('initiate → 308 Range while incomplete → 200 with the result; status queries; a misplaced chunk is not taken', async () => {
    const token = await open('s-up');
    const data = randomBytes(300_000);
    const init = await initiate(token, 's-up', 'video', data.length);
    expect(init.status).toBe(200);
    const uri = init.headers.get('location')!;
    expect(uri).toMatch(new RegExp(`^${sandbox.url}/uploads/resumable/up_`));

    const nothing = await put(uri, `bytes */${data.length}`);
    expect(nothing.status).toBe(308);
    expect(nothing.headers.get('range')).toBeNull();

    const first = await put(uri, `bytes 0-99999/${data.length}`, data.subarray(0, 100_000));
    expect([first.status, first.headers.get('range')]).toEqual([308, 'bytes=0-99999']);

    // a chunk that does not start at 100000 is not taken; the answer says where to resume
    const misplaced = await put(uri, `bytes 150000-199999/${data.length}`, data.subarray(150_000, 200_000));
    expect([misplaced.status, misplaced.headers.get('range')]).toEqual([308, 'bytes=0-99999']);

    const query = await put(uri, `bytes */${data.length}`);
    expect([query.status, query.headers.get('range')]).toEqual([308, 'bytes=0-99999']);

    const last = await put(uri, `bytes 100000-${data.length - 1}/${data.length}`, data.subarray(100_000));
    expect(last.status).toBe(200);
    const answer = await json(last);
    expect(answer).toEqual({ uploadId: expect.stringMatching(/^up_/), providerVideoId: 'demo', bytes: data.length, sha256: sha256(data) });
    // done: a status query answers the result again
    expect(await json(await put(uri, `bytes */${data.length}`))).toEqual(answer);

    expect(sandbox.library()[0]!.files.video).toMatchObject({ bytes: data.length, sha256: sha256(data) });
    const stored = Buffer.from(await (await fetch(`${sandbox.url}/library/files/demo/video`)).arrayBuffer());
    expect(stored.equals(data)).toBe(true);
    const page = await (await fetch(`${sandbox.url}/library`)).text();
    expect(page).toContain('Main video');
    expect(page).toContain(`${data.length} bytes`);
    expect(page).toContain(`sha256 ${sha256(data).slice(0, 12)}`);
  });

  it('refuses initiating without a token (401), with another session’s token (403), without a size (400)', async () => {
    const token = await open('s-a');
    const none = await fetch(`${sandbox.url}/uploads/s-a/video?uploadType=resumable`, { method: 'POST', headers: { 'x-upload-content-length': '10' } });
    expect(none.status).toBe(401);
    expect(await json(none)).toMatchObject({ error: 'unauthorized' });
    const expired = await sandbox.signToken({ sessionId: 's-a', videoId: 'demo' }, { expiresInSec: -120 });
    expect(await json(await initiate(expired, 's-a', 'video', 10))).toMatchObject({ error: 'unauthorized', message: 'The session token has expired.' });
    const wrong = await initiate(token, 's-b', 'video', 10);
    expect([wrong.status, (await json(wrong))['error']]).toEqual([403, 'forbidden']);
    const noSize = await fetch(`${sandbox.url}/uploads/s-a/video?uploadType=resumable`, { method: 'POST', headers: auth(token) });
    expect([noSize.status, (await json(noSize))['error']]).toEqual([400, 'bad_request']);
    expect((await initiate(token, 's-a', 'thumbnail', 10)).status).toBe(404);
  });

  it('refuses a body longer than its Content-Range, a wrong total, and unknown sessions', async () => {
    const token = await open('s-c');
    const uri = (await initiate(token, 's-c', 'vtt', 10)).headers.get('location')!;
    expect((await put(uri, 'bytes 0-3/10', Buffer.from('0123456789'))).status).toBe(400);
    expect((await put(uri, 'bytes 0-3/11', Buffer.from('0123'))).status).toBe(400);
    expect((await put(uri, 'bytes 0-3', Buffer.from('0123'))).status).toBe(400);
    expect((await put(`${sandbox.url}/uploads/resumable/up_nope`, 'bytes */10')).status).toBe(404);
  });

  it('a checksum announced at the start must match the stored bytes', async () => {
    const token = await open('s-d');
    const data = Buffer.from('WEBVTT\n\nhello\n');
    const good = await initiate(token, 's-d', 'vtt', data.length, { 'x-upload-content-sha256': sha256(data) });
    expect((await put(good.headers.get('location')!, `bytes 0-${data.length - 1}/${data.length}`, data)).status).toBe(200);
    const bad = await initiate(token, 's-d', 'wordByword', data.length, { 'x-upload-content-sha256': sha256('other') });
    const res = await put(bad.headers.get('location')!, `bytes 0-${data.length - 1}/${data.length}`, data);
    expect([res.status, (await json(res))['error']]).toEqual([400, 'checksum_mismatch']);
    expect(Object.keys(sandbox.library()[0]!.files)).toEqual(['vtt']);
  });

  it('keeps the old single-request upload, clips included', async () => {
    const data = randomBytes(5000);
    const res = await fetch(`${sandbox.url}/uploads/s-old/clip?name=${encodeURIComponent('My clip')}`, { method: 'POST', body: new Uint8Array(data), headers: { 'content-type': 'video/mp4' } });
    expect(await json(res)).toEqual({ ok: true, session: 's-old', kind: 'clip', bytes: 5000 });
    expect(res.headers.get('x-content-sha256')).toBe(sha256(data));
    const clip = sandbox.library().find((v) => v.kind === 'clip')!;
    expect(clip).toMatchObject({ videoId: res.headers.get('x-provider-video-id'), title: 'My clip', sessionId: 's-old', files: { video: { bytes: 5000 } } });
  });
});

describe('the provider API', () => {
  it('clone answers the same copy for the same Idempotency-Key; a clone of a clone is refused with 409', async () => {
    const token = await open('s-src');
    const post = (t: string, key?: string) => fetch(`${sandbox.url}/api/videos/clone`, { method: 'POST', headers: { ...auth(t), ...(key ? { 'idempotency-key': key } : {}) } });
    const a = await json(await post(token, 'k-1'));
    const b = await json(await post(token, 'k-1'));
    expect(b).toEqual(a);
    const c = await json(await post(token, 'k-2'));
    expect(c['videoId']).not.toBe(a['videoId']);
    expect(sandbox.library().filter((v) => v.isClone)).toHaveLength(2);
    const again = await post(a['token'] as string);
    expect(again.status).toBe(409);
    expect(await json(again)).toEqual({ error: 'already_clone', message: 'This video is already a clone' });
    expect((await post('nope')).status).toBe(401);
  });

  it('refresh answers a token and the media of the old one', async () => {
    const token = await open('s-r');
    const res = await json(await fetch(`${sandbox.url}/api/token/refresh`, { method: 'POST', headers: auth(token) }));
    expect(typeof res['token']).toBe('string');
    expect(res['media']).toMatchObject({ videoUrl: `${sandbox.url}/media/demo.mp4`, uploadUrlVideo: `${sandbox.url}/uploads/s-r/video` });
  });
});

describe('control API', () => {
  it('adds faults over HTTP (validated), answers them with Retry-After and a body, logs requests, clears', async () => {
    const bad = await fetch(`${sandbox.url}/_control/faults`, { method: 'POST', body: JSON.stringify({ match: { path: '(' }, action: { kind: 'status', status: 503 } }) });
    expect([bad.status, (await json(bad))['error']]).toEqual([400, 'bad_request']);
    const add = await fetch(`${sandbox.url}/_control/faults`, {
      method: 'POST',
      body: JSON.stringify({ match: { method: 'GET', path: '^/media/demo\\.vtt$' }, action: { kind: 'status', status: 503, retryAfterSec: 7, body: 'busy' }, times: 1 }),
    });
    const { id } = (await json(add)) as { id: string };
    expect(id).toMatch(/^fault_/);
    const hit = await fetch(`${sandbox.url}/media/demo.vtt`);
    expect([hit.status, hit.headers.get('retry-after'), await hit.text()]).toEqual([503, '7', 'busy']);
    expect((await fetch(`${sandbox.url}/media/demo.vtt`)).status).toBe(200);
    const { requests } = (await json(await fetch(`${sandbox.url}/_control/requests`))) as { requests: { path: string; status: number; fault: string | null }[] };
    expect(requests.map((r) => [r.path, r.status, r.fault])).toEqual([
      ['/media/demo.vtt', 503, id],
      ['/media/demo.vtt', 200, null],
    ]);
    sandbox.addFault({ match: { path: '.' }, action: { kind: 'status', status: 500 }, times: 5 });
    expect((await json(await fetch(`${sandbox.url}/_control/faults`, { method: 'DELETE' })))['ok']).toBe(true);
    expect((await fetch(`${sandbox.url}/media/demo.vtt`)).status).toBe(200);
  });

  it('reset forgets the library, uploads and the log', async () => {
    await open('s-z');
    expect(sandbox.library()).toHaveLength(1);
    expect((await fetch(`${sandbox.url}/_control/reset`, { method: 'POST' })).status).toBe(200);
    expect(sandbox.library()).toEqual([]);
    expect(sandbox.requests()).toEqual([]);
  });

  it('without a webhook URL, events are recorded but resending is refused', async () => {
    const token = await open('s-w');
    const uri = (await initiate(token, 's-w', 'vtt', 3)).headers.get('location')!;
    await put(uri, 'bytes 0-2/3', Buffer.from('abc'));
    const events = sandbox.webhookEvents();
    expect(events.map((e) => e.type)).toEqual(['upload.completed', 'video.ready']);
    const res = await fetch(`${sandbox.url}/_control/webhooks/resend/${events[0]!.id}`, { method: 'POST' });
    expect([res.status, (await json(res))['error']]).toEqual([409, 'no_webhook_url']);
  });
});

describe('the transcription stand-in (real ffmpeg)', () => {
  // made by the integration run's global setup (tools/media/generate-test-media.sh); idempotent
  const MEDIA = join(resolve(__dirname, '../..'), '.data', 'test-media');
  let work: string;
  let talk: ReturnType<typeof talkMedia>;
  let lesson: { mp4: string; vtt: string; truth: LessonTruth };
  let talkScript: BuiltTranscript;
  let lessonScript: BuiltTranscript;

  beforeAll(async () => {
    talk = talkMedia(MEDIA); // runs the generator once: the lesson is made with it
    lesson = { mp4: join(MEDIA, 'lesson.mp4'), vtt: join(MEDIA, 'lesson.vtt'), truth: JSON.parse(await readFile(join(MEDIA, 'lesson.json'), 'utf8')) as LessonTruth };
    work = await mkdtemp(join(tmpdir(), 'sandbox-transcription-'));
    const dir = served!.mediaDir;
    // the talk with its WebVTT; the lesson with word timings only (a language tag of its own)
    talkScript = buildTranscriptFromVtt(await readFile(talk.vtt, 'utf8'));
    lessonScript = buildTranscriptFromVtt(await readFile(lesson.vtt, 'utf8'));
    await copyFile(talk.mp4, join(dir, 'talk.mp4'));
    await copyFile(talk.vtt, join(dir, 'talk.vtt'));
    await copyFile(lesson.mp4, join(dir, 'lesson.mp4'));
    await writeFile(join(dir, 'lesson.words.json'), JSON.stringify(wordsToWordByWord(lessonScript.words, 'nl')));
  }, 120_000);
  afterAll(() => rm(work, { recursive: true, force: true }));

  /** [start, start + duration) of a recording's audio as 16 kHz mono mp3, as the media worker sends it. */
  async function chunk(src: string, startSec: number, durationSec: number, name: string): Promise<string> {
    const out = join(work, name);
    await runFfmpeg({
      inputs: [withInputOptions(mediaInput(src), '-ss', startSec.toFixed(3), '-t', durationSec.toFixed(3))],
      args: ['-map', '0:a:0', '-vn', '-ac', '1', '-ar', '16000', '-c:a', 'libmp3lame', '-b:a', '48k', '-f', 'mp3', toFfmpegInput(out)],
      timeoutMs: 30_000,
    });
    return out;
  }

  async function transcribe(path: string, o: { fileName?: string; fields?: Record<string, string>; headers?: Record<string, string>; url?: string } = {}): Promise<Response> {
    const form = new FormData();
    form.append('file', new Blob([await readFile(path)], { type: 'audio/mpeg' }), o.fileName ?? 'chunk-0.mp3');
    const fields = { model: 'whisper-1', response_format: 'verbose_json', 'timestamp_granularities[]': 'word', language: 'en', ...o.fields };
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    return fetch(`${o.url ?? sandbox.url}/v1/audio/transcriptions`, { method: 'POST', body: form, headers: o.headers ?? { authorization: 'Bearer sk-anything' } });
  }

  /** The script's words whose middle is in the stretch, in the stretch's time. */
  const expected = (script: BuiltTranscript, start: number, end: number) =>
    script.words.filter((w) => (w.start + w.end) / 2 >= start && (w.start + w.end) / 2 <= end).map((w) => ({ word: w.text, start: w.start - start, end: w.end - start }));

  type Answer = { task: string; language: string; duration: number; text: string; words: { word: string; start: number; end: number }[]; segments: { id: number; start: number; end: number; text: string }[] };

  function expectWords(answer: Answer, want: ReturnType<typeof expected>): void {
    expect(answer.words.map((w) => w.word)).toEqual(want.map((w) => w.word));
    answer.words.forEach((w, i) => {
      expect(Math.abs(w.start - want[i]!.start)).toBeLessThan(0.3);
      expect(Math.abs(w.end - want[i]!.end)).toBeLessThan(0.3);
    });
  }

  it('answers the script’s words of a stretch that starts mid-video, in the chunk’s time (verbose_json)', async () => {
    // from the middle of the second pause to the middle of the fifth: no word on an edge
    const mid = (p: { start: number; end: number }) => (p.start + p.end) / 2;
    const start = mid(talk.truth.pauses[1]!);
    const end = mid(talk.truth.pauses[4]!);
    const res = await transcribe(await chunk(talk.mp4, start, end - start, 'talk.mp3'));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-sandbox-transcription-match')).toMatch(/^talk\.mp4 at /);
    const answer = (await res.json()) as Answer;
    const want = expected(talkScript, start, end);
    expect(want.length).toBeGreaterThan(10);
    expectWords(answer, want);
    expect(answer).toMatchObject({ task: 'transcribe', language: 'english', text: want.map((w) => w.word).join(' ') });
    expect(Math.abs(answer.duration - (end - start))).toBeLessThan(0.1);
    expect(answer.segments.map((s) => s.text.trim()).join(' ')).toBe(answer.text);
    expect(sandbox.requests()).toEqual([expect.objectContaining({ method: 'POST', path: '/v1/audio/transcriptions', status: 200, bytesReceived: expect.any(Number) })]);
    expect(sandbox.requests()[0]!.bytesReceived).toBeGreaterThan(10_000);
  });

  it('answers from .words.json, for a chunk that runs to the very end; json answers the text only', async () => {
    const start = lesson.truth.duration - 12;
    const path = await chunk(lesson.mp4, start, 20, 'lesson-end.mp3');
    const answer = (await (await transcribe(path)).json()) as Answer;
    expect(answer.language).toBe('dutch');
    expectWords(answer, expected(lessonScript, start, lesson.truth.duration + 1));
    expect(answer.words.at(-1)!.word).toBe(lessonScript.words.at(-1)!.text);
    expect(await (await transcribe(path, { fields: { response_format: 'json' } })).json()).toEqual({ text: answer.text });
  });

  it('refuses audio of another recording, and silence, with 400 unknown_audio', async () => {
    const unknown = { error: { message: UNKNOWN_AUDIO_MESSAGE, type: 'invalid_request_error', param: 'file', code: 'unknown_audio' } };
    const other = await transcribe(await chunk(join(MEDIA, 'demo.mp4'), 5, 10, 'demo.mp3'));
    expect([other.status, await other.json()]).toEqual([400, unknown]);
    // 3 s of it fit the talk at r ≈ 0.85 by chance: a short chunk needs more
    const short = await transcribe(await chunk(join(MEDIA, 'demo.mp4'), 20, 3, 'demo-short.mp3'));
    expect([short.status, await short.json()]).toEqual([400, unknown]);
    const quiet = join(work, 'silence.wav');
    await runFfmpeg({ args: ['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '5', '-c:a', 'pcm_s16le', toFfmpegInput(quiet)], timeoutMs: 30_000 });
    const silent = await transcribe(quiet, { fileName: 'chunk-1.wav' });
    expect([silent.status, await silent.json()]).toEqual([400, unknown]);
  });

  it('refuses a bad request in OpenAI’s error shape: format, file, size', async () => {
    const path = await chunk(talk.mp4, 3, 4, 'small.mp3');
    const code = async (res: Promise<Response>) => {
      const r = await res;
      return [r.status, ((await r.json()) as { error: { code: string } }).error.code];
    };
    expect(await code(transcribe(path, { fields: { response_format: 'srt' } }))).toEqual([400, 'unsupported_value']);
    expect(await code(transcribe(path, { fileName: 'chunk-0.m4a' }))).toEqual([400, 'invalid_file_format']);
    expect(await code(transcribe(path, { fileName: 'chunk-0.flac' }))).toEqual([400, 'invalid_file_format']);
    const noFile = new FormData();
    noFile.append('model', 'whisper-1');
    expect(await code(fetch(`${sandbox.url}/v1/audio/transcriptions`, { method: 'POST', body: noFile }))).toEqual([400, 'missing_file']);
    expect(await code(fetch(`${sandbox.url}/v1/audio/transcriptions`, { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } }))).toEqual([400, 'invalid_multipart']);
    const big = join(work, 'big.mp3');
    await writeFile(big, Buffer.alloc(31 * 1024 * 1024));
    expect(await code(transcribe(big))).toEqual([413, 'file_too_large']);
  });

  it('says on the index page that it is not speech recognition', async () => {
    expect(await (await fetch(`${sandbox.url}/`)).text()).toContain('is not speech recognition: it answers only for audio of media whose script it knows');
  });

  it('with a key configured, requires it (401 invalid_api_key); without, takes any or none', async () => {
    const path = await chunk(talk.mp4, 3, 4, 'auth.mp3');
    const keyed = await startSandboxWithMedia('provider-sandbox-key-', {}, { transcriptionApiKey: 'sk-sandbox' });
    try {
      const refused = await transcribe(path, { url: keyed.sandbox.url, headers: { authorization: 'Bearer sk-wrong' } });
      expect([refused.status, await refused.json()]).toEqual([401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }]);
      expect((await transcribe(path, { url: keyed.sandbox.url, headers: {} })).status).toBe(401);
      // the right key gets past: this sandbox knows no media
      const known = await transcribe(path, { url: keyed.sandbox.url, headers: { authorization: 'Bearer sk-sandbox' } });
      expect([known.status, ((await known.json()) as { error: { code: string } }).error.code]).toEqual([400, 'unknown_audio']);
    } finally {
      await keyed.close();
    }
    expect((await transcribe(path, { headers: {} })).status).toBe(200);
  });
});
