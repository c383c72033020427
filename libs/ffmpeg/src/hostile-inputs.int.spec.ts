/**
 * ADR 0012 with the real binaries: playlists, ffconcat lists and an MP4 whose data reference
 * points outside the file are refused, from a local path and from a presigned URL, and a loopback
 * canary gets no request and a local file canary (a named pipe) is never opened. The old argv
 * (format auto-detected, file,http,https,tcp,tls,crypto) is run first to prove the canaries work.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  buildFfprobeArgs,
  computePeaks,
  FfmpegMediaTools,
  MediaProbeError,
  readRenderMediaInfo,
  renderEdit,
  type MediaProbeErrorCode,
} from '@wordcut/ffmpeg';
import { S3ObjectStorage, startLocalS3, type LocalS3 } from '@wordcut/storage';
import { ffconcatList, hlsPlaylist, makeSmallMp4, startCanary, watchFile, withDrefChain, withExternalDataReference, withManyTracks, withStscWalk, withTwoMovies, type Canary, type FileCanary } from './testing/hostile-media';

const run = promisify(execFile);

/** ffprobe as every input was read before ADR 0012: the format guessed, file and network protocols. */
async function oldProbe(input: string): Promise<void> {
  await run('ffprobe', ['-v', 'error', '-show_format', '-protocol_whitelist', 'file,http,https,tcp,tls,crypto', '-i', input], { timeout: 30_000 }).catch(() => undefined);
}

