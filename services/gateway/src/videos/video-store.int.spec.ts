/**
 * VideoStore against a real Postgres (a throw-away database with the gateway's migrations):
 * ownership (a stranger's id reads as nothing), one video per provider session, the ingest
 * lifecycle guarded by the ingest job, and the version a render or a revert makes current.
 */
import type { VideoIngestCompletedEvent } from '@wordcut/contracts';
import { applyCuts, applyMute, identityEditList } from '@wordcut/edit-list';
import { randomUUID } from 'node:crypto';
import { gatewayTestDatabase } from '../../../../tools/testing/gateway-database';
import { toApiVideo } from './video-api';
import { VideoStore, type NewVideo } from './video-store';

const database = gatewayTestDatabase(4);
const videos = database.store(VideoStore);

function newVideo(over: Partial<NewVideo> = {}): NewVideo {
  const id = randomUUID();
  return {
    id,
    title: 'Talk',
    originalName: 'talk.mp4',
    filename: 'talk.mp4',
    languageCode: 'en',
    ingestJobId: `probe_${randomUUID()}`,
    ingestSource: { kind: 'upload', videoKey: `videos/${id}/original/o.mp4`, vttKey: `videos/${id}/original/o.vtt` },
    ownerId: `wordcut:${randomUUID()}`,
    ...over,
  };
}

function ingestCompleted(videoId: string, jobId: string, over: Partial<VideoIngestCompletedEvent> = {}): VideoIngestCompletedEvent {
  return {
    jobId,
    videoId,
    originalKey: `videos/${videoId}/original/o.mp4`,
    playbackKey: `videos/${videoId}/proxy/p.mp4`,
    transcriptKey: `videos/${videoId}/ingest/${jobId}/transcript.json`,
    waveformKey: `videos/${videoId}/waveform/original.peaks`,
    probe: { formatName: 'mov,mp4', durationSec: 12.5, sizeBytes: 4096, bitRate: 1000, streams: [] },
    durationSec: 12.5,
    width: 1920,
    height: 1080,
    hasAudio: true,
    sizeBytes: 4096,
    languageCode: 'de',
    worker: 'media-1',
    at: new Date().toISOString(),
    ...over,
  };
}

/** A video that finished its ingest (status completed, original media known). */
async function completedVideo(over: Partial<NewVideo> = {}) {
  const v = await videos.create(newVideo(over));
  await database.ds.transaction((tx) => videos.ingestCompleted(tx, ingestCompleted(v.id, v.ingest_job_id!)));
  return (await videos.get(v.id))!;
}

describe('ownership', () => {
  it('answers a video to its owner only: a stranger and a missing id read as nothing alike', async () => {
    const v = await videos.create(newVideo({ ownerId: 'owner-a' }));
    expect(await videos.getOwned(v.id, 'owner-a')).toMatchObject({ id: v.id, owner_id: 'owner-a', status: 'uploaded' });
    expect(await videos.getOwned(v.id, 'owner-b')).toBeNull();
    expect(await videos.getOwned(randomUUID(), 'owner-a')).toBeNull();
    expect(await videos.get(v.id)).toMatchObject({ id: v.id });
  });

  it('never matches a video without an owner', async () => {
    const v = await videos.create(newVideo({ ownerId: undefined }));
    expect(v.owner_id).toBeNull();
    expect(await videos.getOwned(v.id, '')).toBeNull();
  });
});

describe('creation', () => {
  it('records a new video as uploaded, with its transcript id once it has one', async () => {
    const n = newVideo({ fileSize: 1234, providerSessionId: undefined });
    const v = await videos.create(n);
    expect(v).toMatchObject({ id: n.id, status: 'uploaded', vtt_progress: 0, ingest_job_id: n.ingestJobId, ingest_source: n.ingestSource, file_size: '1234', media_version: 'original' });
    expect(v.transcript_id).toBeNull();
    const t = randomUUID();
    await database.ds.query(`INSERT INTO library.transcripts (id, video_id, version, language_code) VALUES ($1, $2, 1, 'en')`, [t, v.id]);
    expect((await videos.get(v.id))!.transcript_id).toBe(t);
  });

  it("finds a session's video by session and owner: someone else with the same session id gets nothing", async () => {
    const session = `session-${randomUUID()}`;
    const v = await videos.create(newVideo({ providerSessionId: session, ownerId: 'provider:p:owner' }));
    expect(await videos.getBySession(session, 'provider:p:owner')).toMatchObject({ id: v.id });
    expect(await videos.getBySession(session, 'provider:p:stranger')).toBeNull();
    // the holder of a session: the row for its owner, null for anyone else, undefined when none holds it
    expect(await videos.sessionVideo(session, 'provider:p:owner')).toMatchObject({ id: v.id });
    expect(await videos.sessionVideo(session, 'provider:p:stranger')).toBeNull();
    expect(await videos.sessionVideo(`session-${randomUUID()}`, 'provider:p:owner')).toBeUndefined();
    // one video per session: the unique index refuses a second
    await expect(videos.create(newVideo({ providerSessionId: session, ownerId: 'provider:p:owner' }))).rejects.toMatchObject({ code: '23505' });
  });
});

