/**
 * ADR 0012 at the media worker's edges (real NATS, s3rver, ffmpeg): HLS playlists (segments on a
 * loopback server, or `file:` segments on the worker's disk), an ffconcat list and an MP4 whose
 * data reference points outside the file are refused by `rpc.media.probe` (ok:false, a code and a
 * message for people; the gateway answers 415 with it), by ingest (uploads and provider imports),
 * by the media.probe job and by renders; a loopback canary gets no request and the local file
 * canary (a named pipe) is never opened.
 */
import {
  jobFailedEventSchema,
  rpcMediaProbeReplySchema,
  rpcMediaWaveformReplySchema,
  StorageKeys,
  Streams,
  Subjects,
  videoIngestCompletedEventSchema,
  videoIngestFailedEventSchema,
  type JobFailedEvent,
  type MediaIngestCommand,
  type MediaRenderCommand,
  type VideoIngestCompletedEvent,
  type VideoIngestFailedEvent,
} from '@wordcut/contracts';
import { FfmpegMediaTools } from '@wordcut/ffmpeg';
import { Messaging } from '@wordcut/messaging';
import { createLogger } from '@wordcut/platform';
import { S3ObjectStorage, startLocalS3, type LocalS3 } from '@wordcut/storage';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ffconcatList,
  hlsPlaylist,
  makeSmallMp4,
  startCanary,
  watchFile,
  withExternalDataReference,
  type Canary,
  type FileCanary,
} from '../../../libs/ffmpeg/src/testing/hostile-media';
import { eventually, NATS_URL, uniqueSuffix } from '../../../tools/testing/env';
import { IngestWorker } from './ingest.worker';
import { SafeMediaImporter } from './media-importer';
import { MediaRpcHandlers } from './media-rpc';
import { ProbeWorker } from './probe.worker';
import { RenderWorker } from './render.worker';

const logger = createLogger('media-hostile-test', 'silent');
const VTT = 'WEBVTT\n\n00:00.000 --> 00:01.500\nHello world.\n';

const NOT_MP4 = { code: 'NOT_MP4', message: 'The file is not a video in MP4 or MOV format.' };
const EXTERNAL = { code: 'EXTERNAL_REFERENCE', message: 'The video refers to data outside the file. Please upload a self-contained MP4 or MOV file.' };