describe('hostile inputs (real ffmpeg): refused, nothing fetched, nothing opened', () => {
  let dir: string;
  let canary: Canary;
  let secret: FileCanary;
  let s3: LocalS3;
  let storage: S3ObjectStorage;
  let mp4: string;
  const tools = new FfmpegMediaTools();
  /** name -> [local path, presigned URL] */
  const inputs = new Map<string, [string, string]>();

  const HOSTILE: Array<[string, MediaProbeErrorCode]> = [
    ['hls-http.mp4', 'NOT_MP4'],
    ['hls-file.mp4', 'NOT_MP4'],
    ['list.ffconcat', 'NOT_MP4'],
    ['external-dref.mp4', 'EXTERNAL_REFERENCE'],
  ];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wordcut-hostile-'));
    canary = await startCanary();
    mp4 = join(dir, 'small.mp4');
    await makeSmallMp4(mp4);
    const secretPath = join(dir, 'secret.ts');
    const files: Record<string, string | Buffer> = {
      'hls-http.mp4': hlsPlaylist([`${canary.base}/seg0.ts`, `${canary.base}/seg1.ts`]),
      'hls-file.mp4': hlsPlaylist([`file:${secretPath}`]),
      'list.ffconcat': ffconcatList([`${canary.base}/a.mp4`, secretPath, 'secret.ts']),
      'external-dref.mp4': withExternalDataReference(await readFile(mp4), `${canary.base}/external.mp4`),
    };
    s3 = await startLocalS3({ port: 0, directory: join(dir, 's3') });
    storage = new S3ObjectStorage(s3.storageConfig('hostile'));
    await storage.ensureBucket();
    for (const [name, body] of Object.entries(files)) {
      await writeFile(join(dir, name), body);
      await storage.upload(`uploads/${name}`, Buffer.from(body));
      inputs.set(name, [join(dir, name), await storage.presignGet(`uploads/${name}`, 600)]);
    }
  }, 120_000);

  afterAll(async () => {
    await canary.close();
    storage.destroy();
    await s3.close();
    await rm(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    canary.requests.length = 0;
    secret = await watchFile(join(dir, 'secret.ts'));
  });
  afterEach(async () => {
    await secret.close();
  });

  const nothingFetchedOrOpened = () => {
    expect(canary.requests).toEqual([]);
    expect(secret.opened()).toBe(false);
  };

  it('the canaries work: the old argv fetches the playlist segments and opens the local file', async () => {
    await oldProbe(inputs.get('hls-http.mp4')![0]);
    expect(canary.requests).toContain('GET /seg0.ts');
    await oldProbe(inputs.get('hls-http.mp4')![1]);
    expect(canary.requests.filter((r) => r === 'GET /seg0.ts').length).toBeGreaterThanOrEqual(2);
    await oldProbe(inputs.get('hls-file.mp4')![1]); // a presigned playlist reading the worker's disk
    expect(secret.opened()).toBe(true);
  }, 60_000);

  it.each(HOSTILE)('%s: probe refuses it as %s, from a local path and from a presigned URL', async (name, code) => {
    const [path, url] = inputs.get(name)!;
    for (const input of [path, url]) {
      const err = await tools.probe(input, { timeoutMs: 30_000 }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(MediaProbeError);
      expect(err).toMatchObject({ code });
      expect((err as Error).message).not.toContain('X-Amz-Signature');
    }
    nothingFetchedOrOpened();
  }, 60_000);

  it('the refusal names what was refused', async () => {
    await expect(tools.probe(inputs.get('hls-http.mp4')![0])).rejects.toThrow('not a playable media file: not an MP4/MOV file (no ISO base media box at its start)');
    await expect(tools.probe(inputs.get('external-dref.mp4')![1])).rejects.toThrow(
      `not a playable media file: a data reference points outside the file (moov/trak/mdia/minf/dinf/dref: url "${canary.base}/external.mp4")`,
    );
    await expect(readRenderMediaInfo(inputs.get('external-dref.mp4')![0])).rejects.toMatchObject({ code: 'EXTERNAL_REFERENCE' });
    nothingFetchedOrOpened();
  });

  it.each(HOSTILE.filter(([, code]) => code === 'NOT_MP4'))('%s: the pinned demuxer alone (peaks, proxy, ffprobe) refuses it too', async (name) => {
    const [path, url] = inputs.get(name)!;
    for (const input of [path, url]) {
      await expect(computePeaks(input, { peaksPerSecond: 100, timeoutMs: 30_000 })).rejects.toMatchObject({ code: 'NOT_MEDIA' });
      await expect(tools.transcodeForBrowser(input, join(dir, 'proxy.mp4'), { timeoutMs: 30_000 })).rejects.toThrow(/moov atom not found|Invalid data/);
      const [binary, ...args] = ['ffprobe', ...buildFfprobeArgs(input)];
      await expect(run(binary!, args, { timeout: 30_000 })).rejects.toMatchObject({ stderr: expect.stringMatching(/moov atom not found/) });
    }
    nothingFetchedOrOpened();
  }, 90_000);

  it('the external data reference: ffprobe alone accepts it (why the box check exists) and reads nothing outside', async () => {
    const [path, url] = inputs.get('external-dref.mp4')!;
    for (const input of [path, url]) {
      const [binary, ...args] = ['ffprobe', ...buildFfprobeArgs(input)];
      const { stdout } = await run(binary!, args, { timeout: 30_000 });
      expect(JSON.parse(stdout)).toMatchObject({ format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2' } });
      await expect(computePeaks(input, { peaksPerSecond: 100, timeoutMs: 30_000 })).resolves.toMatchObject({ durationSec: expect.any(Number) });
    }
    await expect(renderEdit({ input: path, output: join(dir, 'out.mp4'), workDir: dir, segments: [{ start: 0, end: 1 }] })).rejects.toMatchObject({ code: 'EXTERNAL_REFERENCE' });
    nothingFetchedOrOpened();
  }, 60_000);

  it('a normal MP4 still probes, from a path and a presigned URL, and renders', async () => {
    await storage.upload('uploads/small.mp4', await readFile(mp4));
    for (const input of [mp4, await storage.presignGet('uploads/small.mp4', 600)]) {
      const r = await tools.probe(input, { timeoutMs: 30_000 });
      expect(r.streams.map((s) => s.codecName).sort()).toEqual(['aac', 'h264']);
    }
    const work = await mkdtemp(join(dir, 'render-'));
    const r = await renderEdit({ input: mp4, output: join(work, 'out.mp4'), workDir: work, segments: [{ start: 1, end: 2 }, { start: 0, end: 0.5 }] });
    expect(r.outputDurationSec).toBeCloseTo(1.5, 1);
    expect((await tools.probe(join(work, 'out.mp4'))).durationSec).toBeCloseTo(1.5, 0);
    nothingFetchedOrOpened();
  }, 60_000);

  it('crafted MP4s of the reader review: probe and render refuse them at once, from a path and a presigned URL', async () => {
    const small = await readFile(mp4);
    const crafted: Array<[string, Buffer, MediaProbeErrorCode]> = [
      ['dref-chain.mp4', withDrefChain(small, 600_000), 'EXTERNAL_REFERENCE'],
      ['stsc-walk.mp4', withStscWalk(small, 50_000, 25_000), 'UNSAFE_STRUCTURE'],
      ['two-movies.mp4', withTwoMovies(small), 'UNSAFE_STRUCTURE'],
      ['many-tracks.mp4', withManyTracks(small, 60), 'UNSAFE_STRUCTURE'],
    ];
    for (const [name, body, code] of crafted) {
      const path = join(dir, name);
      await writeFile(path, body);
      await storage.upload(`uploads/${name}`, body);
      for (const input of [path, await storage.presignGet(`uploads/${name}`, 600)]) {
        const started = Date.now();
        await expect(tools.probe(input, { timeoutMs: 30_000 })).rejects.toMatchObject({ code });
        expect(Date.now() - started).toBeLessThan(5000);
      }
      await expect(renderEdit({ input: path, output: join(dir, 'out.mp4'), workDir: dir, segments: [{ start: 0, end: 1 }] })).rejects.toMatchObject({ code });
    }
    nothingFetchedOrOpened();
  }, 60_000);
});
