/**
 * The edit service without a database or a broker: what a render request looks like for an edit
 * (frames snapped, mutes as volumes, captions retimed), how a claim decides between "busy" and a
 * stale claim, and what a finished render event does in each state of its render. The stores are
 * small in-memory fakes of our own store classes; the bus records what is published and answers
 * job status queries from a table. Applying a video render (SQL in one transaction) is covered by
 * edits.int.spec.ts against Postgres.
 */
import { JOB_ID_PREFIX, StorageKeys, Subjects, jobRequestedSubject, type ProbeResult, type Transcript, type VideoRenderCompletedEvent, type Word } from '@wordcut/contracts';
import { applyCuts, applyMute, identityEditList, withCaptions, type EditList } from '@wordcut/edit-list';
import type { InboundMessage, Messaging } from '@wordcut/messaging';
import { AppError, createLogger } from '@wordcut/platform';
import type { ObjectStorage } from '@wordcut/storage';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { ActiveJobs } from '../limits/limits';
import type { ClipStore } from '../clips/clip-store';
import { BUSY_MESSAGE, CHANGED_MESSAGE, currentEditList, EditService, videoFrameRate, type EditVideoRow } from './edits.service';
import type { NewRender, RenderRow, RenderStore } from './render-store';
import type { TranscriptStore } from '../transcripts/transcript-store';
import type { VideoStore } from '../videos/video-store';
import { rejectedWith } from '../../../../tools/testing/app-error';
import { FakeJobBus } from '../../../../tools/testing/gateway-bus';

const USER = 'provider-user-1';

/** library.renders in memory, with its one rule: one active video render per video (else 23505). */
class FakeRenders {
  readonly rows = new Map<string, RenderRow & { error?: string }>();
  async insertActive(_m: EntityManager, r: NewRender): Promise<void> {
    const busy = [...this.rows.values()].some((x) => x.video_id === r.videoId && x.state === 'active' && x.kind !== 'clip');
    if (r.kind !== 'clip' && busy) throw Object.assign(new Error('duplicate key value violates unique constraint "renders_one_active_per_video"'), { code: '23505' });
    this.rows.set(r.jobId, { job_id: r.jobId, video_id: r.videoId, kind: r.kind, state: 'active', user_id: r.userId, base_edit_version: r.baseVersion, base_edit: r.base, new_edit: r.next, clip_id: r.clipId });
  }
  async get(jobId: string) {
    return this.rows.get(jobId) ?? null;
  }
  async activeVideoRender(videoId: string) {
    return [...this.rows.values()].find((x) => x.video_id === videoId && x.state === 'active' && x.kind !== 'clip' && !x.clip_id)?.job_id ?? null;
  }
  async countActiveForUser(_m: EntityManager, userId: string) {
    return [...this.rows.values()].filter((x) => x.user_id === userId && x.state === 'active').length;
  }
  async markApplied(jobId: string) {
    const r = this.rows.get(jobId);
    if (r?.state === 'active') r.state = 'applied';
  }
  async end(jobId: string, state: 'failed' | 'cancelled', error: string) {
    const r = this.rows.get(jobId);
    if (r?.state !== 'active') return { ended: false, clipId: null };
    Object.assign(r, { state, error });
    return { ended: true, clipId: r.clip_id };
  }
}

class FakeClips {
  readonly completed: string[] = [];
  readonly failed: Array<{ id: string; error: string }> = [];
  async completeForJob(jobId: string) {
    this.completed.push(jobId);
  }
  async fail(id: string, error: string) {
    this.failed.push({ id, error });
  }
}

class FakeStorage {
  readonly deleted: string[] = [];
  async delete(key: string) {
    this.deleted.push(key);
  }
}

function probeAt(frameRate: number | null): ProbeResult {
  return {
    formatName: 'mov,mp4',
    durationSec: 10,
    sizeBytes: 1000,
    bitRate: 800,
    streams: [
      { index: 0, codecType: 'audio', codecName: 'aac', width: null, height: null, frameRate: null, sampleRate: 48000, channels: 2, durationSec: 10 },
      { index: 1, codecType: 'video', codecName: 'h264', width: 1280, height: 720, frameRate, sampleRate: null, channels: null, durationSec: 10 },
    ],
  };
}