describe('the ingest lifecycle', () => {
  it('moves uploaded → processing → completed for the current ingest job, applying what the worker found', async () => {
    const v = await videos.create(newVideo());
    const job = v.ingest_job_id!;
    await videos.ingestProgress(v.id, job, 40);
    expect(await videos.get(v.id)).toMatchObject({ status: 'processing', vtt_progress: 40 });
    await database.ds.transaction((tx) => videos.ingestCompleted(tx, ingestCompleted(v.id, job)));
    expect(await videos.get(v.id)).toMatchObject({
      status: 'completed',
      vtt_progress: 100,
      vtt_error: null,
      original_key: `videos/${v.id}/original/o.mp4`,
      playback_key: `videos/${v.id}/proxy/p.mp4`,
      duration: 12.5,
      width: 1920,
      height: 1080,
      has_audio: true,
      file_size: '4096',
      language_code: 'de',
    });
  });

  it('keeps progress monotonic and below 100 until completion', async () => {
    const v = await videos.create(newVideo());
    const job = v.ingest_job_id!;
    await videos.ingestProgress(v.id, job, 60);
    await videos.ingestProgress(v.id, job, 30);
    expect((await videos.get(v.id))!.vtt_progress).toBe(60);
    await videos.ingestProgress(v.id, job, 250);
    expect((await videos.get(v.id))!.vtt_progress).toBe(99);
  });

  it('ignores progress, failure and completion of another (older) ingest job, and says so', async () => {
    const v = await videos.create(newVideo());
    const stale = `probe_${randomUUID()}`;
    expect(await videos.ingestProgress(v.id, stale, 50)).toBe(false);
    expect(await videos.ingestFailed(v.id, stale, 'boom')).toBe(false);
    expect(await database.ds.transaction((tx) => videos.ingestCompleted(tx, ingestCompleted(v.id, stale)))).toBe(false);
    expect(await videos.ingestProgress(v.id, v.ingest_job_id!, 50)).toBe(true);
    expect(await videos.get(v.id)).toMatchObject({ status: 'processing', vtt_progress: 50, vtt_error: null, original_key: null, duration: null });
  });

  it('never moves a finished video back: repeated completion, late progress and late failure change nothing', async () => {
    const v = await completedVideo();
    const job = v.ingest_job_id!;
    expect(await database.ds.transaction((tx) => videos.ingestCompleted(tx, ingestCompleted(v.id, job, { durationSec: 99 })))).toBe(false);
    expect(await videos.ingestProgress(v.id, job, 10)).toBe(false);
    expect(await videos.ingestFailed(v.id, job, 'late')).toBe(false);
    expect(await videos.get(v.id)).toMatchObject({ status: 'completed', vtt_progress: 100, duration: 12.5, vtt_error: null });
  });

  it('records a failure, and a new ingest may start again from failed (but not from completed)', async () => {
    const v = await videos.create(newVideo());
    await videos.ingestFailed(v.id, v.ingest_job_id!, 'The file is not a video.');
    expect(await videos.get(v.id)).toMatchObject({ status: 'failed', vtt_error: 'The file is not a video.' });
    const retry = `probe_${randomUUID()}`;
    const source = { kind: 'provider' as const, videoUrl: 'https://provider.example.com/v.mp4' };
    expect(await videos.startIngest(v.id, retry, source)).toBe(true);
    expect(await videos.get(v.id)).toMatchObject({ status: 'processing', vtt_progress: 0, vtt_error: null, ingest_job_id: retry, ingest_source: source });
    expect(await videos.startIngest(v.id, `probe_${randomUUID()}`, source)).toBe(false);
    // the failed job's events no longer count
    await videos.ingestFailed(v.id, v.ingest_job_id!, 'old');
    expect(await videos.get(v.id)).toMatchObject({ status: 'processing', vtt_error: null });
    const done = await completedVideo();
    await videos.startIngest(done.id, `probe_${randomUUID()}`, source);
    expect(await videos.get(done.id)).toMatchObject({ status: 'completed', ingest_job_id: done.ingest_job_id });
  });

  it("counts an owner's videos whose ingest runs", async () => {
    const owner = `wordcut:${randomUUID()}`;
    const a = await videos.create(newVideo({ ownerId: owner }));
    const b = await videos.create(newVideo({ ownerId: owner }));
    await completedVideo({ ownerId: owner });
    await videos.ingestFailed(b.id, b.ingest_job_id!, 'x');
    await videos.create(newVideo());
    expect(await videos.countIngestingForOwner(database.ds.manager, owner)).toBe(1);
    await videos.ingestProgress(a.id, a.ingest_job_id!, 5);
    expect(await videos.countIngestingForOwner(database.ds.manager, owner)).toBe(1);
  });
});

