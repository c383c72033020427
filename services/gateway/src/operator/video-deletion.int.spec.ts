/**
 * Video deletion against a real Postgres (the object store and the jobs service are fakes): a
 * storage failure midway answers 503 and leaves the video marked and hidden with its rows, never
 * half-deleted and forgotten; the sweeper finishes it once storage answers again; a running render
 * refuses the deletion; the bulk preview sums the videos' previews.
 */
import { Subjects } from '@wordcut/contracts';
import type { Messaging } from '@wordcut/messaging';
import { createLogger } from '@wordcut/platform';
import type { ObjectStorage } from '@wordcut/storage';
import { randomUUID } from 'node:crypto';
import { gatewayTestDatabase } from '../../../../tools/testing/gateway-database';
import { ClipStore } from '../clips/clip-store';
import { KeyMomentStore } from '../key-moments/key-moment-store';
import { RenderStore } from '../edits/render-store';
import { SilenceAnalysisStore } from '../silence/silence-store';
import { TranscriptStore } from '../transcripts/transcript-store';
import { VideoStore } from '../videos/video-store';
import { DELETION_UNFINISHED_MESSAGE, JOB_RUNNING_MESSAGE, VideoDeletion } from './video-deletion';

const database = gatewayTestDatabase(4);
const videos = database.store(VideoStore);

/** Objects in memory; `failing` makes deletes throw like an unreachable S3. */
class FlakyStorage {
  readonly objects = new Map<string, number>();
  failing = false;
  async list(prefix: string) {
    return [...this.objects.entries()].filter(([k]) => k.startsWith(prefix)).map(([key, sizeBytes]) => ({ key, sizeBytes }));
  }
  async deletePrefix(prefix: string) {
    if (this.failing) throw new Error('S3 unavailable');
    const keys = [...this.objects.keys()].filter((k) => k.startsWith(prefix));
    keys.forEach((k) => this.objects.delete(k));
    return keys.length;
  }
}

/** The jobs service: the job records of videos, and removing them. */
class FakeJobs {
  readonly jobs: { id: string; videoId: string; kind: string; status: string }[] = [];
  async request(subject: string, payload: { videoIds: string[]; jobIds?: string[] }) {
    if (subject === Subjects.rpcJobsOfVideos) return this.jobs.filter((j) => payload.videoIds.includes(j.videoId));
    if (subject === Subjects.rpcJobsDeleteOfVideos) {
      const before = this.jobs.length;
      for (let i = this.jobs.length - 1; i >= 0; i--) if (payload.jobIds!.includes(this.jobs[i]!.id)) this.jobs.splice(i, 1);
      return { deleted: before - this.jobs.length };
    }
    throw new Error(`unexpected ${subject}`);
  }
}

let storage: FlakyStorage;
let jobs: FakeJobs;
let deletion: VideoDeletion;

beforeEach(() => {
  storage = new FlakyStorage();
  jobs = new FakeJobs();
  const ds = database.ds;
  deletion = new VideoDeletion({
    ds,
    bus: jobs as unknown as Messaging,
    storage: storage as unknown as ObjectStorage,
    logger: createLogger('deletion-test', 'silent'),
    videos: new VideoStore(ds),
    transcripts: new TranscriptStore(ds),
    clips: new ClipStore(ds),
    keyMoments: new KeyMomentStore(ds),
    renders: new RenderStore(ds),
    silence: new SilenceAnalysisStore(ds),
    rpcTimeoutMs: 1000,
  });
});