describe('media worker refuses hostile inputs (real NATS, s3rver, ffmpeg)', () => {
  let dir: string;
  let s3: LocalS3;
  let storage: S3ObjectStorage;
  let bus: Messaging;
  let canary: Canary;
  let secret: FileCanary;
  let provider: http.Server;
  let providerBase: string;
  const files = new Map<string, Buffer>();
  const ingestEvents = new Map<string, VideoIngestCompletedEvent | VideoIngestFailedEvent>();
  const jobFailures = new Map<string, JobFailedEvent>();
  const jobCompletions = new Set<string>();
  const jobStarts = new Map<string, number>();
  const tools = new FfmpegMediaTools();

  const HOSTILE = [
    ['an HLS playlist with segments on a loopback server', 'hls-http.mp4', NOT_MP4],
    ["an HLS playlist with file: segments on the worker's disk", 'hls-file.mp4', NOT_MP4],
    ['an ffconcat list', 'list.mp4', NOT_MP4],
    ['an MP4 whose data reference points outside the file', 'external-dref.mp4', EXTERNAL],
  ] as const;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wordcut-media-hostile-'));
    canary = await startCanary();
    const mp4 = join(dir, 'small.mp4');
    await makeSmallMp4(mp4);
    const secretPath = join(dir, 'secret.ts');
    files.set('small.mp4', await readFile(mp4));
    files.set('hls-http.mp4', Buffer.from(hlsPlaylist([`${canary.base}/seg0.ts`])));
    files.set('hls-file.mp4', Buffer.from(hlsPlaylist([`file:${secretPath}`])));
    files.set('list.mp4', Buffer.from(ffconcatList([`${canary.base}/a.mp4`, secretPath])));
    files.set('external-dref.mp4', withExternalDataReference(files.get('small.mp4')!, `${canary.base}/external.mp4`));
    files.set('captions.vtt', Buffer.from(VTT));

    s3 = await startLocalS3({ port: 0, directory: join(dir, 's3') });
    storage = new S3ObjectStorage({ endpoint: s3.endpoint, region: 'us-east-1', accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, bucket: 'media-hostile-test', forcePathStyle: true });
    await storage.ensureBucket();

    // The provider serves the same files for imports (it is not the canary: its hits are expected).
    provider = http.createServer((req, res) => {
      const body = files.get((req.url ?? '').replace(/^\/media\//, ''));
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
    });
    await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
    providerBase = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;

    const ns = `t${uniqueSuffix()}`;
    bus = await Messaging.connect({ servers: NATS_URL, namespace: ns, name: 'media-hostile-test', logger });
    const sub = bus.nc.subscribe(bus.subject('>'));
    void (async () => {
      for await (const m of sub) {
        const subject = m.subject.slice(ns.length + 1);
        if (subject === Subjects.videoIngestFailed) {
          const e = videoIngestFailedEventSchema.parse(m.json());
          ingestEvents.set(e.jobId, e);
        } else if (subject === Subjects.videoIngestCompleted) {
          const e = videoIngestCompletedEventSchema.parse(m.json());
          ingestEvents.set(e.jobId, e);
        } else if (subject === Subjects.jobFailed) {
          const e = jobFailedEventSchema.parse(m.json());
          jobFailures.set(e.jobId, e);
        } else if (subject === Subjects.jobStarted) {
          const { jobId } = m.json<{ jobId: string }>();
          jobStarts.set(jobId, (jobStarts.get(jobId) ?? 0) + 1);
        } else if (subject === Subjects.jobCompleted || subject === Subjects.videoRenderCompleted) {
          jobCompletions.add(m.json<{ jobId: string }>().jobId);
        }
      }
    })();

    const timeouts = { probeTimeoutMs: 30_000, transcodeTimeoutMs: 60_000, waveformTimeoutMs: 30_000 };
    const common = { workerId: 'w-hostile', ackWaitMs: 5000, maxDeliver: 3 };
    const importer = new SafeMediaImporter(storage, { allowedHosts: ['127.0.0.1'], trustedPrivateHosts: ['127.0.0.1'], maxBytes: 5 * 1024 * 1024, timeoutMs: 10_000 });
    await new IngestWorker(bus, storage, tools, importer, logger, { ...common, concurrency: 2, workDir: dir, ...timeouts }).start();
    await new ProbeWorker(bus, storage, tools, logger, { ...common, concurrency: 2, probeTimeoutMs: 30_000, faultDelayMs: 0 }).start();
    await new RenderWorker(bus, storage, logger, { ...common, concurrency: 2, renderTimeoutMs: 60_000, workDir: dir, pieceConcurrency: 2 }).start();
    new MediaRpcHandlers(bus, storage, tools, logger, timeouts).start();
  }, 120_000);

  afterAll(async () => {
    for (const s of [Streams.media.name, Streams.videos.name, Streams.jobs.name, Streams.deadLetter.name]) await bus.jsm.streams.delete(bus.streamName(s)).catch(() => undefined);
    await bus.close();
    await new Promise((r) => provider.close(r));
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
    // Checked after every test: no request reached the canary, nothing opened the local file.
    expect(canary.requests).toEqual([]);
    expect(secret.opened()).toBe(false);
    await secret.close();
  });

  async function put(name: string): Promise<string> {
    const key = `uploads/probe/${randomUUID()}`;
    await storage.upload(key, files.get(name)!);
    return key;
  }

  const probeRpc = (objectKey: string) => bus.request(Subjects.rpcMediaProbe, { objectKey }, rpcMediaProbeReplySchema, 30_000);

  it.each(HOSTILE)('rpc.media.probe refuses %s', async (_what, name, refusal) => {
    expect(await probeRpc(await put(name))).toEqual({ ok: false, ...refusal });
  });

  it('rpc.media.probe still accepts a normal MP4', async () => {
    const reply = await probeRpc(await put('small.mp4'));
    expect(reply).toMatchObject({ ok: true, result: { formatName: 'mov,mp4,m4a,3gp,3g2,mj2' } });
  });

  async function ingested(cmd: MediaIngestCommand): Promise<VideoIngestCompletedEvent | VideoIngestFailedEvent> {
    await bus.publish(Subjects.mediaIngest, cmd, { msgId: `${cmd.jobId}:media.ingest` });
    return eventually(() => ingestEvents.get(cmd.jobId), 60_000, `ingest ${cmd.jobId}`);
  }

  async function uploadIngest(name: string): Promise<VideoIngestCompletedEvent | VideoIngestFailedEvent> {
    const videoId = randomUUID();
    const videoKey = StorageKeys.originalVideo(videoId, 'o1');
    const vttKey = StorageKeys.originalVtt(videoId, 'o1');
    await storage.upload(videoKey, files.get(name)!);
    await storage.upload(vttKey, files.get('captions.vtt')!);
    return ingested({ jobId: `ingest_${randomUUID()}`, videoId, source: { kind: 'upload', videoKey, vttKey }, requestedAt: new Date().toISOString() });
  }

  it.each(HOSTILE)('ingest of an upload refuses %s', async (_what, name, refusal) => {
    expect(await uploadIngest(name)).toMatchObject({ code: refusal.code, error: refusal.message });
  }, 90_000);

  it.each(HOSTILE)('ingest of a provider import refuses %s, and keeps none of it', async (_what, name, refusal) => {
    const cmd: MediaIngestCommand = {
      jobId: `ingest_${randomUUID()}`,
      videoId: randomUUID(),
      source: { kind: 'provider', videoUrl: `${providerBase}/media/${name}`, vttUrl: `${providerBase}/media/captions.vtt` },
      requestedAt: new Date().toISOString(),
    };
    expect(await ingested(cmd)).toMatchObject({ code: refusal.code, error: refusal.message });
    expect(await storage.head(StorageKeys.originalVideo(cmd.videoId, cmd.jobId))).toBeNull();
  }, 90_000);

  it('ingest of a normal MP4 upload completes', async () => {
    expect(await uploadIngest('small.mp4')).toMatchObject({ hasAudio: true, width: 160, height: 120 });
  }, 90_000);

  it.each(HOSTILE)('the media.probe job fails on %s with the reason', async (_what, name, refusal) => {
    const jobId = `probe_${randomUUID()}`;
    await bus.publish(Subjects.mediaProbe, { jobId, objectKey: await put(name) }, { msgId: `${jobId}:media.probe` });
    const failed = await eventually(() => jobFailures.get(jobId), 60_000, `probe ${jobId}`);
    expect(failed.code).toBe('UNSUPPORTED_MEDIA');
    expect(failed.error).toMatch(refusal === EXTERNAL ? /^not a playable media file: a data reference points outside the file/ : /^not a playable media file: not an MP4\/MOV file/);
  }, 60_000);

  function renderCommand(inputKey: string): MediaRenderCommand {
    const videoId = randomUUID();
    const jobId = `cut_${randomUUID()}`;
    return {
      jobId, kind: 'cut', videoId, userId: null, inputKey, outputKey: `videos/${videoId}/renders/${jobId}.mp4`,
      segments: [{ start: 0, end: 0.8 }, { start: 1.2, end: 2 }], volumes: [], captions: null, reframe: null, summary: 'test', requestedAt: new Date().toISOString(),
    };
  }

  it.each(HOSTILE)('a render of %s fails for good (no retry), nothing rendered', async (_what, name) => {
    const cmd = renderCommand(await put(name));
    await bus.publish(Subjects.mediaRender, cmd, { msgId: `${cmd.jobId}:media.render` });
    const failed = await eventually(() => jobFailures.get(cmd.jobId), 60_000, `render ${cmd.jobId}`);
    expect(failed).toMatchObject({ code: 'RENDER_FAILED', error: expect.stringMatching(/^Rendering failed: not a playable media file: /) });
    expect(jobStarts.get(cmd.jobId)).toBe(1); // a retried failure is only reported on the last of 3 attempts
    expect(await storage.head(cmd.outputKey)).toBeNull();
    expect(jobCompletions.has(cmd.jobId)).toBe(false);
  }, 90_000);

  it('a render of a normal MP4 completes', async () => {
    const cmd = renderCommand(await put('small.mp4'));
    await bus.publish(Subjects.mediaRender, cmd, { msgId: `${cmd.jobId}:media.render` });
    await eventually(() => (jobCompletions.has(cmd.jobId) ? true : undefined), 60_000, `render ${cmd.jobId}`);
    expect(await storage.head(cmd.outputKey)).not.toBeNull();
  }, 90_000);

  it('rpc.media.waveform reads the playlists as MP4 only: not media, nothing fetched', async () => {
    for (const name of ['hls-http.mp4', 'hls-file.mp4', 'list.mp4']) {
      const reply = await bus.request(Subjects.rpcMediaWaveform, { objectKey: await put(name), waveformKey: `w/${randomUUID()}.peaks` }, rpcMediaWaveformReplySchema, 30_000);
      expect(reply).toEqual({ ok: false, code: 'NOT_MEDIA', message: 'The file is not a playable video.' });
    }
  }, 60_000);
});