describe('edits of the record', () => {
  it('patches the title and resets the changed flags; a missing video answers null', async () => {
    const v = await completedVideo();
    await database.ds.query(`UPDATE library.videos SET vtt_changed = true, word_byword_changed = true WHERE id = $1`, [v.id]);
    expect(await videos.patch(v.id, { title: 'New title' })).toMatchObject({ title: 'New title', vtt_changed: true, word_byword_changed: true });
    expect(await videos.patch(v.id, { vttChanged: false })).toMatchObject({ title: 'New title', vtt_changed: false, word_byword_changed: true });
    expect(await videos.patch(randomUUID(), { title: 'x' })).toBeNull();
  });

  it('makes a render the current version, and a revert brings the original back', async () => {
    const v = await completedVideo();
    const el = applyMute(applyCuts(identityEditList(12.5), [{ start: 0, end: 2.5 }]), [{ start: 5, end: 6 }], 'silence');
    await database.ds.transaction((tx) =>
      videos.applyRender(tx, v.id, { editList: el, playbackKey: `videos/${v.id}/renders/cut_1.mp4`, processedFilename: 'cut_1.mp4', durationSec: 10, summary: { jobId: 'cut_1' } }),
    );
    const rendered = (await videos.get(v.id))!;
    expect(rendered).toMatchObject({
      edit_version: 1,
      playback_key: `videos/${v.id}/renders/cut_1.mp4`,
      source_playback_key: v.playback_key,
      media_version: 'cut_1.mp4',
      processed_filename: 'cut_1.mp4',
      video_changed: true,
      vtt_changed: true,
      word_byword_changed: true,
      duration: 10,
      waveform_key: null,
    });
    // the mute was placed at 5-6 s of the cut version (source 7.5-8.5 s) and reads back in output time
    expect(toApiVideo(rendered).mutedSegments).toEqual([{ start: 5, end: 6, volume: 0 }]);
    // a second render keeps the original's playback key as the source
    await database.ds.transaction((tx) =>
      videos.applyRender(tx, v.id, { editList: el, playbackKey: `videos/${v.id}/renders/cut_2.mp4`, processedFilename: 'cut_2.mp4', durationSec: 10, summary: {} }),
    );
    expect(await videos.get(v.id)).toMatchObject({ source_playback_key: v.playback_key });
    await database.ds.transaction((tx) => videos.revertToOriginal(tx, v.id, 12.5));
    expect(await videos.get(v.id)).toMatchObject({
      edit_list: null,
      edit_version: 3,
      playback_key: v.playback_key,
      media_version: 'original',
      processed_filename: null,
      video_changed: false,
      vtt_changed: false,
      duration: 12.5,
    });
  });

  it('stores a waveform only for the media version it was built from', async () => {
    const v = await completedVideo();
    await videos.setWaveformKey(v.id, 'cut_9.mp4', 'stale');
    expect((await videos.get(v.id))!.waveform_key).toBe(v.waveform_key);
    await videos.setWaveformKey(v.id, 'original', 'fresh');
    expect((await videos.get(v.id))!.waveform_key).toBe('fresh');
  });

  it('relinks a video to a clone only while it is still in the session it was in', async () => {
    const session = `session-${randomUUID()}`;
    const v = await completedVideo({ providerSessionId: session });
    await videos.setUploadStatus(v.id, 'main_video', 'uploaded');
    const inside = jest.fn(async () => undefined);
    expect(await videos.relinkToClone(v.id, { fromSession: 'another-session', sessionId: 'clone', providerVideoId: 'pv' }, inside)).toBe(false);
    expect(inside).not.toHaveBeenCalled();
    expect(await videos.relinkToClone(v.id, { fromSession: session, sessionId: `clone-${session}`, providerVideoId: 'pv-2' }, inside)).toBe(true);
    expect(inside).toHaveBeenCalledTimes(1);
    expect(await videos.get(v.id)).toMatchObject({
      provider_session_id: `clone-${session}`,
      provider_video_id: 'pv-2',
      provider_is_clone: true,
      provider_main_video_upload_status: 'none',
      provider_vtt_upload_status: 'none',
    });
  });

  it('rolls the relink back when the work inside the transaction fails', async () => {
    const session = `session-${randomUUID()}`;
    const v = await completedVideo({ providerSessionId: session });
    await expect(
      videos.relinkToClone(v.id, { fromSession: session, sessionId: 'clone-x', providerVideoId: 'pv' }, async () => {
        throw new Error('clips could not be reset');
      }),
    ).rejects.toThrow('clips could not be reset');
    expect((await videos.get(v.id))!.provider_session_id).toBe(session);
  });

  it('tracks uploads to the provider; a successful word-by-word upload never hides a failed VTT', async () => {
    const v = await completedVideo();
    await videos.markUploading(v.id, true, false);
    expect(await videos.get(v.id)).toMatchObject({ provider_main_video_upload_status: 'uploading', provider_vtt_upload_status: 'none' });
    await videos.markUploading(v.id, false, true);
    await videos.setUploadStatus(v.id, 'vtt', 'failed');
    await videos.setUploadStatus(v.id, 'word_by_word', 'uploaded');
    expect((await videos.get(v.id))!.provider_vtt_upload_status).toBe('failed');
    await videos.setUploadStatus(v.id, 'vtt', 'uploaded');
    await videos.setUploadStatus(v.id, 'word_by_word', 'failed');
    expect((await videos.get(v.id))!.provider_vtt_upload_status).toBe('failed');
    await videos.resetUploads(v.id);
    expect(await videos.get(v.id)).toMatchObject({ provider_main_video_upload_status: 'none', provider_vtt_upload_status: 'none' });
  });
});