function videoRow(over: Partial<EditVideoRow> = {}): EditVideoRow {
  const id = randomUUID();
  return {
    id,
    title: 'Talk',
    original_name: 'talk.mp4',
    filename: 'talk.mp4',
    processed_filename: null,
    last_processed_at: null,
    status: 'completed',
    vtt_progress: 100,
    vtt_method: 'upload',
    vtt_error: null,
    video_changed: false,
    vtt_changed: false,
    word_byword_changed: false,
    language_code: 'en',
    duration: 10,
    width: 1280,
    height: 720,
    has_audio: true,
    file_size: '1000',
    media_version: 'original',
    original_key: `videos/${id}/original/o.mp4`,
    playback_key: `videos/${id}/original/o.mp4`,
    vtt_key: null,
    word_byword_key: null,
    waveform_key: null,
    probe: probeAt(25),
    ingest_job_id: null,
    ingest_source: null,
    owner_id: USER,
    provider_session_id: null,
    provider_video_id: null,
    provider_is_clone: false,
    provider_main_video_upload_status: 'none',
    provider_vtt_upload_status: 'none',
    created_at: new Date(),
    updated_at: new Date(),
    edit_list: null,
    edit_version: 0,
    source_playback_key: null,
    ...over,
  };
}

const word = (text: string, start: number, end: number, order: number): Word => ({ text, start, end, confidence: 0.9, group_number: 0, word_order: order });

function setup(o: { maxJobs?: number; transcript?: Transcript | null; editVersion?: number } = {}) {
  const renders = new FakeRenders();
  const clips = new FakeClips();
  const bus = new FakeJobBus();
  const storage = new FakeStorage();
  const tx = { query: async () => [] } as unknown as EntityManager;
  const ds = { transaction: async <T>(fn: (m: EntityManager) => Promise<T>) => fn(tx) } as unknown as DataSource;
  // the video's edit version as the claim reads it under the row lock
  const videos = { countIngestingForOwner: async () => 0, lockEditVersion: async () => o.editVersion ?? 0 } as unknown as VideoStore;
  const transcripts = { getByVideo: async () => o.transcript ?? null } as unknown as TranscriptStore;
  const activeJobs = new ActiveJobs(o.maxJobs ?? 3, renders as unknown as RenderStore, videos);
  const service = new EditService(
    ds,
    bus as unknown as Messaging,
    storage as unknown as ObjectStorage,
    videos,
    transcripts,
    createLogger('edits-test', 'silent'),
    activeJobs,
    renders as unknown as RenderStore,
    clips as unknown as ClipStore,
  );
  return { service, renders, clips, bus, storage };
}

function renderCompleted(e: Partial<VideoRenderCompletedEvent> & { jobId: string; videoId: string }): InboundMessage<VideoRenderCompletedEvent> {
  const data: VideoRenderCompletedEvent = {
    kind: 'cut',
    outputKey: StorageKeys.render(e.videoId, e.jobId),
    summary: { path: 'smart', fallbackReason: null, audio: 'copy-packets', encodedShare: 0.1, outputDurationSec: 8, sizeBytes: 900, renderMs: 1200 },
    worker: 'media-1',
    at: new Date().toISOString(),
    ...e,
  };
  return { data, subject: Subjects.videoRenderCompleted, deliveryCount: 1, streamSequence: 1, msgId: undefined, working: () => undefined };
}

describe('videoFrameRate', () => {
  it("is the video stream's frame rate", () => {
    expect(videoFrameRate(probeAt(25))).toBe(25);
    expect(videoFrameRate(probeAt(29.97))).toBe(29.97);
  });

  it('is 30 when unknown or implausible', () => {
    expect(videoFrameRate(null)).toBe(30);
    expect(videoFrameRate(probeAt(null))).toBe(30);
    expect(videoFrameRate(probeAt(0))).toBe(30);
    expect(videoFrameRate(probeAt(1000))).toBe(30);
    expect(videoFrameRate({ ...probeAt(25), streams: probeAt(25).streams.filter((s) => s.codecType === 'audio') })).toBe(30);
  });
});

describe('currentEditList', () => {
  it("is the video's stored edit list", () => {
    const el = applyCuts(identityEditList(10), [{ start: 1, end: 2 }]);
    expect(currentEditList(videoRow({ edit_list: el }))).toEqual(el);
  });

  it('is the identity over the original when the video has none', () => {
    expect(currentEditList(videoRow({ duration: 12.5 }))).toEqual(identityEditList(12.5));
  });

  it('answers 409 while the duration is unknown', async () => {
    for (const duration of [null, 0]) {
      expect(() => currentEditList(videoRow({ duration }))).toThrow(AppError);
      expect(() => currentEditList(videoRow({ duration }))).toThrow('This video has no known duration yet, so it cannot be edited.');
    }
  });
});

