/**
 * Over 400 lines: every edit kind on one running system and one uploaded video (starting the stack
 * per file is the slow part).
 *
 * Edits become media, through every service as a real process (real Postgres, NATS, s3rver,
 * ffmpeg): apply cuts, filler and silence removal, mutes, reorder, captions and clips render from
 * the original through the edit list; frames are exact, audio stays in sync, the transcript
 * follows; one render per video at a time; cancel, worker crash, storage outage (retried, then
 * dead-lettered) and an original that is not media (refused at once).
 * The source media encodes its own frame numbers (video) and frame times (audio bursts).
 * One provider user uploads and edits every video here (objects answer only their owner); jobs
 * run one at a time per video, so the running-jobs limit (3 per person) is never reached.
 * Requires the services to be built (`npm run build:services`).
 */
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { StorageKeys, transcriptSchema, videoSchema, type Transcript, type Video } from '@wordcut/contracts';
import { applyCuts, identityEditList, readFcpxml, readOtio, type EditList } from '@wordcut/edit-list';
import { SPLICE_MIN_SNR_DB } from '@wordcut/ffmpeg';
import { startLocalS3, type LocalS3 } from '@wordcut/storage';
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkSync, detectToneLevel, expectedFramesForSegments, generateTimecodeMedia, readBurstOnsets, readFrameNumbers } from '../media/timecode-media';
import { ROOT, type Stack, type StackEnv } from '../stack/stack';
import { buildTranscriptFromCaptions } from '@wordcut/transcript';
import { eventually } from '../testing/env';
import { bearer } from '../testing/identity';
import { startSystem, type TestSystem } from './system';

const PORTS = { gateway: 13400, media: 13401, jobs: 13402, export: 13403, analytics: 13404 };
const FPS = 30;
const DURATION = 24;
/** One AAC frame at 48 kHz: the sync tolerance. */
const AUDIO_FRAME_SEC = 1024 / 48000;

