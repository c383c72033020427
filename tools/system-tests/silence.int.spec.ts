/**
 * Pause detection and removal through every service as a real process (Postgres, NATS, s3rver,
 * ffmpeg), on the synthesised talk of tools/media/generate-test-media.sh, whose pauses are known to
 * the millisecond: detect-silence finds every pause over the threshold within 50 ms of its true
 * edges and types it as the talk was written (dead air technical, the pause after 'um' awkward, ...);
 * the analysis is stored per version and owned like the video; process-silence with the
 * recommended ranges gives the expected duration, with every word kept and where the audio has it.
 * Requires the services to be built (`npm run build:services`).
 */
import { DeleteObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { detectSilenceResponseSchema, StorageKeys, transcriptSchema, videoSchema, type DetectSilenceResponse, type Transcript, type Video } from '@wordcut/contracts';
import { applyCuts, identityEditList, outputDuration, quantize, toOutput } from '@wordcut/edit-list';
import { padRemovalRanges } from '@wordcut/transcript';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { talkMedia, type TalkTruth } from '../media/talk-media';
import { ROOT } from '../stack/stack';
import { eventually } from '../testing/env';
import { bearer } from '../testing/identity';
import { startSystem, type TestSystem } from './system';

const PORTS = { gateway: 13800, media: 13801, jobs: 13802, export: 13803, analytics: 13804 };
const MEDIA = join(ROOT, '.data', 'test-media');
/** How close a found pause edge must be to the true one. */
const EDGE = 0.05;
const FPS = 30;

describe('silence: pauses of a synthesised talk found, explained and removed', () => {
  let sys: TestSystem;
  let truth: TalkTruth;
  let token: string;
  let strangerToken: string;
  let video: Video;

  const api = (path: string) => sys.api(path);
  const json = { 'content-type': 'application/json' };
  const detect = (id: string, body: unknown, t = token) => fetch(api(`/api/videos/${id}/detect-silence`), { method: 'POST', headers: { ...json, ...bearer(t) }, body: JSON.stringify(body) });
  const analysis = async (id: string, body: unknown): Promise<DetectSilenceResponse> => {
    const res = await detect(id, body);
    expect(res.status).toBe(200);
    return detectSilenceResponseSchema.parse(await res.json());
  };
  const getVideo = async (id: string): Promise<Video> => videoSchema.parse(await (await fetch(api(`/api/videos/${id}`), { headers: bearer(token) })).json());
  const transcriptOf = async (id: string): Promise<Transcript> => transcriptSchema.parse(await (await fetch(api(`/api/videos/${id}/transcript`), { headers: bearer(token) })).json());
  /** The pause found over a true one (they overlap). */
  const over = (a: DetectSilenceResponse, p: { start: number; end: number }) => a.silences.find((s) => s.startTime < p.end && s.endTime > p.start);

  beforeAll(async () => {
    const talk = talkMedia(MEDIA);
    truth = talk.truth;
    sys = await startSystem({ name: 'silence', ports: PORTS });
    token = await sys.sandbox.signToken({ sub: 'user-silence', sessionId: 's-silence', videoId: 'talk' });
    strangerToken = await sys.sandbox.signToken({ sub: 'someone-else', sessionId: 's-other', videoId: 'other' });
    const form = new FormData();
    form.append('video', new Blob([new Uint8Array(readFileSync(talk.mp4))], { type: 'video/mp4' }), 'talk.mp4');
    form.append('vtt', new Blob([readFileSync(talk.vtt, 'utf8')], { type: 'text/vtt' }), 'talk.vtt');
    const res = await fetch(api('/api/videos/upload'), { method: 'POST', body: form, headers: bearer(token) });
    expect(res.status).toBe(201);
    const created = videoSchema.parse(await res.json());
    video = await eventually(async () => {
      const v = await getVideo(created.id);
      return v.status === 'completed' ? v : v.status === 'failed' ? Promise.reject(new Error(v.vttError ?? 'failed')) : undefined;
    }, 90000, 'upload completed');
  }, 240000);

  afterAll(async () => {
    await sys?.close();
  });

  it('finds every pause over the threshold within 50 ms of its true edges, typed, recommended and in context', async () => {
    const a = await analysis(video.id, { minPauseDuration: 0.5, useAutoThresholds: false });
    expect(truth.pauses.every((p) => p.end - p.start > 0.5)).toBe(true);
    for (const p of truth.pauses) {
      const s = over(a, p);
      // the trailing dead air ends where the media ends
      const end = p.end >= truth.duration - 0.001 ? video.duration! : p.end;
      expect({ at: p.start, type: s?.pauseType, start: Math.abs(s!.startTime - p.start) <= EDGE, end: Math.abs(s!.endTime - end) <= EDGE }).toEqual({
        at: p.start,
        type: p.type,
        start: true,
        end: true,
      });
      expect(s!.recommendation).toBe(p.type === 'technical' || p.type === 'awkward' ? 'remove' : 'keep');
      expect(s!.reason.length).toBeGreaterThan(10);
    }
    expect(a.silences).toHaveLength(truth.pauses.length);
    const awkward = a.silences.find((s) => s.pauseType === 'awkward')!;
    expect(awkward).toMatchObject({ precedingText: 'The first one is, um,', followingText: 'cutting the pauses that nobody', reason: "A hesitation after the filler 'um'." });
    expect(a.silences[0]).toMatchObject({ pauseType: 'technical', precedingText: '', followingText: 'Welcome back to the channel.' });
    expect(a.speechMetrics).toMatchObject({ speechPattern: 'steady', suggestedThresholds: { minPauseDuration: 1.2 } });
    expect(a.speechMetrics.wordsPerMinute).toBeGreaterThan(100);
    expect(a.speechMetrics.wordsPerMinute).toBeLessThan(170);
    expect(a.summary).toMatchObject({ total: 8, recommended: 3, minPauseDuration: 0.5, autoThresholdApplied: false, padding: 0.1 });
  });

  it('with the defaults (2 s, automatic thresholds) applies the speaker threshold learnt from their own pauses', async () => {
    const a = await analysis(video.id, {});
    expect(a.summary).toMatchObject({ minPauseDuration: 1.2, autoThresholdApplied: true, total: 4 });
    expect(a.silences.map((s) => s.pauseType)).toEqual(['technical', 'awkward', 'dramatic', 'technical']);
    const fixed = await analysis(video.id, { useAutoThresholds: false });
    expect(fixed.summary).toMatchObject({ minPauseDuration: 2, total: 2 });
  });

  it('answers a repeat from the store, another person 404 like a missing video, no identity 401', async () => {
    const body = { minPauseDuration: 0.5, useAutoThresholds: false };
    const first = await analysis(video.id, body);
    // the energy series was made at ingest, with the peaks; without it a repeat still answers, from the store
    const key = StorageKeys.energy(video.id, 'original');
    await sys.s3client.send(new HeadObjectCommand({ Bucket: sys.env.S3_BUCKET, Key: key }));
    await sys.s3client.send(new DeleteObjectCommand({ Bucket: sys.env.S3_BUCKET, Key: key }));
    expect(await analysis(video.id, body)).toEqual(first);
    const foreign = await detect(video.id, body, strangerToken);
    const missing = await detect('00000000-0000-4000-8000-000000000000', body, strangerToken);
    expect([foreign.status, missing.status]).toEqual([404, 404]);
    expect(((await foreign.json()) as { code: string }).code).toBe(((await missing.json()) as { code: string }).code);
    const anonymous = await fetch(api(`/api/videos/${video.id}/detect-silence`), { method: 'POST', headers: json, body: JSON.stringify(body) });
    expect(anonymous.status).toBe(401);
    expect((await detect(video.id, { minPauseDuration: 0 })).status).toBe(400);
    // other parameters need the energy again: a media worker builds it from the media
    expect((await analysis(video.id, { minPauseDuration: 0.6, useAutoThresholds: false })).silences.map((s) => [s.startTime, s.endTime])).toEqual(
      first.silences.map((s) => [s.startTime, s.endTime]),
    );
  });

  it('removes the recommended pauses: the expected duration, every word kept and where the audio has it', async () => {
    const before = await transcriptOf(video.id);
    const a = await analysis(video.id, { minPauseDuration: 0.5, useAutoThresholds: false });
    const chosen = a.silences.filter((s) => s.recommendation === 'remove').map((s) => ({ start: s.startTime, end: s.endTime }));
    const res = await fetch(api(`/api/videos/${video.id}/process-silence`), { method: 'POST', headers: { ...json, ...bearer(token) }, body: JSON.stringify({ silenceRanges: chosen }) });
    const started = (await res.json()) as { jobId: string };
    expect({ status: res.status, started }).toEqual({ status: 202, started: expect.objectContaining({ jobId: expect.any(String) }) });
    const { jobId } = started;
    expect(jobId).toMatch(/^silence_/);
    const job = await eventually(async () => {
      const j = (await (await fetch(api(`/api/silence-jobs/${jobId}`), { headers: bearer(token) })).json()) as { status: string; error?: string };
      return ['completed', 'error', 'cancelled'].includes(j.status) ? j : undefined;
    }, 120000, `silence job ${jobId}`);
    expect(job.status).toBe('completed');

    // what the gateway cut: the chosen pauses, padded next to speech, snapped to frames
    const original = identityEditList(video.duration!);
    const edited = quantize(applyCuts(original, padRemovalRanges(chosen, { padding: a.summary.padding, duration: video.duration! })), FPS);
    const after = await getVideo(video.id);
    expect(Math.abs(after.duration! - outputDuration(edited))).toBeLessThan(0.05);
    expect(Math.abs(video.duration! - after.duration! - a.summary.estimatedTimeSaved)).toBeLessThan(0.1);

    // every word kept, each at its old time moved by what was cut before it
    const now = await transcriptOf(video.id);
    expect(now.words.map((w) => w.text)).toEqual(before.words.map((w) => w.text));
    now.words.forEach((w, i) => expect(Math.abs(w.start - toOutput(edited, before.words[i]!.start)!)).toBeLessThan(0.01));

    // in sync: the new media's pauses sit between the new transcript's fragments, and each fragment's speech is whole
    const b = await analysis(video.id, { minPauseDuration: 0.15, useAutoThresholds: false });
    const firstWords = truth.fragments.map((f) => now.words[before.words.findIndex((w) => Math.abs(w.start - f.start) < 0.001)]!);
    const lastWords = truth.fragments.map((f) => now.words[before.words.findIndex((w) => Math.abs(w.end - f.end) < 0.001)]!);
    for (let k = 1; k < truth.fragments.length; k++) {
      const gap = { start: toOutput(edited, truth.fragments[k - 1]!.end)!, end: toOutput(edited, truth.fragments[k]!.start)! };
      const s = over(b, gap);
      expect({ k, found: !!s }).toEqual({ k, found: true });
      expect({ k, start: Math.abs(s!.startTime - gap.start) <= EDGE, end: Math.abs(s!.endTime - gap.end) <= EDGE }).toEqual({ k, start: true, end: true });
      expect({ k, words: Math.abs(s!.startTime - lastWords[k - 1]!.end) <= EDGE && Math.abs(s!.endTime - firstWords[k]!.start) <= EDGE }).toEqual({ k, words: true });
      expect(s!.followingText.startsWith(firstWords[k]!.text)).toBe(true);
    }
    // the pause after 'um,' keeps its padding on both sides
    const um = over(b, { start: toOutput(edited, truth.pauses[3]!.start)!, end: toOutput(edited, truth.pauses[3]!.end)! })!;
    expect(Math.abs(um.duration - 2 * a.summary.padding)).toBeLessThan(EDGE);
  }, 180000);
});