describe('EditService.requestRender', () => {
  const base = identityEditList(10);

  it('claims the video and requests a render of the edit, snapped to frames, from the original', async () => {
    const { service, renders, bus } = setup({ editVersion: 4 });
    const row = videoRow({ edit_version: 4 });
    const next = applyCuts(base, [{ start: 2.01, end: 4.03 }]);
    const jobId = await service.requestRender(row, 'cut', USER, base, next, '1 cut');
    expect(jobId).toMatch(new RegExp(`^${JOB_ID_PREFIX.cut}[0-9a-f-]{36}$`));
    // 25 fps: 2.01 s snaps to frame 50 (2.00 s), 4.03 s to frame 101 (4.04 s)
    const snapped = [
      { start: 0, end: 2 },
      { start: 4.04, end: 10 },
    ];
    expect(bus.published).toEqual([
      {
        subject: jobRequestedSubject(jobId),
        msgId: `${jobId}:requested`,
        payload: {
          jobId,
          kind: 'cut',
          requestedAt: expect.any(String),
          input: {
            videoId: row.id,
            userId: USER,
            inputKey: row.original_key,
            outputKey: StorageKeys.render(row.id, jobId),
            segments: snapped,
            volumes: [],
            captions: null,
            captionStyle: null,
            reframe: null,
            summary: '1 cut',
          },
        },
      },
    ]);
    expect(renders.rows.get(jobId)).toMatchObject({ video_id: row.id, kind: 'cut', state: 'active', user_id: USER, base_edit_version: 4, base_edit: base, clip_id: null });
    expect((renders.rows.get(jobId)!.new_edit as EditList).segments).toEqual(snapped);
  });

  it('refuses (409) an edit made on an edit version the video has left (a restore or revert since), and claims nothing', async () => {
    const { service, renders, bus } = setup({ editVersion: 5 });
    const e = await rejectedWith(service.requestRender(videoRow({ edit_version: 4 }), 'cut', USER, base, applyCuts(base, [{ start: 2, end: 4 }]), '1 cut'));
    expect(e).toMatchObject({ statusCode: 409, message: CHANGED_MESSAGE });
    expect(renders.rows.size).toBe(0);
    expect(bus.published).toHaveLength(0);
  });

  it('sends mutes as volumes on the output timeline', async () => {
    const { service, bus } = setup();
    const next = applyMute(applyCuts(base, [{ start: 0, end: 2 }]), [{ start: 1, end: 2 }], 'whisper');
    await service.requestRender(videoRow(), 'mute', USER, base, next, '1 muted region');
    const input = (bus.published[0]!.payload as { input: { segments: unknown; volumes: unknown } }).input;
    expect(input.segments).toEqual([{ start: 2, end: 10 }]);
    expect(input.volumes).toEqual([{ start: 1, end: 2, volume: 0.1 }]);
  });

  it('burns in captions retimed to the output: words of cut content leave, the rest move', async () => {
    const row = videoRow();
    const transcript: Transcript = {
      id: randomUUID(),
      videoId: row.id,
      version: 1,
      languageCode: 'en',
      words: [word('hello', 0.5, 0.9, 0), word('gone', 2.5, 3, 1), word('kept', 5, 5.5, 2)],
      paragraphs: [],
      fillerWords: [],
      updatedAt: new Date().toISOString(),
    };
    const { service, bus } = setup({ transcript });
    const next = withCaptions(applyCuts(base, [{ start: 2, end: 4 }]), true);
    await service.requestRender(row, 'caption', USER, base, next, 'burn captions');
    expect((bus.published[0]!.payload as { input: { captions: unknown } }).input.captions).toEqual([
      { text: 'hello', start: 0.5, end: 0.9 },
      { text: 'kept', start: 3, end: 3.5 },
    ]);
  });

  it('burns in no captions when the video has no transcript', async () => {
    const { service, bus } = setup({ transcript: null });
    await service.requestRender(videoRow(), 'caption', USER, base, withCaptions(base, true), 'burn captions');
    expect((bus.published[0]!.payload as { input: { captions: unknown } }).input.captions).toBeNull();
  });

  it('refuses an edit that leaves less than one frame, claiming and publishing nothing', async () => {
    const { service, renders, bus } = setup();
    // 15 ms kept: at 25 fps both ends snap to frame 125
    const next = applyCuts(base, [
      { start: 0, end: 4.99 },
      { start: 5.005, end: 10 },
    ]);
    await expect(service.requestRender(videoRow(), 'cut', USER, base, next, '2 cuts')).rejects.toMatchObject({
      statusCode: 422,
      message: expect.stringContaining('no segment is at least one frame long; nothing would remain.'),
    });
    expect(renders.rows.size).toBe(0);
    expect(bus.published).toEqual([]);
  });

  it('answers 409 with the busy message while another render of the video runs (and publishes nothing)', async () => {
    const { service, bus } = setup();
    const row = videoRow();
    const first = await service.requestRender(row, 'cut', USER, base, applyCuts(base, [{ start: 1, end: 2 }]), '1 cut');
    bus.statuses.set(first, { status: 'processing' });
    const e = await rejectedWith(service.requestRender(row, 'cut', USER, base, applyCuts(base, [{ start: 3, end: 4 }]), '1 cut'));
    expect(e.statusCode).toBe(409);
    expect(e.message).toBe(BUSY_MESSAGE);
    expect(bus.published).toHaveLength(1);
  });

  it("answers 429 when the user already runs as many jobs as allowed", async () => {
    const { service, renders } = setup({ maxJobs: 1 });
    await service.requestRender(videoRow(), 'cut', USER, base, applyCuts(base, [{ start: 1, end: 2 }]), '1 cut');
    const e = await rejectedWith(service.requestRender(videoRow(), 'cut', USER, base, applyCuts(base, [{ start: 1, end: 2 }]), '1 cut'));
    expect(e.statusCode).toBe(429);
    expect(e.extra).toEqual({ retryAfter: 15 });
    expect(renders.rows.size).toBe(1);
  });

  it('answers 503 when the request cannot be published, and releases the claim', async () => {
    const { service, renders, bus } = setup();
    bus.refusePublish = true;
    const row = videoRow();
    const e = await rejectedWith(service.requestRender(row, 'cut', USER, base, applyCuts(base, [{ start: 1, end: 2 }]), '1 cut'));
    expect(e.statusCode).toBe(503);
    expect(e.message).toBe('The job could not be started right now. Please try again.');
    expect([...renders.rows.values()]).toEqual([expect.objectContaining({ state: 'failed', error: 'could not be queued' })]);
    expect(await renders.activeVideoRender(row.id)).toBeNull();
  });
});

