import {
  decodeEnergy,
  decodeWaveform,
  energyDb,
  rpcMediaProbeReplySchema,
  rpcMediaWaveformReplySchema,
  StorageKeys,
  Streams,
  Subjects,
  videoIngestCompletedEventSchema,
  videoIngestFailedEventSchema,
  videoIngestProgressEventSchema,
  type MediaIngestCommand,
  type VideoIngestCompletedEvent,
  type VideoIngestFailedEvent,
  type VideoIngestProgressEvent,
} from '@wordcut/contracts';
import { decodeFrameGrid } from '@wordcut/edit-list';
import { FfmpegMediaTools, primaryVideoStream } from '@wordcut/ffmpeg';
import { Messaging, type InboundMessage } from '@wordcut/messaging';
import { createLogger } from '@wordcut/platform';
import { S3ObjectStorage, startLocalS3, type LocalS3 } from '@wordcut/storage';
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AWKWARD_LEAD_SEC, AWKWARD_TOTAL_SEC, AwkwardMedia, ensureAwkwardMedia } from '../../../tools/media/awkward-media';
import { eventually, NATS_URL, uniqueSuffix } from '../../../tools/testing/env';
import { IngestWorker, ingestKeys } from './ingest.worker';
import { SafeMediaImporter } from './media-importer';
import { MediaRpcHandlers } from './media-rpc';

type Outcome =
  | { kind: 'completed'; event: VideoIngestCompletedEvent; progress: VideoIngestProgressEvent[] }
  | { kind: 'failed'; event: VideoIngestFailedEvent; progress: VideoIngestProgressEvent[] };

const logger = createLogger('media-test', 'silent');

