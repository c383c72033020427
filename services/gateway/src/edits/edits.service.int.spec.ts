/**
 * The edit service on a real Postgres with the real stores (the bus and the object store are
 * in-memory fakes): ownership, one render per video decided by the database, a finished render
 * applied in one transaction (the transcript follows the media, the video points at the new
 * version, captions are stored beside it), repeated and late events, revert to the original, and
 * a clip whose render request cannot be queued.
 */
import { StorageKeys, Subjects, type VideoRenderCompletedEvent, type Word } from '@wordcut/contracts';
import { applyCuts, encodeFrameGrid, identityEditList, parseEditList, withCaptions } from '@wordcut/edit-list';
import type { InboundMessage, Messaging } from '@wordcut/messaging';
import { createLogger } from '@wordcut/platform';
import type { ObjectStorage } from '@wordcut/storage';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { gatewayTestDatabase } from '../../../../tools/testing/gateway-database';
import { ActiveJobs } from '../limits/limits';
import { ClipStore } from '../clips/clip-store';
import { BUSY_MESSAGE, CHANGED_MESSAGE, EditService } from './edits.service';
import { RenderStore } from './render-store';
import { TranscriptStore, type TranscriptContent } from '../transcripts/transcript-store';
import { VideoStore } from '../videos/video-store';
import { toApiVideo } from '../videos/video-api';
import { TimelineExports } from './timeline-export';
import { rejectedWith } from '../../../../tools/testing/app-error';
import { FakeJobBus } from '../../../../tools/testing/gateway-bus';

const OWNER = 'provider-user-1';

class MemoryStorage {
  readonly objects = new Map<string, Buffer>();
  async upload(key: string, body: Buffer) {
    this.objects.set(key, body);
    return { key, sizeBytes: body.length };
  }
  async getStream(key: string) {
    const o = this.objects.get(key);
    if (!o) throw new Error(`no object ${key}`);
    return { body: Readable.from([o]), contentLength: o.length };
  }
  async delete(key: string) {
    this.objects.delete(key);
  }
  async head(key: string) {
    const o = this.objects.get(key);
    return o ? { key, sizeBytes: o.length } : null;
  }
}

const database = gatewayTestDatabase(4);
const videos = database.store(VideoStore);
const transcripts = database.store(TranscriptStore);
const renders = database.store(RenderStore);
const clips = database.store(ClipStore);
let bus: FakeJobBus;
let storage: MemoryStorage;
let edits: EditService;

beforeAll(async () => {
  bus = new FakeJobBus();
  storage = new MemoryStorage();
  edits = new EditService(
    database.ds,
    bus as unknown as Messaging,
    storage as unknown as ObjectStorage,
    videos,
    transcripts,
    createLogger('edits-int-test', 'silent'),
    new ActiveJobs(10, renders, videos),
    renders,
    clips,
  );
});

const w = (text: string, start: number, order: number): Word => ({ text, start, end: start + 0.5, confidence: 0.95, group_number: 0, word_order: order });

/** "one" at 0.5 s, "two" at 2.5 s, "three" at 5 s, "four" at 8 s of a 10 s video. */
const ingestTranscript = (): TranscriptContent => ({
  languageCode: 'en',
  words: [w('one', 0.5, 0), w('two', 2.5, 1), w('three', 5, 2), w('four', 8, 3)],
  paragraphs: [{ start: 0.5, end: 8.5, wordIndices: [0, 1, 2, 3], groupNumber: 0 }],
  fillerWords: [],
});