/** A completed video with a transcript, a clip, two objects and a finished job record. */
async function aVideo(): Promise<string> {
  const id = randomUUID();
  await database.ds.query(
    `INSERT INTO library.videos (id, title, original_name, filename, status, vtt_method, language_code, owner_id) VALUES ($1, 't', 'talk.mp4', 'f', 'completed', 'upload', 'en', 'owner-1')`,
    [id],
  );
  await database.ds.query(`INSERT INTO library.transcripts (id, video_id, version, language_code) VALUES ($1, $2, 1, 'en')`, [randomUUID(), id]);
  await database.ds.query(
    `INSERT INTO library.clips (id, video_id, name, start_time, end_time, aspect_ratio, status, job_id, output_key, vtt_key) VALUES ($1, $2, 'c', 0, 1, '1:1', 'completed', 'clip_x', 'k', 'v')`,
    [randomUUID(), id],
  );
  storage.objects.set(`videos/${id}/original.mp4`, 1000);
  storage.objects.set(`videos/${id}/clips/c.mp4`, 200);
  jobs.jobs.push({ id: `clip_${id}`, videoId: id, kind: 'clip', status: 'completed' });
  return id;
}

const rowCount = async (id: string) => Number((await database.ds.query(`SELECT (SELECT count(*) FROM library.videos WHERE id = $1) + (SELECT count(*) FROM library.clips WHERE video_id = $1) AS n`, [id]))[0].n);

describe('VideoDeletion', () => {
  it('leaves the video marked, hidden and whole when storage fails midway; the sweeper finishes it', async () => {
    const id = await aVideo();
    const other = await aVideo();
    storage.failing = true;
    await expect(deletion.delete([id], 'operator')).rejects.toMatchObject({ statusCode: 503, message: DELETION_UNFINISHED_MESSAGE });
    const row = await videos.get(id);
    expect(row?.deleting_at).toBeInstanceOf(Date);
    expect(await videos.getOwned(id, 'owner-1')).toBeNull();
    expect(await rowCount(id)).toBe(2);
    expect(storage.objects.size).toBe(4);
    // a deletion in progress is not previewed or deleted again
    await expect(deletion.preview([id])).rejects.toMatchObject({ statusCode: 404 });

    // a sweep within the grace period leaves it to the deletion in progress
    expect(await deletion.finishMarked(10)).toBe(0);
    storage.failing = false;
    expect(await deletion.finishMarked(10, new Date(Date.now() + 120_000))).toBe(1);
    expect(await rowCount(id)).toBe(0);
    expect([...storage.objects.keys()].every((k) => k.startsWith(`videos/${other}/`))).toBe(true);
    expect(jobs.jobs.map((j) => j.videoId)).toEqual([other]);
    expect(await rowCount(other)).toBe(2);
  });

  it('refuses while a render or a job of the video runs, and leaves it unmarked', async () => {
    const id = await aVideo();
    await database.ds.query(
      `INSERT INTO library.renders (job_id, video_id, kind, state, user_id, base_edit_version, base_edit, new_edit) VALUES ($1, $2, 'cut', 'active', 'owner-1', 0, '{}', '{}')`,
      [`cut_${id}`, id],
    );
    await expect(deletion.delete([id], 'operator')).rejects.toMatchObject({ statusCode: 409, message: JOB_RUNNING_MESSAGE });
    await database.ds.query(`DELETE FROM library.renders WHERE video_id = $1`, [id]);
    jobs.jobs.push({ id: `sil_${id}`, videoId: id, kind: 'silence', status: 'processing' });
    await expect(deletion.delete([id], 'operator')).rejects.toMatchObject({ statusCode: 409 });
    expect((await videos.get(id))?.deleting_at).toBeNull();
  });

  it('previews one video and the totals of several', async () => {
    const [a, b] = [await aVideo(), await aVideo()];
    const [preview] = await deletion.preview([a]);
    expect(preview).toMatchObject({ transcripts: 1, clips: 1, jobs: 1, renders: 0, totalSize: 1200 });
    expect(preview!.files).toEqual([`videos/${a}/original.mp4`, `videos/${a}/clips/c.mp4`]);
    const bulk = await deletion.bulkPreview([a, b]);
    expect(bulk).toMatchObject({ totalTranscripts: 2, totalClips: 2, totalJobs: 2, totalSize: 2400 });
    expect(bulk.totalFiles).toHaveLength(4);
    const done = await deletion.delete([a, b], 'operator');
    expect(done).toMatchObject({ deleted: [a, b], objects: 4 });
  });
});