describe('media ingest worker and rpc handlers (real NATS, s3rver, ffmpeg)', () => {
  let media: string;
  let s3dir: string;
  let work: string;
  let s3: LocalS3;
  let storage: S3ObjectStorage;
  let bus: Messaging;
  let worker: IngestWorker;
  let provider: http.Server;
  let providerBase: string;
  const providerHits = new Map<string, number>();
  const events = new Map<string, { progress: VideoIngestProgressEvent[]; completed?: VideoIngestCompletedEvent; failed?: VideoIngestFailedEvent }>();
  const tools = new FfmpegMediaTools();

  beforeAll(async () => {
    media = await ensureAwkwardMedia();
    s3dir = await mkdtemp(join(tmpdir(), 'wordcut-media-s3-'));
    work = await mkdtemp(join(tmpdir(), 'wordcut-media-work-'));
    s3 = await startLocalS3({ port: 0, directory: s3dir });
    storage = new S3ObjectStorage({ endpoint: s3.endpoint, region: 'us-east-1', accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, bucket: 'media-ingest-test', forcePathStyle: true });
    await storage.ensureBucket();

    // A provider serving the awkward media: /media/<file>, /status/<code>.
    provider = http.createServer((req, res) => {
      const path = req.url ?? '/';
      providerHits.set(path, (providerHits.get(path) ?? 0) + 1);
      const status = /^\/status\/(\d{3})$/.exec(path);
      if (status) return void res.writeHead(Number(status[1])).end('no');
      const name = /^\/media\/([\w.-]+)$/.exec(path)?.[1];
      if (!name) return void res.writeHead(404).end();
      const file = name === 'words.json' ? join(work, name) : join(media, name);
      void stat(file).then(
        (s) => {
          res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': s.size });
          createReadStream(file).pipe(res);
        },
        () => res.writeHead(404).end(),
      );
    });
    await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
    providerBase = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;

    const ns = `t${uniqueSuffix()}`;
    bus = await Messaging.connect({ servers: NATS_URL, namespace: ns, name: 'media-ingest-test', logger });
    const sub = bus.nc.subscribe(bus.subject('videos.ingest.>'));
    void (async () => {
      for await (const m of sub) {
        const subject = m.subject.slice(ns.length + 1);
        const data = m.json<{ jobId: string }>();
        const entry = events.get(data.jobId) ?? { progress: [] };
        events.set(data.jobId, entry);
        if (subject === Subjects.videoIngestProgress) entry.progress.push(videoIngestProgressEventSchema.parse(data));
        if (subject === Subjects.videoIngestCompleted) entry.completed = videoIngestCompletedEventSchema.parse(data);
        if (subject === Subjects.videoIngestFailed) entry.failed = videoIngestFailedEventSchema.parse(data);
      }
    })();

    const importer = new SafeMediaImporter(storage, { allowedHosts: ['127.0.0.1'], trustedPrivateHosts: ['127.0.0.1'], maxBytes: 5 * 1024 * 1024, timeoutMs: 10_000 });
    const timeouts = { probeTimeoutMs: 30_000, transcodeTimeoutMs: 120_000, waveformTimeoutMs: 60_000 };
    worker = new IngestWorker(bus, storage, tools, importer, logger, { workerId: 'w-test', concurrency: 2, ackWaitMs: 5000, maxDeliver: 3, workDir: work, ...timeouts });
    await worker.start();
    new MediaRpcHandlers(bus, storage, tools, logger, timeouts).start();
  });

  afterAll(async () => {
    for (const s of [Streams.media.name, Streams.videos.name, Streams.deadLetter.name]) await bus.jsm.streams.delete(bus.streamName(s)).catch(() => undefined);
    await bus.close();
    await new Promise((r) => provider.close(r));
    storage.destroy();
    await s3.close();
    await rm(s3dir, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  });

  async function put(key: string, file: string): Promise<string> {
    await storage.upload(key, await readFile(join(media, file)));
    return key;
  }

  async function readObject(key: string): Promise<Buffer> {
    const { body } = await storage.getStream(key);
    const chunks: Buffer[] = [];
    for await (const c of body as AsyncIterable<Buffer>) chunks.push(c);
    return Buffer.concat(chunks);
  }

  function command(source: MediaIngestCommand['source'], languageHint?: string): MediaIngestCommand {
    return { jobId: `ingest_${randomUUID()}`, videoId: randomUUID(), source, ...(languageHint ? { languageHint } : {}), requestedAt: new Date().toISOString() };
  }

  async function uploadCommand(video: string, vtt: string = AwkwardMedia.vtt): Promise<MediaIngestCommand> {
    const videoId = randomUUID();
    const objectId = randomUUID();
    const videoKey = await put(StorageKeys.originalVideo(videoId, objectId), video);
    const vttKey = await put(StorageKeys.originalVtt(videoId, objectId), vtt);
    return { ...command({ kind: 'upload', videoKey, vttKey }), videoId };
  }

  async function ingest(cmd: MediaIngestCommand): Promise<Outcome> {
    await bus.publish(Subjects.mediaIngest, cmd, { msgId: `${cmd.jobId}:media.ingest` });
    return eventually(() => {
      const e = events.get(cmd.jobId);
      if (e?.completed) return { kind: 'completed', event: e.completed, progress: e.progress } as const;
      if (e?.failed) return { kind: 'failed', event: e.failed, progress: e.progress } as const;
      return undefined;
    }, 90_000, `ingest of ${cmd.jobId}`);
  }

  async function completed(cmd: MediaIngestCommand): Promise<{ event: VideoIngestCompletedEvent; progress: VideoIngestProgressEvent[] }> {
    const o = await ingest(cmd);
    if (o.kind !== 'completed') throw new Error(`expected completion, got ${o.event.code}: ${o.event.error}`);
    return o;
  }

  async function failed(cmd: MediaIngestCommand): Promise<VideoIngestFailedEvent> {
    const o = await ingest(cmd);
    if (o.kind !== 'failed') throw new Error(`expected a failure, got completion of ${o.event.jobId}`);
    return o.event;
  }

  async function expectSpeechWaveform(key: string): Promise<void> {
    const { durationSec, peaks } = decodeWaveform(await readObject(key));
    expect(durationSec).toBeCloseTo(AWKWARD_TOTAL_SEC, 0);
    expect(peaks.length).toBe(Math.ceil(durationSec * 100));
    const leadEnd = Math.floor(AWKWARD_LEAD_SEC * 100);
    expect(Math.max(...peaks.subarray(0, leadEnd - 5))).toBeLessThanOrEqual(3); // silence
    expect(Math.max(...peaks.subarray(leadEnd + 5, leadEnd + 105))).toBeGreaterThan(150); // speech
  }

  /** The frame-energy series made with the peaks: silent lead-in, loud speech after it. */
  async function expectSpeechEnergy(key: string): Promise<void> {
    const { durationSec, framesPerSecond, levels } = decodeEnergy(await readObject(key));
    expect(durationSec).toBeCloseTo(AWKWARD_TOTAL_SEC, 0);
    expect(framesPerSecond).toBe(100);
    expect(levels.length).toBe(Math.ceil(durationSec * 100));
    const leadEnd = Math.floor(AWKWARD_LEAD_SEC * 100);
    expect(energyDb(Math.max(...levels.subarray(0, leadEnd - 5)))).toBeLessThan(-70); // silence
    expect(energyDb(Math.max(...levels.subarray(leadEnd + 5, leadEnd + 105)))).toBeGreaterThan(-30); // speech
  }

  it('HEVC: makes an even-sized H.264 proxy, waveform and transcript, reporting progress', async () => {
    const cmd = await uploadCommand(AwkwardMedia.hevc);
    const keys = ingestKeys(cmd);
    const { event, progress } = await completed(cmd);
    expect(event).toMatchObject({
      jobId: cmd.jobId,
      videoId: cmd.videoId,
      originalKey: keys.videoKey,
      playbackKey: StorageKeys.proxy(cmd.videoId, cmd.jobId),
      transcriptKey: StorageKeys.ingestTranscript(cmd.videoId, cmd.jobId),
      waveformKey: StorageKeys.waveform(cmd.videoId, 'original'),
      width: 320,
      height: 240,
      hasAudio: true,
      sizeBytes: (await stat(join(media, AwkwardMedia.hevc))).size,
      languageCode: 'en',
      worker: 'w-test',
    });
    expect(event.durationSec).toBeCloseTo(AWKWARD_TOTAL_SEC, 0);
    expect(primaryVideoStream(event.probe)).toMatchObject({ codecName: 'hevc' });

    await writeFile(join(work, 'proxy-check.mp4'), await readObject(event.playbackKey));
    const proxy = await tools.probe(join(work, 'proxy-check.mp4'));
    const v = primaryVideoStream(proxy)!;
    expect(v).toMatchObject({ codecName: 'h264', pixFmt: 'yuv420p' });
    expect(v.width! % 2 + v.height! % 2).toBe(0);
    await expectSpeechWaveform(event.waveformKey!);
    await expectSpeechEnergy(keys.energyKey);

    const transcript = JSON.parse((await readObject(event.transcriptKey)).toString('utf8')) as { languageCode: string; words: { text: string; start: number }[]; paragraphs: unknown[]; fillerWords: number[] };
    expect(transcript.languageCode).toBe('en');
    expect(transcript.words.map((w) => w.text).join(' ')).toBe('Hello world, this is WordCut.');
    expect(transcript.words[0]!.start).toBeCloseTo(AWKWARD_LEAD_SEC, 2);
    expect(transcript.paragraphs.length).toBeGreaterThan(0);
    expect(Array.isArray(transcript.fillerWords)).toBe(true);

    const messages = progress.map((p) => p.message);
    expect(messages).toEqual(expect.arrayContaining(['Reading captions', 'Checking video', 'Preparing video for the browser', 'Building waveform']));
    expect(messages).not.toContain('Importing video');
    const values = progress.map((p) => p.progress);
    expect(values.every((p, i) => i === 0 || p >= values[i - 1]!)).toBe(true);
  });

  it('rotated phone video: played as is, dimensions as displayed', async () => {
    const cmd = await uploadCommand(AwkwardMedia.rotated);
    const { event, progress } = await completed(cmd);
    expect(event.playbackKey).toBe(event.originalKey);
    expect(event).toMatchObject({ width: 180, height: 320, hasAudio: true });
    expect(progress.map((p) => p.message)).not.toContain('Preparing video for the browser');
    await expectSpeechWaveform(event.waveformKey!);
  });

  it('odd-sized 4:4:4 video gets a 320x240 proxy; VFR and moov-at-end play as they are', async () => {
    const [odd, vfr, moovEnd] = await Promise.all([
      uploadCommand(AwkwardMedia.odd).then(completed),
      uploadCommand(AwkwardMedia.vfr).then(completed),
      uploadCommand(AwkwardMedia.moovAtEnd).then(completed),
    ]);
    expect(odd.event.playbackKey).not.toBe(odd.event.originalKey);
    expect(odd.event).toMatchObject({ width: 320, height: 240 });
    for (const { event } of [vfr, moovEnd]) {
      expect(event.playbackKey).toBe(event.originalKey);
      expect(event).toMatchObject({ width: 320, height: 240, hasAudio: true });
      expect(event.durationSec).toBeCloseTo(AWKWARD_TOTAL_SEC, 0);
    }
    // the variable rate's frames are stored, where they start (30 fps for 1 s, then 10 fps), for cutting on them
    expect(primaryVideoStream(vfr.event.probe)!.variableFrameRate).toBe(true);
    const grid = decodeFrameGrid(new Uint8Array(await readObject(StorageKeys.frameGrid(vfr.event.videoId))));
    const gaps = grid.starts.slice(1).map((t, i) => Math.round((t - grid.starts[i]!) * 1000));
    expect(gaps.filter((g) => g !== 33 && g !== 34 && g !== 100)).toEqual([]);
    expect(gaps).toContain(100);
    expect(primaryVideoStream(moovEnd.event.probe)!.variableFrameRate).toBeUndefined();
    expect(await storage.head(StorageKeys.frameGrid(moovEnd.event.videoId))).toBeNull();
  });

  it('video without audio: hasAudio false, no waveform', async () => {
    const cmd = await uploadCommand(AwkwardMedia.noAudio);
    const { event, progress } = await completed(cmd);
    expect(event).toMatchObject({ hasAudio: false, waveformKey: null, width: 320, height: 240 });
    expect(progress.map((p) => p.message)).not.toContain('Building waveform');
    expect(await storage.head(StorageKeys.waveform(cmd.videoId, 'original'))).toBeNull();
    expect(await storage.head(StorageKeys.energy(cmd.videoId, 'original'))).toBeNull();
  });

  it('a text file named .mp4, a truncated MP4 and a garbage VTT fail with clear messages', async () => {
    const [fake, truncated, garbage] = await Promise.all([
      uploadCommand(AwkwardMedia.fake).then(failed),
      uploadCommand(AwkwardMedia.truncated).then(failed),
      uploadCommand(AwkwardMedia.rotated, AwkwardMedia.garbageVtt).then(failed),
    ]);
    expect(fake).toMatchObject({ code: 'NOT_MP4', error: 'The file is not a video in MP4 or MOV format.', worker: 'w-test' });
    expect(truncated).toMatchObject({ code: 'NOT_MEDIA', error: 'The file is not a playable video.' });
    expect(garbage.code).toBe('VTT_INVALID');
    expect(garbage.error).toMatch(/WEBVTT/);
  });

  it('provider import: fetches video, VTT and word-by-word (preferred) into the bucket', async () => {
    const words = { languageCode: 'en-GB', words: [
      { text: 'Hello', start: 1.0, end: 1.3 }, { text: 'world,', start: 1.3, end: 1.7, confidence: 0.8 },
      { text: 'this', start: 1.8, end: 2.0 }, { text: 'is', start: 2.0, end: 2.1 }, { text: 'WordCut.', start: 2.1, end: 3.0 },
    ] };
    await writeFile(join(work, 'words.json'), JSON.stringify(words));
    const cmd = command({
      kind: 'provider',
      videoUrl: `${providerBase}/media/${AwkwardMedia.hevc}`,
      vttUrl: `${providerBase}/media/${AwkwardMedia.vtt}`,
      wordBywordUrl: `${providerBase}/media/words.json`,
    });
    const { event, progress } = await completed(cmd);
    expect(event).toMatchObject({
      originalKey: StorageKeys.originalVideo(cmd.videoId, cmd.jobId),
      playbackKey: StorageKeys.proxy(cmd.videoId, cmd.jobId),
      languageCode: 'en-GB',
      sizeBytes: (await stat(join(media, AwkwardMedia.hevc))).size,
    });
    expect(await readObject(event.originalKey)).toEqual(await readFile(join(media, AwkwardMedia.hevc)));
    expect((await readObject(StorageKeys.originalVtt(cmd.videoId, cmd.jobId))).toString()).toBe(await readFile(join(media, AwkwardMedia.vtt), 'utf8'));
    expect(await storage.head(StorageKeys.originalWordByWord(cmd.videoId, cmd.jobId))).not.toBeNull();
    const transcript = JSON.parse((await readObject(event.transcriptKey)).toString('utf8')) as { words: { text: string; start: number; confidence: number }[] };
    expect(transcript.words.map((w) => [w.text, w.start])).toEqual(words.words.map((w) => [w.text, w.start]));
    expect(transcript.words[1]!.confidence).toBe(0.8);
    expect(progress.map((p) => p.message)).toContain('Importing video');
  });

  it('provider failures: 404 and a host off the allow-list fail; a 500 is retried then dead-lettered', async () => {
    const notFound = await failed(command({ kind: 'provider', videoUrl: `${providerBase}/status/404`, vttUrl: `${providerBase}/media/${AwkwardMedia.vtt}` }));
    expect(notFound).toMatchObject({ code: 'IMPORT_FAILED', error: expect.stringMatching(/answered HTTP 404/) });
    expect(notFound.error).not.toContain('/status');

    const port = (provider.address() as AddressInfo).port;
    const offList = await failed(command({ kind: 'provider', videoUrl: `http://localhost:${port}/media/${AwkwardMedia.hevc}`, vttUrl: `${providerBase}/media/${AwkwardMedia.vtt}` }));
    expect(offList).toMatchObject({ code: 'UNSAFE_URL', error: `Importing media from localhost:${port} is not allowed.` });

    const noCaptions = await failed(command({ kind: 'provider', videoUrl: `${providerBase}/media/${AwkwardMedia.hevc}` }));
    expect(noCaptions).toMatchObject({ code: 'NO_CAPTIONS', error: 'No subtitles came with this video, so there is no transcript to edit.' });

    const flaky = command({ kind: 'provider', videoUrl: `${providerBase}/status/503`, vttUrl: `${providerBase}/media/${AwkwardMedia.vtt}` });
    await bus.publish(Subjects.mediaIngest, flaky, { msgId: `${flaky.jobId}:media.ingest` });
    const letter = await eventually(async () => (await bus.readDeadLetters()).find((l) => (l.data as { jobId?: string }).jobId === flaky.jobId), 60_000, 'dead letter');
    expect(letter).toMatchObject({ originalSubject: bus.subject(Subjects.mediaIngest), deliveryCount: 3 });
    expect(letter.error).toMatch(/HTTP 503/);
    expect(providerHits.get('/status/503')).toBe(3);
    expect(events.get(flaky.jobId)?.failed).toBeUndefined();
  });

  it('is idempotent under redelivery: the same keys are overwritten', async () => {
    const cmd = await uploadCommand(AwkwardMedia.odd);
    const first = await completed(cmd);
    const keys = ingestKeys(cmd);
    // a constant frame rate stores no frame grid, an MP4 needs no MP4 master, a captioned video no transcription
    const written = Object.values(keys).filter((k): k is string => k !== null && ![keys.frameGridKey, keys.masterKey, keys.transcribedWordsKey].includes(k));
    // every object of the video, by key; the proxy is encoded again (x264 need not give the same bytes twice)
    const listing = async () =>
      (await storage.list(`videos/${cmd.videoId}/`)).map((o) => [o.key, o.key === keys.proxyKey ? 'encoded' : o.sizeBytes] as const).sort(([a], [b]) => a.localeCompare(b));
    const before = await listing();
    expect(before.map(([k]) => k)).toEqual(expect.arrayContaining(written)); // video, vtt, transcript, proxy, waveform, energy
    const message: InboundMessage<MediaIngestCommand> = { data: cmd, subject: Subjects.mediaIngest, deliveryCount: 2, streamSequence: 0, msgId: undefined, working: () => undefined };
    await worker.handle(message);
    // the same keys, nothing added; what is computed (transcript, peaks, energy) is the same bytes' size
    expect(await listing()).toEqual(before);
    expect(events.get(cmd.jobId)?.completed?.playbackKey).toBe(first.event.playbackKey);
  });

  it('rpc.media.probe answers ok:false for text, missing objects and audio-only files; ok:true for video', async () => {
    const ask = (objectKey: string) => bus.request(Subjects.rpcMediaProbe, { objectKey }, rpcMediaProbeReplySchema, 30_000);
    const fakeKey = await put(`rpc/${randomUUID()}/fake.mp4`, AwkwardMedia.fake);
    expect(await ask(fakeKey)).toEqual({ ok: false, code: 'NOT_MP4', message: 'The file is not a video in MP4 or MOV format.' });
    expect(await ask(`rpc/${randomUUID()}/missing.mp4`)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    const audioOnly = join(work, 'audio-only.m4a');
    await tools.runFfmpeg({ timeoutMs: 30_000, args: ['-i', join(media, AwkwardMedia.rotated), '-vn', '-c:a', 'copy', audioOnly] });
    const audioKey = `rpc/${randomUUID()}/audio.m4a`;
    await storage.upload(audioKey, await readFile(audioOnly));
    expect(await ask(audioKey)).toEqual({ ok: false, code: 'NO_VIDEO', message: 'The file has no video track.' });
    const rotated = await ask(await put(`rpc/${randomUUID()}/rotated.mp4`, AwkwardMedia.rotated));
    expect(rotated.ok).toBe(true);
    if (rotated.ok) expect(primaryVideoStream(rotated.result)).toMatchObject({ codecName: 'h264', width: 320, height: 180 });
  });

  it('rpc.media.waveform stores peaks that match the audio, and answers NO_AUDIO / NOT_MEDIA', async () => {
    const ask = (objectKey: string, waveformKey: string) => bus.request(Subjects.rpcMediaWaveform, { objectKey, waveformKey }, rpcMediaWaveformReplySchema, 30_000);
    const videoId = randomUUID();
    const key = await put(`rpc/${videoId}/vfr.mp4`, AwkwardMedia.vfr);
    const waveformKey = StorageKeys.waveform(videoId, 'cut 1.mp4');
    const reply = await ask(key, waveformKey);
    expect(reply).toMatchObject({ ok: true, peakCount: expect.any(Number) });
    if (reply.ok) expect(reply.durationSec).toBeCloseTo(AWKWARD_TOTAL_SEC, 1);
    await expectSpeechWaveform(waveformKey);
    expect(await storage.head(StorageKeys.energy(videoId, 'cut 1.mp4'))).toBeNull();
    // with an energy key, the frame energy from the same decode too
    const energyKey = StorageKeys.energy(videoId, 'cut 2.mp4');
    const both = await bus.request(Subjects.rpcMediaWaveform, { objectKey: key, waveformKey: StorageKeys.waveform(videoId, 'cut 2.mp4'), energyKey }, rpcMediaWaveformReplySchema, 30_000);
    expect(both).toMatchObject({ ok: true });
    await expectSpeechEnergy(energyKey);
    expect(await ask(await put(`rpc/${videoId}/noaudio.mp4`, AwkwardMedia.noAudio), `rpc/${videoId}/x.peaks`)).toEqual({
      ok: false,
      code: 'NO_AUDIO',
      message: 'This video has no audio track.',
    });
    expect(await ask(await put(`rpc/${videoId}/fake.mp4`, AwkwardMedia.fake), `rpc/${videoId}/y.peaks`)).toMatchObject({ ok: false, code: 'NOT_MEDIA' });
    expect(await ask(`rpc/${videoId}/missing.mp4`, `rpc/${videoId}/z.peaks`)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });
});