describe('EditService.publishRequest', () => {
  it('fails the clip of a render request that cannot be published (it would stay pending forever)', async () => {
    const { service, renders, clips, bus } = setup();
    const row = videoRow();
    const clipId = randomUUID();
    const el = identityEditList(10);
    await service.claim(row.id, 'clip_1', 'clip', USER, 0, el, el, clipId);
    bus.refusePublish = true;
    const input = { videoId: row.id, userId: USER, inputKey: row.original_key!, outputKey: 'k', segments: [{ start: 0, end: 10 }], volumes: [], captions: null, reframe: null, summary: 'clip' };
    expect((await rejectedWith(service.publishRequest('clip_1', 'clip', input))).statusCode).toBe(503);
    expect(renders.rows.get('clip_1')).toMatchObject({ state: 'failed', error: 'could not be queued' });
    expect(clips.failed).toEqual([{ id: clipId, error: 'could not be queued' }]);
  });
});

describe('EditService.claim (a stale claim)', () => {
  const base = identityEditList(10);
  const next = applyCuts(base, [{ start: 1, end: 2 }]);

  it('releases a claim whose job the jobs service reports failed or cancelled (a lost event), then claims', async () => {
    for (const status of ['error', 'cancelled'] as const) {
      const { service, renders, bus } = setup();
      const row = videoRow();
      await service.claim(row.id, 'cut_old', 'cut', USER, 0, base, next, null);
      bus.statuses.set('cut_old', { status, error: status === 'error' ? 'Render failed' : null });
      await service.claim(row.id, 'cut_new', 'cut', USER, 0, base, next, null);
      expect(renders.rows.get('cut_old')).toMatchObject({ state: status === 'error' ? 'failed' : 'cancelled' });
      expect(await renders.activeVideoRender(row.id)).toBe('cut_new');
    }
  });

  it('stays busy while the job is unknown, running, or completed (being applied right now)', async () => {
    for (const status of [undefined, 'pending', 'processing', 'completed'] as const) {
      const { service, renders, bus } = setup();
      const row = videoRow();
      await service.claim(row.id, 'cut_old', 'cut', USER, 0, base, next, null);
      if (status) bus.statuses.set('cut_old', { status });
      const e = await rejectedWith(service.claim(row.id, 'cut_new', 'cut', USER, 0, base, next, null));
      expect(e.statusCode).toBe(409);
      expect(renders.rows.get('cut_old')!.state).toBe('active');
    }
  });

  it('lets clip renders run beside a video render', async () => {
    const { service, renders } = setup();
    const row = videoRow();
    await service.claim(row.id, 'cut_1', 'cut', USER, 0, base, next, null);
    await service.claim(row.id, 'clip_1', 'clip', USER, 0, base, next, null);
    expect([...renders.rows.values()].map((r) => r.state)).toEqual(['active', 'active']);
  });
});

