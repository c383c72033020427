/**
 * copyCompletedVideo against a real Postgres and S3 server: the copy is a new completed video of
 * the same owner under its own provider session, with the template's media info, transcript and
 * every object under its own keys; the template is left as it was.
 */
import { StorageKeys, type VideoIngestCompletedEvent } from '@wordcut/contracts';
import { readObjectBytes } from '@wordcut/storage';
import { buildTranscriptFromVtt } from '@wordcut/transcript';
import { randomUUID } from 'node:crypto';
import { TranscriptStore } from '../../services/gateway/src/transcripts/transcript-store';
import { VideoStore } from '../../services/gateway/src/videos/video-store';
import { gatewayTestDatabase } from './gateway-database';
import { startTestS3, type TestS3 } from './local-s3';
import { copyCompletedVideo } from './seed-completed-video';

const database = gatewayTestDatabase(2);
const videos = database.store(VideoStore);
const transcripts = database.store(TranscriptStore);
let s3: TestS3;

beforeAll(async () => {
  s3 = await startTestS3('seed-completed');
  await s3.storage.ensureBucket();
});
afterAll(() => s3.close());

const stores = () => ({ ds: database.ds, videos, transcripts, storage: s3.storage });
const VTT = 'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nUm, welcome to the talk.\n\n00:00:04.000 --> 00:00:06.000\nSecond paragraph here.\n';
const OWNER = 'provider:wordcut-provider-sandbox:sandbox-user';

/** A provider video as a finished ingest leaves it: rows and objects. */
async function template(): Promise<{ id: string; jobId: string }> {
  const id = randomUUID();
  const jobId = `ingest_${randomUUID()}`;
  const source = { kind: 'provider' as const, videoUrl: 'http://sandbox/media/demo.mp4', vttUrl: 'http://sandbox/media/demo.vtt' };
  await videos.create({ id, title: 'demo', originalName: 'demo', filename: 'demo.mp4', languageCode: 'en', ingestJobId: jobId, ingestSource: source, ownerId: OWNER, providerSessionId: `tpl-${id}`, providerVideoId: 'demo' });
  const built = buildTranscriptFromVtt(VTT);
  const objects: Record<string, string> = {
    [StorageKeys.originalVideo(id, jobId)]: 'mp4 bytes',
    [StorageKeys.originalVtt(id, jobId)]: VTT,
    [StorageKeys.waveform(id, 'original')]: 'peaks',
    [StorageKeys.energy(id, 'original')]: 'energy',
    [StorageKeys.ingestTranscript(id, jobId)]: JSON.stringify(built),
  };
  for (const [key, text] of Object.entries(objects)) await s3.storage.upload(key, Buffer.from(text));
  const completed: VideoIngestCompletedEvent = {
    jobId, videoId: id, originalKey: StorageKeys.originalVideo(id, jobId), playbackKey: StorageKeys.originalVideo(id, jobId),
    transcriptKey: StorageKeys.ingestTranscript(id, jobId), waveformKey: StorageKeys.waveform(id, 'original'),
    probe: { formatName: 'mov,mp4', durationSec: 6, sizeBytes: 9, bitRate: 1000, streams: [] },
    durationSec: 6, width: 320, height: 240, hasAudio: true, sizeBytes: 9, languageCode: 'en', worker: 'media-1', at: new Date().toISOString(),
  };
  await database.ds.transaction(async (tx) => {
    await videos.ingestCompleted(tx, completed);
    await transcripts.replaceForVideo(tx, id, built);
  });
  return { id, jobId };
}

describe('copyCompletedVideo', () => {
  it('makes a completed video of the same owner for the session, with the same media info, transcript and objects', async () => {
    const tpl = await template();
    const { videoId } = await copyCompletedVideo(stores(), tpl.id, { providerSessionId: 'e2e-copy-1' });

    expect(videoId).not.toBe(tpl.id);
    const copy = (await videos.getBySession('e2e-copy-1', OWNER))!;
    const original = (await videos.get(tpl.id))!;
    expect(copy.id).toBe(videoId);
    expect(copy).toMatchObject({
      status: 'completed', vtt_progress: 100, media_version: 'original', owner_id: OWNER, provider_video_id: 'demo', provider_is_clone: false,
      duration: original.duration, width: 320, height: 240, has_audio: true, file_size: original.file_size, probe: original.probe,
      language_code: 'en', title: 'demo', ingest_source: original.ingest_source,
    });
    expect(copy.ingest_job_id).toMatch(/^ingest_/);
    expect(copy.ingest_job_id).not.toBe(tpl.jobId);
    const job = copy.ingest_job_id!;
    expect(copy.original_key).toBe(StorageKeys.originalVideo(videoId, job));
    expect(copy.playback_key).toBe(StorageKeys.originalVideo(videoId, job));
    expect(copy.waveform_key).toBe(StorageKeys.waveform(videoId, 'original'));

    const [a, b] = [await transcripts.getByVideo(tpl.id), await transcripts.getByVideo(videoId)];
    expect(b).toMatchObject({ version: 1, languageCode: 'en', words: a!.words, paragraphs: a!.paragraphs, fillerWords: a!.fillerWords, warnings: a!.warnings });
    expect(b!.id).not.toBe(a!.id);

    const keys = (await s3.storage.list(StorageKeys.videoPrefix(videoId))).map((o) => o.key).sort();
    expect(keys).toEqual(
      [StorageKeys.originalVideo(videoId, job), StorageKeys.originalVtt(videoId, job), StorageKeys.waveform(videoId, 'original'), StorageKeys.energy(videoId, 'original'), StorageKeys.ingestTranscript(videoId, job)].sort(),
    );
    expect(Buffer.from((await readObjectBytes(s3.storage, StorageKeys.energy(videoId, 'original')))!).toString()).toBe('energy');
    // the template is untouched
    expect((await videos.get(tpl.id))!.provider_session_id).toBe(`tpl-${tpl.id}`);
    expect(await s3.storage.list(StorageKeys.videoPrefix(tpl.id))).toHaveLength(5);
  });

  it('says the language it is asked to, in the video, its transcript and the stored transcript a revert reads', async () => {
    const tpl = await template();
    const { videoId } = await copyCompletedVideo(stores(), tpl.id, { providerSessionId: 'e2e-copy-ar', languageCode: 'ar' });
    const copy = (await videos.get(videoId))!;
    expect(copy.language_code).toBe('ar');
    expect((await transcripts.getByVideo(videoId))!.languageCode).toBe('ar');
    const stored = JSON.parse(Buffer.from((await readObjectBytes(s3.storage, StorageKeys.ingestTranscript(videoId, copy.ingest_job_id!)))!).toString()) as { languageCode: string };
    expect(stored.languageCode).toBe('ar');
  });

  it('refuses a video that is not completed', async () => {
    const id = randomUUID();
    await videos.create({ id, title: 't', originalName: 't', filename: 't.mp4', languageCode: 'en', ingestJobId: 'ingest_x', ingestSource: { kind: 'upload', videoKey: 'k', vttKey: 'v' }, ownerId: OWNER });
    await expect(copyCompletedVideo(stores(), id, { providerSessionId: 'e2e-copy-none' })).rejects.toThrow(/no completed video/);
  });
});