/** A completed 10 s video of OWNER (25 fps, or a variable rate) with its ingest transcript loaded and stored. */
async function readyVideo(o: { variableFrameRate?: boolean } = {}) {
  const id = randomUUID();
  const ingestJobId = `ingest_${randomUUID()}`;
  await videos.create({
    id,
    title: 'Talk',
    originalName: 'talk.mp4',
    filename: 'talk.mp4',
    languageCode: 'en',
    ingestJobId,
    ingestSource: { kind: 'upload', videoKey: 'v', vttKey: 't' },
    ownerId: OWNER,
  });
  await database.ds.transaction(async (tx) => {
    await videos.ingestCompleted(tx, {
      jobId: ingestJobId,
      videoId: id,
      originalKey: `videos/${id}/original/o.mp4`,
      playbackKey: `videos/${id}/original/o.mp4`,
      transcriptKey: StorageKeys.ingestTranscript(id, ingestJobId),
      waveformKey: null,
      probe: {
        formatName: 'mov,mp4',
        durationSec: 10,
        sizeBytes: 1000,
        bitRate: 800,
        streams: [{ index: 0, codecType: 'video', codecName: 'h264', width: 640, height: 360, frameRate: 25, sampleRate: null, channels: null, durationSec: 10, ...(o.variableFrameRate ? { variableFrameRate: true } : {}) }],
      },
      durationSec: 10,
      width: 640,
      height: 360,
      hasAudio: true,
      sizeBytes: 1000,
      languageCode: 'en',
      worker: 'media-1',
      at: new Date().toISOString(),
    });
    await transcripts.replaceForVideo(tx, id, ingestTranscript());
  });
  await storage.upload(StorageKeys.ingestTranscript(id, ingestJobId), Buffer.from(JSON.stringify(ingestTranscript())));
  return edits.editableVideo(id, OWNER);
}

function completed(videoId: string, jobId: string, outputDurationSec: number): InboundMessage<VideoRenderCompletedEvent> {
  const data: VideoRenderCompletedEvent = {
    jobId,
    videoId,
    kind: 'cut',
    outputKey: StorageKeys.render(videoId, jobId),
    summary: { path: 'smart', fallbackReason: null, audio: 'copy-packets', encodedShare: 0.1, outputDurationSec, sizeBytes: 900, renderMs: 1200 },
    worker: 'media-1',
    at: new Date().toISOString(),
  };
  return { data, subject: Subjects.videoRenderCompleted, deliveryCount: 1, streamSequence: 1, msgId: undefined, working: () => undefined };
}

/** Requests a render cutting 2-4 s (the word "two") and reports it finished. */
async function cutAndApply(videoId: string) {
  const row = await edits.editableVideo(videoId, OWNER);
  const base = identityEditList(10);
  const jobId = await edits.requestRender(row, 'cut', OWNER, base, applyCuts(base, [{ start: 2, end: 4 }]), '1 cut');
  await storage.upload(StorageKeys.render(videoId, jobId), Buffer.from('rendered'));
  await edits.onRenderCompleted(completed(videoId, jobId, 8));
  return jobId;
}

