/**
 * ClipStore against a real Postgres: a clip answers its video's owner only, ids of another
 * video's clips select nothing, a clip's render moves it pending → completed | failed (never
 * back), and its upload to the provider is tracked per clip.
 */
import { randomUUID } from 'node:crypto';
import { gatewayTestDatabase } from '../../../../tools/testing/gateway-database';
import { ClipStore, type NewClip } from './clip-store';

const database = gatewayTestDatabase(4);
const clips = database.store(ClipStore);

async function video(ownerId: string | null = 'owner-a'): Promise<string> {
  const id = randomUUID();
  await database.ds.query(`INSERT INTO library.videos (id, title, original_name, filename, status, vtt_method, language_code, owner_id) VALUES ($1, 't', 'o', 'f', 'completed', 'upload', 'en', $2)`, [
    id,
    ownerId,
  ]);
  return id;
}

async function clip(videoId: string, over: Partial<NewClip> = {}): Promise<NewClip> {
  const id = randomUUID();
  const jobId = `clip_${randomUUID()}`;
  const c: NewClip = {
    id,
    videoId,
    name: 'Highlight',
    startTime: 1,
    endTime: 4,
    aspectRatio: '9:16',
    reframe: { aspectRatio: '9:16', offsetX: 0, offsetY: 0, scale: 1 },
    jobId,
    outputKey: `videos/${videoId}/clips/${id}/${jobId}.mp4`,
    vttKey: `videos/${videoId}/clips/${id}/${jobId}.vtt`,
    ...over,
  };
  await clips.create(c);
  return c;
}

describe('ClipStore', () => {
  it("answers a clip to its video's owner only: a stranger and a missing id read as nothing alike", async () => {
    const c = await clip(await video('owner-a'));
    expect(await clips.getOwned(c.id, 'owner-a')).toMatchObject({
      id: c.id,
      video_id: c.videoId,
      name: 'Highlight',
      start_time: 1,
      end_time: 4,
      aspect_ratio: '9:16',
      reframe: c.reframe,
      status: 'pending',
      provider_upload_status: 'none',
      error: null,
    });
    expect(await clips.getOwned(c.id, 'owner-b')).toBeNull();
    expect(await clips.getOwned(randomUUID(), 'owner-a')).toBeNull();
    const unowned = await clip(await video(null));
    expect(await clips.getOwned(unowned.id, '')).toBeNull();
  });

  it("lists a video's clips newest first, and selects by id only the video's own", async () => {
    const v = await video();
    const first = await clip(v, { name: 'first' });
    const second = await clip(v, { name: 'second' });
    const elsewhere = await clip(await video());
    expect((await clips.listForVideo(v)).map((c) => c.name)).toEqual(['second', 'first']);
    expect((await clips.ofVideo(v, [first.id, elsewhere.id])).map((c) => c.id)).toEqual([first.id]);
    expect(await clips.ofVideo(v, [])).toEqual([]);
    expect((await clips.ofVideo(v, [first.id, second.id])).length).toBe(2);
  });

  it('completes the clip of a render, and a failed clip stays failed', async () => {
    const v = await video();
    const a = await clip(v);
    const b = await clip(v);
    await clips.completeForJob(a.jobId);
    expect(await clips.getOwned(a.id, 'owner-a')).toMatchObject({ status: 'completed', error: null });
    await clips.fail(b.id, 'Render failed');
    await clips.completeForJob(b.jobId);
    expect(await clips.getOwned(b.id, 'owner-a')).toMatchObject({ status: 'failed', error: 'Render failed' });
  });

  it('never fails a completed clip (a late failure or cancel changes nothing)', async () => {
    const c = await clip(await video());
    await clips.completeForJob(c.jobId);
    await clips.fail(c.id, 'Cancelled');
    expect(await clips.getOwned(c.id, 'owner-a')).toMatchObject({ status: 'completed', error: null });
  });

  it('tracks uploads to the provider per clip of the video, keeping a known provider id', async () => {
    const v = await video();
    const [a, b] = [await clip(v), await clip(v)];
    const other = await clip(await video());
    await clips.markUploading(v, [a.id, other.id]);
    expect((await clips.getOwned(a.id, 'owner-a'))!.provider_upload_status).toBe('uploading');
    expect((await clips.getOwned(b.id, 'owner-a'))!.provider_upload_status).toBe('none');
    expect((await clips.getOwned(other.id, 'owner-a'))!.provider_upload_status).toBe('none');
    await clips.setUploadStatus(a.id, v, 'uploaded', 'pv-1');
    await clips.setUploadStatus(a.id, v, 'uploaded', undefined);
    expect(await clips.getOwned(a.id, 'owner-a')).toMatchObject({ provider_upload_status: 'uploaded', provider_video_id: 'pv-1' });
    // a clip named with the wrong video is left alone
    await clips.setUploadStatus(other.id, v, 'failed', null);
    expect((await clips.getOwned(other.id, 'owner-a'))!.provider_upload_status).toBe('none');
    await database.ds.transaction((tx) => clips.resetUploads(tx, v));
    expect(await clips.getOwned(a.id, 'owner-a')).toMatchObject({ provider_upload_status: 'none', provider_video_id: null });
  });

  it('refuses an upload status outside the known ones', async () => {
    const v = await video();
    const c = await clip(v);
    await expect(clips.setUploadStatus(c.id, v, 'done' as never, null)).rejects.toThrow(/check constraint/);
  });

  it("answers the objects of a video's clips, and deletes one clip or all of a video's", async () => {
    const v = await video();
    const [a, b] = [await clip(v), await clip(v)];
    const keep = await clip(await video());
    expect(await clips.objectsOfVideo(v)).toEqual(
      expect.arrayContaining([
        { output_key: a.outputKey, vtt_key: a.vttKey },
        { output_key: b.outputKey, vtt_key: b.vttKey },
      ]),
    );
    await clips.delete(a.id);
    expect((await clips.listForVideo(v)).map((c) => c.id)).toEqual([b.id]);
    await database.ds.transaction((tx) => clips.deleteForVideo(tx, v));
    expect(await clips.listForVideo(v)).toEqual([]);
    expect(await clips.getOwned(keep.id, 'owner-a')).not.toBeNull();
  });

  it('go with their video', async () => {
    const v = await video();
    const c = await clip(v);
    await database.ds.query(`DELETE FROM library.videos WHERE id = $1`, [v]);
    expect(await clips.getOwned(c.id, 'owner-a')).toBeNull();
  });
});