describe('EditService.onRenderCompleted (states a unit can reach)', () => {
  const base = identityEditList(10);

  it('removes the output of a render nobody asked for, and completes nothing', async () => {
    const { service, bus, storage } = setup();
    const videoId = randomUUID();
    await service.onRenderCompleted(renderCompleted({ jobId: 'cut_unknown', videoId }));
    expect(storage.deleted).toEqual([StorageKeys.render(videoId, 'cut_unknown')]);
    expect(bus.published).toEqual([]);
  });

  it('removes the output of a render whose job already failed or was cancelled', async () => {
    const { service, renders, bus, storage } = setup();
    const row = videoRow();
    await service.claim(row.id, 'cut_1', 'cut', USER, 0, base, base, null);
    await service.onJobEnded('cut_1', 'cancelled', 'Cancelled');
    await service.onRenderCompleted(renderCompleted({ jobId: 'cut_1', videoId: row.id }));
    expect(storage.deleted).toEqual([StorageKeys.render(row.id, 'cut_1')]);
    expect(bus.published).toEqual([]);
    expect(renders.rows.get('cut_1')!.state).toBe('cancelled');
  });

  it('completes a clip render: the clip is done, the render applied, the job completed with the clip id', async () => {
    const { service, renders, clips, bus } = setup();
    const row = videoRow();
    const clipId = randomUUID();
    await service.claim(row.id, 'clip_1', 'clip', USER, 0, base, base, clipId);
    await service.onRenderCompleted(renderCompleted({ jobId: 'clip_1', videoId: row.id, kind: 'clip' }));
    expect(clips.completed).toEqual(['clip_1']);
    expect(renders.rows.get('clip_1')!.state).toBe('applied');
    expect(bus.published).toEqual([
      {
        subject: Subjects.jobCompleted,
        msgId: 'clip_1:completed',
        payload: { jobId: 'clip_1', worker: 'media-1', at: expect.any(String), result: expect.objectContaining({ videoId: row.id, clipId, path: 'smart' }) },
      },
    ]);
  });

  it('completes the job again for a repeated event of an applied render, changing nothing', async () => {
    const { service, renders, clips, bus } = setup();
    const row = videoRow();
    await service.claim(row.id, 'clip_1', 'clip', USER, 0, base, base, randomUUID());
    await renders.markApplied('clip_1');
    await service.onRenderCompleted(renderCompleted({ jobId: 'clip_1', videoId: row.id, kind: 'clip' }));
    expect(clips.completed).toEqual([]);
    expect(bus.published.map((p) => p.msgId)).toEqual(['clip_1:completed']);
  });
});

describe('EditService.onJobEnded', () => {
  const base = identityEditList(10);

  it("ends an active render and fails its clip (with the job's error, or 'Cancelled')", async () => {
    const { service, renders, clips } = setup();
    const row = videoRow();
    const [a, b] = [randomUUID(), randomUUID()];
    await service.claim(row.id, 'clip_a', 'clip', USER, 0, base, base, a);
    await service.claim(row.id, 'clip_b', 'clip', USER, 0, base, base, b);
    await service.onJobEnded('clip_a', 'failed', 'Render failed: broken source');
    await service.onJobEnded('clip_b', 'cancelled', 'whatever the reason');
    expect(clips.failed).toEqual([
      { id: a, error: 'Render failed: broken source' },
      { id: b, error: 'Cancelled' },
    ]);
    expect(renders.rows.get('clip_a')).toMatchObject({ state: 'failed', error: 'Render failed: broken source' });
  });

  it('changes nothing for a render that is no longer active (idempotent)', async () => {
    const { service, renders, clips } = setup();
    const row = videoRow();
    await service.claim(row.id, 'clip_a', 'clip', USER, 0, base, base, randomUUID());
    await service.onJobEnded('clip_a', 'failed', 'first');
    await service.onJobEnded('clip_a', 'cancelled', 'second');
    await service.onJobEnded('cut_unknown', 'failed', 'x');
    expect(clips.failed).toHaveLength(1);
    expect(renders.rows.get('clip_a')).toMatchObject({ state: 'failed', error: 'first' });
  });
});