describe('EditService (real stores)', () => {
  it("answers 404 for a stranger's video and 409 for a video still being prepared", async () => {
    const v = await readyVideo();
    expect(await rejectedWith(edits.ownedVideo(v.id, 'someone-else'))).toMatchObject({ statusCode: 404, message: `There is no video with id '${v.id}'.` });
    expect((await rejectedWith(edits.editableVideo(randomUUID(), OWNER))).statusCode).toBe(404);
    await database.ds.query(`UPDATE library.videos SET status = 'processing' WHERE id = $1`, [v.id]);
    expect(await rejectedWith(edits.editableVideo(v.id, OWNER))).toMatchObject({ statusCode: 409, message: 'The video is still being prepared. Please wait until it is ready.' });
  });

  it('a variable frame rate: edits are cut on the frame starts the ingest stored, not on the nominal rate', async () => {
    const v = await readyVideo({ variableFrameRate: true });
    // 30 fps for 3 s, then 20 fps
    const starts = Array.from({ length: 230 }, (_, i) => (i <= 90 ? i / 30 : 3 + (i - 90) / 20));
    await storage.upload(StorageKeys.frameGrid(v.id), Buffer.from(encodeFrameGrid({ starts, end: 10 })));
    const base = identityEditList(10);
    const jobId = await edits.requestRender(v, 'cut', OWNER, base, applyCuts(base, [{ start: 2.01, end: 4.02 }]), '1 cut');
    const request = bus.published.find((p) => JSON.stringify(p.payload).includes(jobId) && JSON.stringify(p.payload).includes('segments'))!.payload as { input?: { segments: unknown }; segments?: unknown };
    const segments = (request.input?.segments ?? request.segments) as Array<{ start: number; end: number }>;
    // 2.01 s is frame 60 (2.0 s) at 30 fps; 4.02 s is frame 110 (4.0 s) at 20 fps; at 25 fps they would be 2.0 and 4.04
    expect(segments.map((x) => [Number(x.start.toFixed(6)), Number(x.end.toFixed(6))])).toEqual([
      [0, 2],
      [4, 10],
    ]);
    // without its stored grid, the nominal rate
    const other = await readyVideo({ variableFrameRate: true });
    expect(await edits.frameGrid(other)).toEqual({ fps: 25 });
  });

  it('runs one render per video at a time: the database refuses the second (409 busy)', async () => {
    const v = await readyVideo();
    const base = identityEditList(10);
    const first = await edits.requestRender(v, 'cut', OWNER, base, applyCuts(base, [{ start: 1, end: 2 }]), '1 cut');
    bus.statuses.set(first, { status: 'processing' });
    const e = await rejectedWith(edits.requestRender(v, 'mute', OWNER, base, applyCuts(base, [{ start: 3, end: 4 }]), '1 cut'));
    expect(e).toMatchObject({ statusCode: 409, message: BUSY_MESSAGE });
    expect(await renders.activeVideoRender(v.id)).toBe(first);
  });

  it('applies a finished render: the transcript follows the media, the video shows the new version, captions are stored', async () => {
    const v = await readyVideo();
    const before = (await transcripts.getByVideo(v.id))!;
    const jobId = await cutAndApply(v.id);

    const t = (await transcripts.getByVideo(v.id))!;
    expect(t.version).toBe(before.version + 1);
    expect(t.words.map((x) => [x.text, x.start, x.end])).toEqual([
      ['one', 0.5, 1],
      ['three', 3, 3.5],
      ['four', 6, 6.5],
    ]);
    const row = (await edits.getVideo(v.id))!;
    expect(parseEditList(row.edit_list).segments).toEqual([
      { start: 0, end: 2 },
      { start: 4, end: 10 },
    ]);
    expect(row).toMatchObject({
      edit_version: 1,
      playback_key: StorageKeys.render(v.id, jobId),
      source_playback_key: v.playback_key,
      media_version: `${jobId}.mp4`,
      duration: 8,
      video_changed: true,
      vtt_changed: true,
    });
    expect(storage.objects.get(StorageKeys.renderVtt(v.id, jobId))!.toString()).toMatch(/^WEBVTT[\s\S]*three/);
    const wordByWord = JSON.parse(storage.objects.get(StorageKeys.renderWordByWord(v.id, jobId))!.toString()) as { languageCode: string; words: { text: string; start: number }[] };
    expect(wordByWord.languageCode).toBe('en');
    expect(wordByWord.words.map((x) => [x.text, x.start])).toEqual([
      ['one', 0.5],
      ['three', 3],
      ['four', 6],
    ]);
    expect(await renders.get(jobId)).toMatchObject({ state: 'applied' });
    expect(bus.completions(jobId)).toEqual([
      expect.objectContaining({ msgId: `${jobId}:completed`, payload: expect.objectContaining({ result: expect.objectContaining({ processedFilename: `${jobId}.mp4`, wordCount: 3, videoId: v.id }) }) }),
    ]);
    // the video is free for the next edit
    expect(await renders.hasActive(v.id)).toBe(false);
  });

  it('applies a repeated event once: the job completes again, nothing else changes', async () => {
    const v = await readyVideo();
    const jobId = await cutAndApply(v.id);
    const [row, t] = [(await edits.getVideo(v.id))!, (await transcripts.getByVideo(v.id))!];
    await edits.onRenderCompleted(completed(v.id, jobId, 8));
    expect((await edits.getVideo(v.id))!.edit_version).toBe(row.edit_version);
    expect((await transcripts.getByVideo(v.id))!.version).toBe(t.version);
    expect(bus.completions(jobId)).toHaveLength(2);
  });

  it('discards a render that finishes after its job was cancelled', async () => {
    const v = await readyVideo();
    const base = identityEditList(10);
    const jobId = await edits.requestRender(v, 'cut', OWNER, base, applyCuts(base, [{ start: 2, end: 4 }]), '1 cut');
    await edits.onJobEnded(jobId, 'cancelled', 'Cancelled');
    await storage.upload(StorageKeys.render(v.id, jobId), Buffer.from('late'));
    await edits.onRenderCompleted(completed(v.id, jobId, 8));
    expect(storage.objects.has(StorageKeys.render(v.id, jobId))).toBe(false);
    expect((await edits.getVideo(v.id))!).toMatchObject({ edit_version: 0, edit_list: null, media_version: 'original' });
    expect(bus.completions(jobId)).toEqual([]);
  });

  it("reverts to the original: the ingest's transcript, the original media, no edit list and no clips", async () => {
    const v = await readyVideo();
    await cutAndApply(v.id);
    const clipId = randomUUID();
    const clip = { outputKey: `videos/${v.id}/clips/${clipId}/c.mp4`, vttKey: `videos/${v.id}/clips/${clipId}/c.vtt` };
    await clips.create({ id: clipId, videoId: v.id, name: 'c', startTime: 0, endTime: 1, aspectRatio: '1:1', reframe: null, jobId: 'clip_x', ...clip });
    await storage.upload(clip.outputKey, Buffer.from('clip'));
    await storage.upload(clip.vttKey, Buffer.from('WEBVTT'));

    await edits.revertToOriginal(v.id, OWNER);

    expect((await edits.getVideo(v.id))!).toMatchObject({ edit_list: null, edit_version: 2, playback_key: v.playback_key, media_version: 'original', duration: 10, video_changed: false });
    expect((await transcripts.getByVideo(v.id))!.words.map((x) => x.text)).toEqual(['one', 'two', 'three', 'four']);
    expect(await clips.listForVideo(v.id)).toEqual([]);
    expect(storage.objects.has(clip.outputKey)).toBe(false);
    expect(storage.objects.has(clip.vttKey)).toBe(false);
  });

  it('refuses to revert while a render of the video runs, and a stranger cannot revert at all', async () => {
    const v = await readyVideo();
    const base = identityEditList(10);
    await edits.requestRender(v, 'cut', OWNER, base, applyCuts(base, [{ start: 2, end: 4 }]), '1 cut');
    expect(await rejectedWith(edits.revertToOriginal(v.id, OWNER))).toMatchObject({ statusCode: 409, message: BUSY_MESSAGE });
    expect((await rejectedWith(edits.revertToOriginal(v.id, 'someone-else'))).statusCode).toBe(404);
  });

  it('keeps the current transcript on revert when the ingest transcript cannot be read', async () => {
    const v = await readyVideo();
    await cutAndApply(v.id);
    await storage.delete(StorageKeys.ingestTranscript(v.id, v.ingest_job_id!));
    await edits.revertToOriginal(v.id, OWNER);
    expect((await transcripts.getByVideo(v.id))!.words.map((x) => x.text)).toEqual(['one', 'three', 'four']);
    expect((await edits.getVideo(v.id))!.edit_list).toBeNull();
  });

  it('fails a clip whose render request cannot be queued, instead of leaving it pending', async () => {
    const v = await readyVideo();
    const el = identityEditList(10);
    const clipId = randomUUID();
    const jobId = `clip_${randomUUID()}`;
    // the order of POST /api/clips: claim, record the clip, link it to the render, publish
    await edits.claim(v.id, jobId, 'clip', OWNER, 0, el, el, null);
    await clips.create({ id: clipId, videoId: v.id, name: 'c', startTime: 0, endTime: 1, aspectRatio: '1:1', reframe: null, jobId, outputKey: 'o', vttKey: 'v' });
    await renders.setClip(jobId, clipId);
    bus.refusePublish = true;
    try {
      const input = { videoId: v.id, userId: OWNER, inputKey: v.original_key!, outputKey: 'o', segments: [{ start: 0, end: 1 }], volumes: [], captions: null, reframe: null, summary: 'clip' };
      expect((await rejectedWith(edits.publishRequest(jobId, 'clip', input))).statusCode).toBe(503);
    } finally {
      bus.refusePublish = false;
    }
    expect(await renders.get(jobId)).toMatchObject({ state: 'failed' });
    expect(await clips.getOwned(clipId, OWNER)).toMatchObject({ status: 'failed', error: 'could not be queued' });
  });

  describe('edit versions (undo across processing)', () => {
    const texts = async (id: string) => (await transcripts.getByVideo(id))!.words.map((x) => x.text);
    const resultVersion = (jobId: string) => (bus.completions(jobId)[0]!.payload as { result: { version: unknown } }).result.version;

    it('a render is a step from the version shown to a new one, with where each word came from', async () => {
      const v = await readyVideo();
      const jobId = await cutAndApply(v.id);
      expect(resultVersion(jobId)).toEqual({ before: 0, after: 1, origins: [[0, 1], [2, 2]] });
      expect((await edits.getVideo(v.id))!.current_version).toBe(1);
      const stored = JSON.parse(storage.objects.get(StorageKeys.versionTranscript(v.id, 0))!.toString()) as { words: { text: string }[] };
      expect(stored.words.map((x) => x.text)).toEqual(['one', 'two', 'three', 'four']);
    });

    it('restoring the version before brings back its words, media and length; restoring the later one redoes the cut', async () => {
      const v = await readyVideo();
      const jobId = await cutAndApply(v.id);
      expect(await edits.restoreVersion(v.id, OWNER, 0, 1)).toEqual({ before: 1, after: 0 });
      expect(await texts(v.id)).toEqual(['one', 'two', 'three', 'four']);
      expect((await edits.getVideo(v.id))!).toMatchObject({ edit_list: null, playback_key: v.playback_key, media_version: 'original', duration: 10, current_version: 0, video_changed: false });
      expect(await edits.restoreVersion(v.id, OWNER, 1, 0)).toEqual({ before: 0, after: 1 });
      expect(await texts(v.id)).toEqual(['one', 'three', 'four']);
      expect((await edits.getVideo(v.id))!).toMatchObject({ playback_key: StorageKeys.render(v.id, jobId), media_version: `${jobId}.mp4`, duration: 8, current_version: 1, video_changed: true });
      // the edit versions keep counting up, so caches keyed by them never see an old number again
      expect((await edits.getVideo(v.id))!.edit_version).toBe(3);
    });

    it('text edits made after a version are kept as a version of their own when the next step begins', async () => {
      const v = await readyVideo();
      await cutAndApply(v.id);
      const t = (await transcripts.getByVideo(v.id))!;
      await transcripts.patch(t.id, { wordDeltas: [{ word_order: 0, changes: { text: 'ONE' } }] } as never, t.version, OWNER);
      const step = await edits.restoreVersion(v.id, OWNER, 0, 1);
      expect(step).toEqual({ before: 2, after: 0 });
      await edits.restoreVersion(v.id, OWNER, 2, 0);
      expect(await texts(v.id)).toEqual(['ONE', 'three', 'four']);
    });

    it('a revert is a version too, so it can be undone (its clips stay deleted)', async () => {
      const v = await readyVideo();
      await cutAndApply(v.id);
      expect(await edits.revertToOriginal(v.id, OWNER)).toEqual({ before: 1, after: 2, origins: null });
      expect(await texts(v.id)).toEqual(['one', 'two', 'three', 'four']);
      await edits.restoreVersion(v.id, OWNER, 1, 2);
      expect(await texts(v.id)).toEqual(['one', 'three', 'four']);
      expect((await edits.getVideo(v.id))!.duration).toBe(8);
    });

    it('refuses a stale step (409, another tab moved on), a version that does not exist (404), a stranger (404) and a missing medium (409)', async () => {
      const v = await readyVideo();
      const jobId = await cutAndApply(v.id);
      expect(await rejectedWith(edits.restoreVersion(v.id, OWNER, 0, 5))).toMatchObject({ statusCode: 409, details: { currentVersion: 1 } });
      expect((await rejectedWith(edits.restoreVersion(v.id, OWNER, 7, 1))).statusCode).toBe(404);
      expect((await rejectedWith(edits.restoreVersion(v.id, 'someone-else', 0, 1))).statusCode).toBe(404);
      await edits.restoreVersion(v.id, OWNER, 0, 1);
      await storage.delete(StorageKeys.render(v.id, jobId));
      expect(await rejectedWith(edits.restoreVersion(v.id, OWNER, 1, 0))).toMatchObject({ statusCode: 409, message: 'The media of this version is no longer stored, so it cannot be shown again.' });
      expect(await texts(v.id)).toEqual(['one', 'two', 'three', 'four']);
    });

    it('undo walks back across a text edit made between two renders (the page names the version it has again)', async () => {
      const v = await readyVideo();
      await cutAndApply(v.id); // 0 -> 1
      const t = (await transcripts.getByVideo(v.id))!;
      await transcripts.patch(t.id, { wordDeltas: [{ word_order: 0, changes: { text: 'ONE' } }] } as never, t.version, OWNER);
      const el = parseEditList((await edits.getVideo(v.id))!.edit_list);
      const second = await edits.requestRender((await edits.editableVideo(v.id, OWNER))!, 'cut', OWNER, el, applyCuts(el, [{ start: 5, end: 6 }]), '1 cut');
      await storage.upload(StorageKeys.render(v.id, second), Buffer.from('second'));
      await edits.onRenderCompleted(completed(v.id, second, 7));
      expect(resultVersion(second)).toMatchObject({ before: 2, after: 3 });
      // undo the second cut, then the text edit (saved back), then the first cut: the page says 1, the server shows 2 with 1's words
      expect(await edits.restoreVersion(v.id, OWNER, 2, 3)).toEqual({ before: 3, after: 2 });
      const edited = (await transcripts.getByVideo(v.id))!;
      await transcripts.patch(edited.id, { wordDeltas: [{ word_order: 0, changes: { text: 'one' } }] } as never, edited.version, OWNER);
      expect(await edits.restoreVersion(v.id, OWNER, 0, 1)).toEqual({ before: 1, after: 0 });
      expect(await texts(v.id)).toEqual(['one', 'two', 'three', 'four']);
      // restoring the original takes back the changed flags too
      expect((await edits.getVideo(v.id))!).toMatchObject({ video_changed: false, vtt_changed: false, word_byword_changed: false, current_version: 0 });
    });

    it('an edit prepared on a version that was left since is refused (409), never applied over it', async () => {
      const v = await readyVideo();
      await cutAndApply(v.id);
      const stale = (await edits.editableVideo(v.id, OWNER))!;
      await edits.restoreVersion(v.id, OWNER, 0, 1);
      const el = parseEditList(stale.edit_list);
      expect(await rejectedWith(edits.requestRender(stale, 'cut', OWNER, el, applyCuts(el, [{ start: 0, end: 1 }]), '1 cut'))).toMatchObject({ statusCode: 409, message: CHANGED_MESSAGE });
      expect(await renders.hasActive(v.id)).toBe(false);
    });

    it('refuses a step while a render of the video runs', async () => {
      const v = await readyVideo();
      await cutAndApply(v.id);
      const base = parseEditList((await edits.getVideo(v.id))!.edit_list);
      await edits.requestRender((await edits.editableVideo(v.id, OWNER))!, 'cut', OWNER, base, applyCuts(base, [{ start: 0, end: 1 }]), '1 cut');
      expect(await rejectedWith(edits.restoreVersion(v.id, OWNER, 0, 1))).toMatchObject({ statusCode: 409, message: BUSY_MESSAGE });
    });
  });

  it('burned captions are a setting of the version: their style goes to the renderer, a word edit makes them stale, the next render current again', async () => {
    const v = await readyVideo();
    const base = identityEditList(10);
    const style = { preset: 'bold' as const, size: 'large' as const, position: 'top' as const };
    const jobId = await edits.requestRender(v, 'caption', OWNER, base, withCaptions(base, true, style), 'burn captions');
    const request = bus.published.find((p) => JSON.stringify(p.payload).includes(jobId) && JSON.stringify(p.payload).includes('captionStyle'))!.payload as { input: { captions: { text: string }[]; captionStyle: unknown } };
    expect(request.input.captionStyle).toEqual(style);
    expect(request.input.captions.map((w) => w.text)).toEqual(['one', 'two', 'three', 'four']);
    await storage.upload(StorageKeys.render(v.id, jobId), Buffer.from('burned'));
    await edits.onRenderCompleted(completed(v.id, jobId, 10));
    expect(toApiVideo((await videos.get(v.id))!).burnedCaptions).toEqual({ style, stale: false });

    await videos.markCaptionsStale(v.id);
    expect(toApiVideo((await videos.get(v.id))!).burnedCaptions).toEqual({ style, stale: true });
    // a cut keeps the captions on (in their style) and draws them from the words as they are
    const el = parseEditList((await edits.getVideo(v.id))!.edit_list);
    const cut = await edits.requestRender((await edits.editableVideo(v.id, OWNER))!, 'cut', OWNER, el, applyCuts(el, [{ start: 2, end: 4 }]), '1 cut');
    await storage.upload(StorageKeys.render(v.id, cut), Buffer.from('cut'));
    await edits.onRenderCompleted(completed(v.id, cut, 8));
    expect(toApiVideo((await videos.get(v.id))!).burnedCaptions).toEqual({ style, stale: false });
    // a video without burned captions is never stale
    const plain = await readyVideo();
    await videos.markCaptionsStale(plain.id);
    expect(toApiVideo((await videos.get(plain.id))!).burnedCaptions).toBeNull();
  });

  it('exports the current version for other applications: the edit over the original, the captions on the edited times', async () => {
    const v = await readyVideo();
    await cutAndApply(v.id);
    const exports = new TimelineExports(edits, transcripts, clips, renders);
    const edl = await exports.export(v.id, OWNER, 'edl');
    expect(edl).toMatchObject({ contentType: 'text/plain; charset=utf-8', fileName: 'Talk.edl' });
    // 25 fps: 0-2 s and 4-10 s of the original, end to end from one hour
    expect(edl.body).toContain('001  AX       AA/V  C        00:00:00:00 00:00:02:00 01:00:00:00 01:00:02:00');
    expect(edl.body).toContain('002  AX       AA/V  C        00:00:04:00 00:00:10:00 01:00:02:00 01:00:08:00');
    expect(edl.body).toContain('* FROM CLIP NAME: talk.mp4');
    expect((await exports.export(v.id, OWNER, 'fcpxml')).body).toContain('<asset-clip ref="r2" offset="2/25s" name="talk.mp4" start="4/25s"'.replace('2/25s', '50/25s').replace('4/25s', '100/25s'));
    const srt = (await exports.export(v.id, OWNER, 'srt')).body;
    expect(srt).toContain('00:00:03,000 --> ');
    expect(srt).not.toContain('two');
    expect((await rejectedWith(exports.export(v.id, 'someone-else', 'otio'))).statusCode).toBe(404);
  });
});
