import { DiskCache } from '@wordcut/ffmpeg';
import { S3ObjectStorage, startLocalS3, type LocalS3 } from '@wordcut/storage';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AwkwardMedia, ensureAwkwardMedia } from '../../../tools/media/awkward-media';
import { RenderSources } from './render-sources';

/** The real storage, counting the downloads it serves. */
class CountingStorage extends S3ObjectStorage {
  downloads = 0;
  override getStream(...args: Parameters<S3ObjectStorage['getStream']>): ReturnType<S3ObjectStorage['getStream']> {
    this.downloads++;
    return super.getStream(...args);
  }
}

describe('RenderSources (s3rver, ffprobe)', () => {
  let dir: string;
  let s3: LocalS3;
  let storage: CountingStorage;
  let media: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wordcut-render-sources-'));
    s3 = await startLocalS3({ port: 0, directory: join(dir, 's3') });
    storage = new CountingStorage({ endpoint: s3.endpoint, region: 'us-east-1', accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, bucket: 'render-sources-test', forcePathStyle: true });
    await storage.ensureBucket();
    media = await ensureAwkwardMedia();
    await storage.upload('videos/a/original.mp4', await readFile(join(media, AwkwardMedia.hevc)));
  }, 120000);

  afterAll(async () => {
    await s3.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a render that starts while the same original is being fetched waits for it and takes it from the cache', async () => {
    const sources = new RenderSources(storage, new DiskCache({ dir: join(dir, 'cache'), maxBytes: 1e9, maxAgeMs: 3600_000 }));
    const signal = new AbortController().signal;
    const [warm, render] = await Promise.all([
      sources.fetch('videos/a/original.mp4', await mkdtemp(join(dir, 'w-')), signal),
      sources.fetch('videos/a/original.mp4', await mkdtemp(join(dir, 'w-')), signal),
    ]);
    expect(storage.downloads).toBe(1);
    expect([warm.cached, render.cached]).toEqual([false, true]);
    expect((await readFile(render.path)).equals(await readFile(join(media, AwkwardMedia.hevc)))).toBe(true);
    expect(render.info).toEqual(warm.info);
  }, 60000);

  it('a waiting render that is cancelled stops waiting at once', async () => {
    const sources = new RenderSources(storage, new DiskCache({ dir: join(dir, 'cache2'), maxBytes: 1e9, maxAgeMs: 3600_000 }));
    const first = sources.fetch('videos/a/original.mp4', await mkdtemp(join(dir, 'w-')), new AbortController().signal);
    const ac = new AbortController();
    const second = sources.fetch('videos/a/original.mp4', await mkdtemp(join(dir, 'w-')), ac.signal);
    ac.abort(new Error('cancelled'));
    await expect(second).rejects.toThrow('cancelled');
    await first;
  }, 60000);
});