describe('access and retention', () => {
  it('records an access at most once an hour, and lists videos nobody opened since a time, oldest first', async () => {
    const [old, older, fresh] = [await videos.create(newVideo()), await videos.create(newVideo()), await videos.create(newVideo())];
    await database.ds.query(`UPDATE library.videos SET accessed_at = now() - interval '10 days' WHERE id = $1`, [old.id]);
    await database.ds.query(`UPDATE library.videos SET accessed_at = now() - interval '20 days' WHERE id = $1`, [older.id]);
    const before = new Date(Date.now() - 5 * 24 * 3600 * 1000);
    const ids = (await videos.untouchedSince(before, 1000)).map((v) => v.id);
    expect(ids.indexOf(older.id)).toBeLessThan(ids.indexOf(old.id));
    expect(ids).not.toContain(fresh.id);
    await videos.touch(old.id);
    expect((await videos.untouchedSince(before, 1000)).map((v) => v.id)).not.toContain(old.id);
    const [{ accessed_at: a }] = (await database.ds.query(`SELECT accessed_at FROM library.videos WHERE id = $1`, [fresh.id])) as [{ accessed_at: Date }];
    await videos.touch(fresh.id);
    const [{ accessed_at: b }] = (await database.ds.query(`SELECT accessed_at FROM library.videos WHERE id = $1`, [fresh.id])) as [{ accessed_at: Date }];
    expect(b).toEqual(a);
  });

  it('deletes a video with its transcript', async () => {
    const v = await completedVideo();
    await database.ds.query(`INSERT INTO library.transcripts (id, video_id, version, language_code) VALUES ($1, $2, 1, 'en')`, [randomUUID(), v.id]);
    await videos.delete(v.id);
    expect(await videos.get(v.id)).toBeNull();
    expect(await database.ds.query(`SELECT 1 FROM library.transcripts WHERE video_id = $1`, [v.id])).toEqual([]);
  });
});

describe('toApiVideo', () => {
  it('answers the API shape: camelCase, ISO times, numeric size, rounded progress, no mutes without an edit list', async () => {
    const v = await videos.create(newVideo({ fileSize: 2048 }));
    await videos.ingestProgress(v.id, v.ingest_job_id!, 33.6);
    const api = toApiVideo((await videos.get(v.id))!);
    expect(api).toMatchObject({ id: v.id, title: 'Talk', originalName: 'talk.mp4', status: 'processing', vttProgress: 34, fileSize: 2048, mediaVersion: 'original', mutedSegments: [], transcriptId: null });
    expect(api.createdAt).toBe(v.created_at.toISOString());
    expect(api.lastProcessedAt).toBeNull();
  });

  it('shows no mutes for an edit list it cannot read, rather than failing', async () => {
    const v = await completedVideo();
    await database.ds.query(`UPDATE library.videos SET edit_list = '{"nonsense": true}' WHERE id = $1`, [v.id]);
    expect(toApiVideo((await videos.get(v.id))!).mutedSegments).toEqual([]);
  });
});