/** A VTT with one word every 0.5 s ("w0" at 0.1 s ...) and paragraph breaks (1.6 s pauses) at 8 s and 16 s. */
function syntheticVtt(): { vtt: string; words: Array<{ text: string; start: number; end: number }> } {
  const words: Array<{ text: string; start: number; end: number }> = [];
  for (let t = 0.1, i = 0; t + 0.3 < DURATION; t += 0.5, i++) {
    if ((t > 6.4 && t < 8.0) || (t > 14.4 && t < 16.0)) continue;
    words.push({ text: `w${i}${i % 10 === 9 ? '.' : ''}`, start: Math.round(t * 1000) / 1000, end: Math.round((t + 0.3) * 1000) / 1000 });
  }
  const ts = (s: number) => {
    const ms = Math.round(s * 1000);
    return `00:${String(Math.floor(ms / 60000)).padStart(2, '0')}:${String(Math.floor((ms % 60000) / 1000)).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;
  };
  const cues = words.map((w) => `${ts(w.start)} --> ${ts(w.end)}\n${w.text}\n`);
  return { vtt: `WEBVTT\n\n${cues.join('\n')}`, words };
}

/** The demo talk's sentences (tools/media/generate-test-media.sh), fillers included. */
const TALK = [
  'Hi, and welcome to WordCut.',
  'Um, today I will show you how to edit a video by editing its text.',
  'Every word is linked to its moment in the recording.',
  'So, uh, if you delete a word, that piece of video is cut.',
  'You can also, um, remove all the filler words at once.',
  'Long pauses can be shortened too.',
  'Thanks for watching, and, uh, happy editing!',
].join(' ');

/** A VTT of the talk with one word every 0.35 s (0.25 s long), from 0.1 s. */
function talkVtt(): string {
  const ts = (s: number) => `00:00:${(Math.round(s * 1000) / 1000).toFixed(3).padStart(6, '0')}`;
  const cues = TALK.split(' ').map((text, i) => `${ts(0.1 + i * 0.35)} --> ${ts(0.35 + i * 0.35)}\n${text}\n`);
  return `WEBVTT\n\n${cues.join('\n')}`;
}

describe('edits: the edit list, the media workers and the jobs', () => {
  let sys: TestSystem;
  let env: StackEnv;
  let stack: Stack;
  let dir: string;
  let s3client: S3Client;
  let token: string;
  let otherToken: string;
  let source: string;
  let vtt: string;
  /** S3 started again on its port after a test stopped it (sys.close() closes only the first one) */
  let restartedS3: LocalS3 | undefined;

  beforeAll(async () => {
    // transcription by the sandbox's stand-in, in 12 s stretches overlapping by 3 s, so a 30 s talk takes three
    sys = await startSystem({
      name: 'edits',
      ports: PORTS,
      transcribeWithSandbox: true,
      env: { MEDIA_ACK_WAIT_MS: '4000', MEDIA_FAULT_DELAY_MS: '1500', TRANSCRIPTION_CHUNK_SECONDS: '12', TRANSCRIPTION_OVERLAP_SECONDS: '3' },
    });
    ({ env, stack, dir, s3client } = sys);
    source = join(dir, 'timecode.mp4');
    await generateTimecodeMedia(source, { durationSec: DURATION, fps: FPS, gopFrames: 60 });
    vtt = syntheticVtt().vtt;
    token = await sys.sandbox.signToken({ sub: 'user-edits', sessionId: 's-edits', videoId: 'v1' });
    otherToken = await sys.sandbox.signToken({ sub: 'someone-else', sessionId: 's-other', videoId: 'v2' });
  }, 240000);

  afterAll(async () => {
    await restartedS3?.close();
    await sys?.close();
  });

  const api = (path: string) => `${stack.services.gateway.url}${path}`;
  const auth = (t = token) => ({ authorization: `Bearer ${t}`, 'content-type': 'application/json' });
  const post = (path: string, body: unknown, headers: Record<string, string> = auth()) => fetch(api(path), { method: 'POST', headers, body: JSON.stringify(body) });
  /** GET (or another bodiless call) as the owner, or as `t` */
  const get = (path: string, init: RequestInit = {}, t = token) => fetch(api(path), { ...init, headers: { ...bearer(t), ...(init.headers as Record<string, string> | undefined) } });

  async function uploadVideo(captions = vtt, file = { path: source, name: 'timecode.mp4', type: 'video/mp4' }): Promise<Video> {
    const form = new FormData();
    form.append('video', new Blob([new Uint8Array(readFileSync(file.path))], { type: file.type }), file.name);
    form.append('vtt', new Blob([captions], { type: 'text/vtt' }), 'timecode.vtt');
    const res = await fetch(api('/api/videos/upload'), { method: 'POST', body: form, headers: bearer(token) });
    expect(res.status).toBe(201);
    const created = videoSchema.parse(await res.json());
    return eventually(async () => {
      const v = await getVideo(created.id);
      return v.status === 'completed' ? v : v.status === 'failed' ? Promise.reject(new Error(v.vttError ?? 'failed')) : undefined;
    }, 90000, 'upload completed');
  }

  async function getVideo(id: string): Promise<Video> {
    const res = await get(`/api/videos/${id}`);
    expect(res.status).toBe(200);
    return videoSchema.parse(await res.json());
  }

  async function transcriptOf(id: string): Promise<Transcript> {
    const res = await get(`/api/videos/${id}/transcript`);
    expect(res.status).toBe(200);
    return transcriptSchema.parse(await res.json());
  }

  async function jobDone(path: string, timeoutMs = 120000): Promise<Record<string, unknown>> {
    return eventually(async () => {
      const res = await get(path);
      if (res.status !== 200) return undefined;
      const job = (await res.json()) as Record<string, unknown>;
      return ['completed', 'error', 'failed', 'cancelled'].includes(String(job['status'])) ? job : undefined;
    }, timeoutMs, `job ${path}`);
  }

  async function downloadProcessed(id: string, name: string): Promise<string> {
    const res = await get(`/api/videos/${id}/stream/processed`);
    expect(res.status).toBe(200);
    const path = join(dir, name);
    writeFileSync(path, Buffer.from(await res.arrayBuffer()));
    return path;
  }

  async function objectText(key: string): Promise<string> {
    const obj = await s3client.send(new GetObjectCommand({ Bucket: env.S3_BUCKET, Key: key }));
    return obj.Body!.transformToString();
  }

  async function objectKeys(prefix: string): Promise<string[]> {
    const page = await s3client.send(new ListObjectsV2Command({ Bucket: env.S3_BUCKET, Prefix: prefix }));
    return (page.Contents ?? []).map((o) => o.Key!);
  }

  /** Source segments an edit list keeps, for the frame check. */
  const segmentsOf = (el: EditList) => el.segments;

  describe('cuts, then more cuts, then a reorder, on one video', () => {
    let video: Video;
    let el: EditList;

    beforeAll(async () => {
      video = await uploadVideo();
      el = identityEditList(DURATION);
    }, 120000);

    it('apply-cuts renders a frame-exact, in-sync video by the smart path and the transcript follows', async () => {
      const before = await transcriptOf(video.id);
      const cuts = [
        { start: 2.0, end: 3.5 },
        { start: 7.0, end: 9.0 },
      ];
      const res = await post(`/api/videos/${video.id}/apply-cuts`, { cuts });
      expect(res.status).toBe(202);
      const { jobId } = (await res.json()) as { jobId: string };
      expect(jobId).toMatch(/^cut_/);
      const job = await jobDone(`/api/video-processing/jobs/${jobId}`);
      expect(job['status']).toBe('completed');
      expect(job['progress']).toBe(100);
      expect((job['result'] as Record<string, unknown>)['path']).toBe('smart');
      // the ingest already put the original in the worker's cache: this first render downloaded nothing
      expect((job['result'] as Record<string, unknown>)['sourceCached']).toBe(true);
      el = applyCuts(el, cuts);

      const v = await getVideo(video.id);
      expect(v.processedFilename).toBe(`${jobId}.mp4`);
      expect(v.videoChanged).toBe(true);
      expect(v.vttChanged).toBe(true);
      expect(v.wordBywordChanged).toBe(true);
      expect(v.lastProcessedAt).not.toBeNull();
      expect(v.duration).toBeCloseTo(DURATION - 3.5, 2);

      const out = await downloadProcessed(video.id, 'cut1.mp4');
      const frames = await readFrameNumbers(out);
      expect(frames).toEqual(expectedFramesForSegments(segmentsOf(el), FPS));
      const sync = checkSync(frames, await readBurstOnsets(out, { minQuietSec: 0.015 }), FPS);
      expect(sync.matched).toBeGreaterThan(50);
      expect(sync.interiorMaxOffsetSec).toBeLessThanOrEqual(AUDIO_FRAME_SEC);
      expect(sync.maxOffsetSec).toBeLessThanOrEqual(0.04);

      const after = await transcriptOf(video.id);
      const removed = before.words.filter((w) => (w.start >= 2.0 && w.end <= 3.5) || (w.start >= 7.0 && w.end <= 9.0));
      expect(after.words).toHaveLength(before.words.length - removed.length);
      expect(after.version).toBeGreaterThan(before.version);
      // a word spoken at 10.1 s in the original plays 3.5 s earlier now
      const w = before.words.find((x) => Math.abs(x.start - 10.1) < 1e-6)!;
      const moved = after.words.find((x) => x.text === w.text)!;
      expect(moved.start).toBeCloseTo(10.1 - 3.5, 3);
      expect(moved.end - moved.start).toBeCloseTo(w.end - w.start, 3);
      expect(after.words.every((x, i) => i === 0 || x.start >= after.words[i - 1]!.start)).toBe(true);
    }, 180000);

    it('50 more cuts compose onto the edit list and audio stays within one audio frame', async () => {
      const v = await getVideo(video.id);
      const cuts = Array.from({ length: 50 }, (_, i) => ({ start: 0.3 + i * 0.4, end: 0.3 + i * 0.4 + 0.11 })).filter((c) => c.end < (v.duration ?? 0));
      expect(cuts).toHaveLength(50);
      const res = await post(`/api/videos/${video.id}/apply-cuts`, { cuts });
      expect(res.status).toBe(202);
      const { jobId } = (await res.json()) as { jobId: string };
      expect((await jobDone(`/api/video-processing/jobs/${jobId}`))['status']).toBe('completed');
      el = applyCuts(el, cuts);
      const out = await downloadProcessed(video.id, 'cut50.mp4');
      const frames = await readFrameNumbers(out);
      // the gateway snaps every boundary to a frame: compare frame sets of the same snapped segments
      expect(frames.length).toBeGreaterThan(0);
      expect(Math.abs(frames.length - expectedFramesForSegments(segmentsOf(el), FPS).length)).toBeLessThanOrEqual(50);
      expect(frames.every((n, k) => k === 0 || n > frames[k - 1]!)).toBe(true);
      const sync = checkSync(frames, await readBurstOnsets(out, { minQuietSec: 0.015 }), FPS);
      expect(sync.matched).toBeGreaterThan(20);
      expect(sync.interiorMaxOffsetSec).toBeLessThanOrEqual(AUDIO_FRAME_SEC);
      expect(sync.maxOffsetSec).toBeLessThanOrEqual(0.04);
    }, 180000);

    it('a second processing job on the video answers 409 while one runs', async () => {
      const first = await post(`/api/videos/${video.id}/apply-cuts`, { cuts: [{ start: 0, end: 0.5 }] });
      expect(first.status).toBe(202);
      const second = await post(`/api/videos/${video.id}/process-silence`, { silenceRanges: [{ start: 1, end: 1.2 }] });
      expect(second.status).toBe(409);
      expect(((await second.json()) as { message: string }).message).toMatch(/still being processed/);
      const { jobId } = (await first.json()) as { jobId: string };
      expect((await jobDone(`/api/video-processing/jobs/${jobId}`))['status']).toBe('completed');
      el = applyCuts(el, [{ start: 0, end: 0.5 }]);
    }, 180000);

    it('reorder plays the paragraphs in the new order; a stale transcript answers OUTDATED_TRANSCRIPT', async () => {
      const t = await transcriptOf(video.id);
      expect(t.paragraphs.length).toBeGreaterThanOrEqual(2);
      const stale = await post(`/api/videos/${video.id}/reorder`, { groupOrder: [...t.paragraphs.map((p) => p.groupNumber!)].reverse(), userId: 1, transcriptVersion: t.version - 1 });
      expect(stale.status).toBe(409);
      expect(((await stale.json()) as { code: string }).code).toBe('OUTDATED_TRANSCRIPT');

      const order = [...t.paragraphs].reverse();
      const res = await post(`/api/videos/${video.id}/reorder`, { groupOrder: order.map((p) => p.groupNumber!), userId: 1, transcriptVersion: t.version });
      expect(res.status).toBe(202);
      const { jobId } = (await res.json()) as { jobId: string };
      expect(jobId).toMatch(/^reorder_/);
      const job = await jobDone(`/api/jobs/${jobId}/status`);
      expect(job['status']).toBe('completed');
      const out = await downloadProcessed(video.id, 'reorder.mp4');
      const frames = await readFrameNumbers(out);
      // the first frame now comes from the last paragraph: later in the source than the last frame
      expect(frames[0]!).toBeGreaterThan(frames[frames.length - 1]!);
      const sync = checkSync(frames, await readBurstOnsets(out, { minQuietSec: 0.015 }), FPS);
      expect(sync.interiorMaxOffsetSec).toBeLessThanOrEqual(AUDIO_FRAME_SEC);
      expect(sync.maxOffsetSec).toBeLessThanOrEqual(0.04);
      const after = await transcriptOf(video.id);
      expect(after.words[0]!.text).toBe(t.words[order[0]!.wordIndices[0]!]!.text);
    }, 180000);

    it('revert to original drops the edit list and the clips', async () => {
      const res = await post(`/api/videos/${video.id}/revert`, {});
      expect(res.status).toBe(200);
      const v = await getVideo(video.id);
      expect(v.processedFilename).toBeNull();
      expect(v.videoChanged).toBe(false);
      expect(v.duration).toBeCloseTo(DURATION, 1);
      const frames = await readFrameNumbers(await downloadProcessed(video.id, 'reverted.mp4'));
      expect(frames).toEqual(Array.from({ length: DURATION * FPS }, (_, i) => i));
    }, 120000);
  });

  describe('replace transcript', () => {
    it('a SubRip file timed on the recording follows the cuts, is one undoable step, and is what a revert gives', async () => {
      const video = await uploadVideo();
      const cuts = [{ start: 2.0, end: 3.5 }];
      const cut = await post(`/api/videos/${video.id}/apply-cuts`, { cuts });
      const { jobId } = (await cut.json()) as { jobId: string };
      expect((await jobDone(`/api/video-processing/jobs/${jobId}`))['status']).toBe('completed');
      const before = await transcriptOf(video.id);

      const srt = ['1', '00:00:01,000 --> 00:00:01,500', 'alpha', '', '2', '00:00:02,500 --> 00:00:03,000', 'beta', '', '3', '00:00:04,000 -> 00:00:04,500', 'broken', '', '4', '00:00:04,000 --> 00:00:04,500', 'gamma', ''].join('\n');
      const form = new FormData();
      form.append('vtt', new Blob([srt], { type: 'application/x-subrip' }), 'better.srt');
      const res = await fetch(api(`/api/videos/${video.id}/transcript/replace`), { method: 'POST', body: form, headers: bearer(token) });
      expect(res.status).toBe(200);
      const answer = (await res.json()) as { version: { before: number; after: number }; wordCount: number; warnings: { line: number | null; message: string }[] };
      expect(answer.wordCount).toBe(2);
      expect(answer.warnings).toEqual([{ line: 10, message: expect.stringContaining('-->') }]);
      const replaced = await transcriptOf(video.id);
      // beta was in the cut part; gamma plays 1.5 s earlier
      expect(replaced.words.map((w) => [w.text, w.start])).toEqual([['alpha', 1.0], ['gamma', 2.5]]);
      expect((await getVideo(video.id)).vttChanged).toBe(true);

      const undo = await post(`/api/videos/${video.id}/versions/${answer.version.before}/restore`, { expectedVersion: answer.version.after });
      expect(undo.status).toBe(200);
      expect((await transcriptOf(video.id)).words.map((w) => w.text)).toEqual(before.words.map((w) => w.text));

      expect((await post(`/api/videos/${video.id}/revert`, {})).status).toBe(200);
      expect((await transcriptOf(video.id)).words.map((w) => [w.text, w.start])).toEqual([['alpha', 1.0], ['beta', 2.5], ['gamma', 4.0]]);

      const stranger = await fetch(api(`/api/videos/${video.id}/transcript/replace`), { method: 'POST', body: form, headers: bearer(otherToken) });
      expect(stranger.status).toBe(404);
      const bad = new FormData();
      bad.append('vtt', new Blob(['[Script Info]\n'], { type: 'text/plain' }), 'x.ass');
      const refused = await fetch(api(`/api/videos/${video.id}/transcript/replace`), { method: 'POST', body: bad, headers: bearer(token) });
      expect(refused.status).toBe(422);
      expect((await transcriptOf(video.id)).words).toHaveLength(3);
    }, 180000);
  });

  describe('recordings in MKV and WebM', () => {
    it.each([
      ['an OBS MKV (H.264 + Opus)', 'obs.mkv', 'video/x-matroska', { codec: 'h264' as const }],
      ['a browser WebM (VP9 + Opus)', 'screen.webm', 'video/webm', { codec: 'vp9' as const }],
    ])('%s uploads, ingests to an MP4 master (the upload kept as it came), and cuts frame-exactly', async (_what, name, type, o) => {
      const path = join(dir, name);
      await generateTimecodeMedia(path, { durationSec: 6, fps: FPS, gopFrames: 30, audioCodec: 'opus', ...o });
      const video = await uploadVideo(vtt, { path, name, type });
      const originals = await objectKeys(`videos/${video.id}/original/`);
      const master = originals.find((k) => k.endsWith('.master.mp4'));
      expect(master).toBeDefined();
      const uploaded = originals.find((k) => k !== master && k.endsWith('.mp4'))!;
      const head = await s3client.send(new GetObjectCommand({ Bucket: env.S3_BUCKET, Key: uploaded, Range: 'bytes=0-3' }));
      expect(Buffer.from(await head.Body!.transformToByteArray()).toString('hex')).toBe('1a45dfa3');
      // what the player reads is the MP4 master
      const playing = await get(`/api/videos/${video.id}/stream/processed`, { headers: { Range: 'bytes=0-7' } });
      expect(Buffer.from(await playing.arrayBuffer()).subarray(4, 8).toString('latin1')).toBe('ftyp');

      const cuts = [{ start: 1.0, end: 2.0 }];
      const res = await post(`/api/videos/${video.id}/apply-cuts`, { cuts });
      expect(res.status).toBe(202);
      const { jobId } = (await res.json()) as { jobId: string };
      expect((await jobDone(`/api/video-processing/jobs/${jobId}`))['status']).toBe('completed');
      const out = await downloadProcessed(video.id, `${name}.cut.mp4`);
      expect(await readFrameNumbers(out)).toEqual(expectedFramesForSegments(applyCuts(identityEditList(video.duration!), cuts).segments, FPS));
    }, 180000);
  });

  describe('videos without captions', () => {
    /** Uploads a video alone and waits for it to complete or fail. */
    async function uploadAlone(path: string, name: string): Promise<Video> {
      const form = new FormData();
      form.append('video', new Blob([new Uint8Array(readFileSync(path))], { type: 'video/mp4' }), name);
      const res = await fetch(api('/api/videos/upload'), { method: 'POST', body: form, headers: bearer(token) });
      expect(res.status).toBe(201);
      const created = videoSchema.parse(await res.json());
      expect(created.vttMethod).toBe('Transcription');
      return settledVideo(created.id);
    }
    const settledVideo = (id: string) =>
      eventually(async () => {
        const v = await getVideo(id);
        return v.status === 'completed' || v.status === 'failed' ? v : undefined;
      }, 90000, 'video settled');

    it('are transcribed in overlapping stretches, joined without a word lost or doubled', async () => {
      const media = join(ROOT, '.data', 'test-media');
      execFileSync('bash', [join(ROOT, 'tools/media/generate-test-media.sh'), media], { stdio: 'ignore' });
      // the sandbox knows the talk's script: it serves it, captions beside it
      copyFileSync(join(media, 'demo.mp4'), join(dir, 'talk-known.mp4'));
      copyFileSync(join(media, 'demo.vtt'), join(dir, 'talk-known.vtt'));
      expect(await (await fetch(api('/api/vtt/status'))).json()).toMatchObject({ transcription: true });

      const video = await uploadAlone(join(dir, 'talk-known.mp4'), 'my talk.mp4');
      expect(video).toMatchObject({ status: 'completed', vttMethod: 'Transcription', vttError: null, languageCode: 'en' });
      const heard = await transcriptOf(video.id);
      const expected = buildTranscriptFromCaptions(readFileSync(join(media, 'demo.vtt'), 'utf8')).words;
      expect(heard.words.map((w) => w.text)).toEqual(expected.map((w) => w.text));
      for (const [i, w] of heard.words.entries()) expect(Math.abs(w.start - expected[i]!.start)).toBeLessThan(0.05);
      // three requests, and what was heard is kept beside the captions
      const calls = sys.sandbox.requests().filter((r) => r.path === '/v1/audio/transcriptions' && r.status === 200);
      expect(calls).toHaveLength(3);
      expect(await objectKeys(`videos/${video.id}/captions/`)).toEqual([expect.stringMatching(/\.transcribed\.json$/)]);
    }, 120000);

    it('audio the service cannot transcribe fails with its reason, and Retry transcription runs it again', async () => {
      const path = join(dir, 'tones.mp4');
      await generateTimecodeMedia(path, { durationSec: 4, fps: FPS, gopFrames: 30 });
      const failed = await uploadAlone(path, 'tones.mp4');
      expect(failed.status).toBe('failed');
      expect(failed.vttError).toMatch(/^The video could not be transcribed: The transcription service answered HTTP 400: The sandbox transcribes only media whose script it knows/);
      const before = sys.sandbox.requests().filter((r) => r.path === '/v1/audio/transcriptions').length;
      const retry = await fetch(api(`/api/videos/${failed.id}/transcribe`), { method: 'POST', headers: bearer(token) });
      expect(retry.status).toBe(202);
      expect((await settledVideo(failed.id)).status).toBe('failed');
      expect(sys.sandbox.requests().filter((r) => r.path === '/v1/audio/transcriptions').length).toBe(before + 1);
    }, 120000);
  });

  describe('mutes, fillers, captions, clips', () => {
    let video: Video;
    beforeAll(async () => {
      video = await uploadVideo(talkVtt());
    }, 120000);

    it('mutes at three levels splice re-encoded audio around them into the copied audio, at the level asked', async () => {
      const original = await downloadProcessed(video.id, 'mute-src.mp4');
      const res = await post('/api/mute/jobs', {
        videoId: video.id,
        pendingMutes: [
          { startTime: 1, endTime: 3, level: 'silence' },
          { startTime: 5, endTime: 7, level: 'whisper' },
          { startTime: 9, endTime: 11, level: 'background' },
        ],
      });
      expect(res.status).toBe(202);
      const { jobId } = (await res.json()) as { jobId: string };
      expect(jobId).toMatch(/^mute_/);
      const job = await jobDone(`/api/jobs/${jobId}/status`);
      expect(job['status']).toBe('completed');
      const result = job['result'] as Record<string, unknown>;
      expect(result['path']).toBe('copy-video');
      // only the audio around the mutes re-encoded, measured against the source outside them
      expect(result['audio']).toBe('spliced');
      expect((result['audioSplice'] as { regions: number; snrDb: number }).regions).toBe(3);
      expect((result['audioSplice'] as { regions: number; snrDb: number }).snrDb).toBeGreaterThanOrEqual(SPLICE_MIN_SNR_DB);
      const out = await downloadProcessed(video.id, 'muted.mp4');
      expect(await readFrameNumbers(out)).toEqual(Array.from({ length: DURATION * FPS }, (_, i) => i));
      const ref = await detectToneLevel(original, 1, 3);
      expect(ref).toBeGreaterThan(0.01);
      expect(await detectToneLevel(out, 1.05, 2.95)).toBeLessThan(ref * 0.02);
      expect((await detectToneLevel(out, 5.05, 6.95)) / ref).toBeCloseTo(0.1, 1);
      expect((await detectToneLevel(out, 9.05, 10.95)) / ref).toBeCloseTo(0.3, 1);
      expect((await detectToneLevel(out, 13, 15)) / ref).toBeCloseTo(1, 1);
    }, 180000);

    it('filler removal cuts the words at the given indices; the transcript and its regenerated subtitles read right', async () => {
      const t = await transcriptOf(video.id);
      expect(t.words.map((w) => w.text).join(' ')).toBe(TALK);
      // what Remove Filler Words sends: the detected fillers ("So," is quick: a filler too)
      expect(t.fillerWords.map((i) => t.words[i]!.text)).toEqual(['Um,', 'So,', 'uh,', 'um,', 'uh,']);
      const res = await post(`/api/videos/${video.id}/remove-filler-words`, { fillerWordIndices: t.fillerWords });
      expect(res.status).toBe(202);
      const { jobId } = (await res.json()) as { jobId: string };
      expect(jobId).toMatch(/^filler_/);
      expect((await jobDone(`/api/video-processing/jobs/${jobId}`))['status']).toBe('completed');
      const after = await transcriptOf(video.id);
      expect(after.words).toHaveLength(t.words.length - t.fillerWords.length);
      // sentence starts capitalised again, no comma left where a filler was
      const tidy = [
        'Hi, and welcome to WordCut.',
        'Today I will show you how to edit a video by editing its text.',
        'Every word is linked to its moment in the recording.',
        'If you delete a word, that piece of video is cut.',
        'You can also remove all the filler words at once.',
        'Long pauses can be shortened too.',
        'Thanks for watching, and happy editing!',
      ].join(' ');
      expect(after.words.map((w) => w.text).join(' ')).toBe(tidy);
      const cueText = (await objectText(StorageKeys.renderVtt(video.id, jobId)))
        .split('\n')
        .filter((line) => line !== '' && line !== 'WEBVTT' && !line.startsWith('Language:') && !line.includes('-->'))
        .map((line) => line.replace(/<[^>]*>/g, ''))
        .join(' ');
      expect(cueText).toBe(tidy);
      const wordByWord = JSON.parse(await objectText(StorageKeys.renderWordByWord(video.id, jobId))) as { words: Array<{ text: string }> };
      expect(wordByWord.words.map((w) => w.text).join(' ')).toBe(tidy);
    }, 180000);

    it('caption burning renders from the current transcript (full re-encode)', async () => {
      const res = await post(`/api/videos/${video.id}/burn-captions`, {});
      expect(res.status).toBe(202);
      const { jobId } = (await res.json()) as { jobId: string };
      expect(jobId).toMatch(/^caption_/);
      const job = await jobDone(`/api/caption-jobs/${jobId}`);
      expect(job['status']).toBe('completed');
      expect((job['result'] as Record<string, unknown>)['path']).toBe('reencode');
    }, 180000);

    it('a 9:16 clip renders at 1080x1920 with its own retimed captions; download is {name}.mp4', async () => {
      const res = await post('/api/clips', { videoId: video.id, name: 'My clip', startTime: 4, endTime: 6, aspectRatio: '9:16' });
      expect(res.status).toBe(202);
      const clip = (await res.json()) as { id: string; jobId: string; name: string; aspectRatio: string };
      expect(clip).toMatchObject({ name: 'My clip', aspectRatio: '9:16' });
      await eventually(async () => {
        const list = (await (await get(`/api/videos/${video.id}/clips`)).json()) as Array<{ id: string; status: string }>;
        const c = list.find((x) => x.id === clip.id);
        if (c?.status === 'failed') throw new Error('clip failed');
        return c?.status === 'completed' ? c : undefined;
      }, 120000, 'clip completed');
      const dl = await get(`/api/clips/${clip.id}/download`);
      expect(dl.status).toBe(200);
      expect(dl.headers.get('content-disposition')).toContain('filename="My clip.mp4"');
      const path = join(dir, 'clip.mp4');
      writeFileSync(path, Buffer.from(await dl.arrayBuffer()));
      const dims = execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', path]).toString().trim();
      expect(dims).toBe('1080,1920');
      const vttRes = await get(`/api/clips/${clip.id}/vtt`);
      expect(vttRes.status).toBe(200);
      expect(vttRes.headers.get('content-disposition')).toContain('My clip.vtt');
      const text = await vttRes.text();
      expect(text.startsWith('WEBVTT')).toBe(true);
      expect(text).toMatch(/00:00:00\.\d{3} -->/);
      // exports for other editors carry the clip as a timeline of its own: its two seconds of source frames
      for (const [format, read] of [['otio', readOtio], ['fcpxml', readFcpxml]] as const) {
        const exported = await get(`/api/videos/${video.id}/export/${format}`);
        expect(exported.status).toBe(200);
        const timelines = read(await exported.text()).timelines;
        expect(timelines.map((t) => t.name)).toEqual([expect.any(String), 'My clip']);
        const frames = timelines[1]!.tracks[0]!.events.reduce((n, e) => n + e.srcOut - e.srcIn, 0);
        expect(frames).toBe(2 * FPS);
      }
      const del = await get(`/api/clips/${clip.id}`, { method: 'DELETE' });
      expect(del.status).toBe(200);
      expect(await objectKeys(`videos/${video.id}/clips/${clip.id}/`)).toEqual([]);
    }, 180000);

    it('revert to original brings the original text back, fillers and all', async () => {
      const res = await post(`/api/videos/${video.id}/revert`, {});
      expect(res.status).toBe(200);
      expect((await transcriptOf(video.id)).words.map((w) => w.text).join(' ')).toBe(TALK);
    }, 60000);
  });

  describe('jobs: authentication, listing, cancel, crashes and dead letters', () => {
    let video: Video;
    beforeAll(async () => {
      video = await uploadVideo();
    }, 120000);

    it("needs a bearer token: 'Authentication required'", async () => {
      const res = await post(`/api/videos/${video.id}/apply-cuts`, { cuts: [{ start: 1, end: 2 }] }, { 'content-type': 'application/json' });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { message: string }).message).toBe('Authentication required');
      const list = await fetch(api('/api/jobs/user-jobs'));
      expect(list.status).toBe(401);
    });

    it('cancel kills the render, removes partial outputs, frees the video; only the owner may cancel', async () => {
      const res = await post(`/api/videos/${video.id}/process-silence`, { silenceRanges: [{ start: 1, end: 2 }] });
      expect(res.status).toBe(202);
      const { jobId } = (await res.json()) as { jobId: string };
      expect(jobId).toMatch(/^silence_/);
      // listed once the jobs service has recorded it (milliseconds after the 202)
      await eventually(async () => {
        const list = (await (await fetch(api('/api/jobs/user-jobs'), { headers: auth() })).json()) as { jobs: Array<{ id: string }> };
        return list.jobs.some((j) => j.id === jobId) ? list : undefined;
      }, 10000, 'job listed');
      // someone else's job is as unknown to another person as a missing one: same status, same code
      const foreign = await fetch(api(`/api/jobs/${jobId}/cancel`), { method: 'POST', headers: auth(otherToken) });
      const unknown = await fetch(api(`/api/jobs/${jobId.replace(/[0-9a-f]{12}$/, '000000000000')}/cancel`), { method: 'POST', headers: auth(otherToken) });
      expect([foreign.status, unknown.status]).toEqual([404, 404]);
      expect(((await foreign.json()) as { code: string }).code).toBe(((await unknown.json()) as { code: string }).code);
      expect((await get(`/api/silence-jobs/${jobId}`, {}, otherToken)).status).toBe(404);
      const cancel = await fetch(api(`/api/jobs/${jobId}/cancel`), { method: 'POST', headers: auth() });
      expect(cancel.status).toBe(200);
      expect((await jobDone(`/api/silence-jobs/${jobId}`))['status']).toBe('cancelled');
      const again = await fetch(api(`/api/jobs/${jobId}/cancel`), { method: 'POST', headers: auth() });
      expect(again.status).toBe(409);
      // the worker kills ffmpeg and removes what it had written
      await eventually(() => stack.services.media.lines.find((l) => l['jobId'] === jobId && /^render (cancelled|skipped)/.test(String(l.msg))), 20000, 'the worker stopped the render');
      expect(await objectKeys(`videos/${video.id}/renders/${jobId}`)).toEqual([]);
      expect((await getVideo(video.id)).processedFilename).toBeNull();
      // the video is free again
      const next = await post(`/api/videos/${video.id}/apply-cuts`, { cuts: [{ start: 20, end: 21 }] });
      expect(next.status).toBe(202);
      const { jobId: nextId } = (await next.json()) as { jobId: string };
      expect((await jobDone(`/api/video-processing/jobs/${nextId}`))['status']).toBe('completed');
    }, 180000);

    it('a worker killed mid-job: the job is redelivered and completes once', async () => {
      const before = await getVideo(video.id);
      const res = await post(`/api/videos/${video.id}/apply-cuts`, { cuts: [{ start: 10, end: 11 }] });
      expect(res.status).toBe(202);
      const { jobId } = (await res.json()) as { jobId: string };
      await eventually(async () => {
        const j = (await (await get(`/api/video-processing/jobs/${jobId}`)).json()) as { status: string };
        return j.status === 'processing' ? j : undefined;
      }, 30000, 'job processing');
      await stack.services.media.kill('SIGKILL');
      stack.services.media.start();
      await stack.services.media.waitHealthy(60000);
      const job = await jobDone(`/api/video-processing/jobs/${jobId}`);
      expect(job['status']).toBe('completed');
      const v = await getVideo(video.id);
      expect(v.processedFilename).toBe(`${jobId}.mp4`);
      expect(v.duration).toBeCloseTo((before.duration ?? 0) - 1, 1);
      expect(await objectKeys(`videos/${video.id}/renders/${jobId}.mp4`)).toHaveLength(1);
    }, 180000);

    it('a render that fails three times (storage down) is marked failed with its error and dead-lettered; the video is free again', async () => {
      // S3 stops answering once the job is accepted: every attempt fails to read the original (a
      // fault that may pass, so each delivery retries), the third is the last; then S3 comes back
      const v = await getVideo(video.id);
      const res = await post(`/api/videos/${v.id}/apply-cuts`, { cuts: [{ start: 2, end: 3 }] });
      expect(res.status).toBe(202);
      const { jobId } = (await res.json()) as { jobId: string };
      // each delivery waits MEDIA_FAULT_DELAY_MS (1.5 s) before it reads the original: S3 is gone by then
      await sys.s3.close();
      let job: Record<string, unknown>;
      try {
        job = await jobDone(`/api/video-processing/jobs/${jobId}`, 150000);
      } finally {
        restartedS3 = await startLocalS3({ port: Number(new URL(sys.s3.endpoint).port), directory: join(sys.dir, 's3') });
      }
      expect(job['status']).toBe('error');
      expect(String(job['error'])).toMatch(/Rendering failed/);
      expect(job['attempts']).toBe(3);
      expect(await eventually(() => stack.services.media.lines.find((l) => l.msg === 'render failed for good' && l['jobId'] === jobId), 10000, 'the render dead-lettered')).toBeTruthy();
      const next = await post(`/api/videos/${v.id}/apply-cuts`, { cuts: [{ start: 2, end: 3 }] });
      expect(next.status).toBe(202);
      const { jobId: nextId } = (await next.json()) as { jobId: string };
      expect((await jobDone(`/api/video-processing/jobs/${nextId}`))['status']).toBe('completed');
    }, 200000);

    it('a render whose original is not media fails at once with its error (no retry can help); the video is free again', async () => {
      // the original is replaced by something that is not a video: the media check refuses it
      const v = await getVideo(video.id);
      const keys = await objectKeys(`videos/${video.id}/original/`);
      const original = keys.find((k) => k.endsWith('.mp4'))!;
      const { PutObjectCommand } = await import('@aws-sdk/client-s3');
      await s3client.send(new PutObjectCommand({ Bucket: env.S3_BUCKET, Key: original, Body: Buffer.from('not a video at all') }));
      const res = await post(`/api/videos/${v.id}/apply-cuts`, { cuts: [{ start: 2, end: 3 }] });
      expect(res.status).toBe(202);
      const { jobId } = (await res.json()) as { jobId: string };
      const job = await jobDone(`/api/video-processing/jobs/${jobId}`, 150000);
      expect(job['status']).toBe('error');
      expect(String(job['error'])).toMatch(/Rendering failed: not a playable media file/);
      expect(job['attempts']).toBe(1);
      const next = await post(`/api/videos/${v.id}/apply-cuts`, { cuts: [{ start: 2, end: 3 }] });
      expect(next.status).toBe(202);
    }, 200000);
  });
});
