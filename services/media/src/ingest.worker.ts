import {
  encodeEnergy,
  encodeWaveform,
  ENERGY_FRAMES_PER_SECOND,
  mediaIngestCommandSchema,
  StorageKeys,
  Streams,
  Subjects,
  WAVEFORM_STORED_PEAKS_PER_SECOND,
  type MediaIngestCommand,
  type VideoIngestCompletedEvent,
  type VideoIngestFailedEvent,
  Consumers,
  withDelivery,
} from '@wordcut/contracts';
import {
  browserPlayback,
  displayDimensions,
  mediaInput,
  NoAudioError,
  primaryAudioStream,
  primaryVideoStream,
  type FfmpegInput,
  type IngestMediaTools,
} from '@wordcut/ffmpeg';
import { encodeFrameGrid } from '@wordcut/edit-list';
import type { ConsumerDef, InboundMessage, Messaging } from '@wordcut/messaging';
import type { Logger } from '@wordcut/platform';
import { ObjectNotFoundError, type ObjectStorage } from '@wordcut/storage';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { classifyIngestError, IngestFailure, IngestMessages, isHostileRefusal } from './ingest-failure';
import { IngestProgressReporter } from './ingest-progress';
import { buildIngestTranscript, type CaptionTexts, type IngestTranscript } from './ingest-transcript';
import type { MediaImporter } from './media-importer';
import { presignFor } from './presign';
import { transcribeForIngest, type IngestTranscription } from './transcription/ingest-transcription';

export interface IngestWorkerOptions {
  workerId: string;
  concurrency: number;
  ackWaitMs: number;
  maxDeliver: number;
  probeTimeoutMs: number;
  transcodeTimeoutMs: number;
  waveformTimeoutMs: number;
  /** where proxies are written before upload (default: the OS temp dir) */
  workDir?: string;
  /**
   * Called with an original's key once the probe found a video in it, while the ingest goes on:
   * the renderer keeps it on this machine for the video's first render (RenderWorker.warm), so
   * a cut posted the moment the ingest completes finds it there. Never fails the ingest.
   */
  onVideoFound?: (originalKey: string) => Promise<void>;
  /** a transcription service: a video that came without captions is transcribed (unset: NO_CAPTIONS) */
  transcription?: IngestTranscription;
}

/** Largest caption file (VTT or word-by-word JSON) imported or read. */
export const CAPTIONS_MAX_BYTES = 50 * 1024 * 1024;

export const ingestConsumer = (o: Pick<IngestWorkerOptions, 'ackWaitMs' | 'maxDeliver'>): ConsumerDef => withDelivery(Consumers.mediaIngest, o);

/** Where an ingest's files are in the bucket (provider files land under the video's original/). */
export interface IngestKeys {
  videoKey: string;
  vttKey: string | null;
  wordByWordKey: string | null;
  transcriptKey: string;
  proxyKey: string;
  /** the MP4 master made when the original is in another container */
  masterKey: string;
  waveformKey: string;
  /** the frame-energy series, made with the peaks */
  energyKey: string;
  /** each frame's start, for a variable frame rate */
  frameGridKey: string;
  /** what a transcription service heard, for a video without captions */
  transcribedWordsKey: string;
}

export function ingestKeys(cmd: MediaIngestCommand): IngestKeys {
  const { videoId, jobId, source } = cmd;
  const common = {
    transcriptKey: StorageKeys.ingestTranscript(videoId, jobId),
    proxyKey: StorageKeys.proxy(videoId, jobId),
    masterKey: StorageKeys.masterVideo(videoId, jobId),
    waveformKey: StorageKeys.waveform(videoId, 'original'),
    energyKey: StorageKeys.energy(videoId, 'original'),
    frameGridKey: StorageKeys.frameGrid(videoId),
    transcribedWordsKey: StorageKeys.transcribedWords(videoId, jobId),
  };
  if (source.kind === 'upload') return { ...common, videoKey: source.videoKey, vttKey: source.vttKey, wordByWordKey: null };
  return {
    ...common,
    videoKey: StorageKeys.originalVideo(videoId, jobId),
    vttKey: source.vttUrl ? StorageKeys.originalVtt(videoId, jobId) : null,
    wordByWordKey: source.wordBywordUrl ? StorageKeys.originalWordByWord(videoId, jobId) : null,
  };
}

/**
 * Progress (0..100) at which each stage starts; a provider import takes the first part, an MP4
 * master the next, a transcription the middle.
 */
function stagePlan(importing: boolean, transcribing: boolean) {
  const plan = importing
    ? { captions: 1, importFrom: 5, importTo: 40, probe: 40, masterFrom: 42, masterTo: 65, proxyFrom: 45, proxyTo: 88, waveform: 90 }
    : { captions: 2, importFrom: 5, importTo: 5, probe: 8, masterFrom: 10, masterTo: 50, proxyFrom: 12, proxyTo: 88, waveform: 90 };
  if (!transcribing) return { ...plan, transcribeTo: plan.probe };
  return importing
    ? { ...plan, masterTo: 50, proxyFrom: 42, transcribeTo: 75, proxyTo: 88 }
    : { ...plan, masterTo: 30, proxyFrom: 12, transcribeTo: 70, proxyTo: 88 };
}

/** ffprobe's name for the Matroska/WebM demuxer. */
const MATROSKA_FORMAT = /(^|,)(matroska|webm)(,|$)/;

const TRANSCRIBING = 'Transcribing speech';

/**
 * Brings a video in (`media.ingest`): imports provider media into the bucket through the SSRF
 * guard, builds the transcript from its captions (word-by-word preferred), probes the video,
 * makes an MP4 master of an MKV or WebM recording (the upload itself is kept as it came), makes a
 * browser proxy when Chromium cannot play the original, stores the waveform, and
 * reports videoIngestProgress then videoIngestCompleted. Failures a retry cannot fix (bad
 * captions, not a video, unsafe URL, 4xx) become videoIngestFailed and are acknowledged; the
 * rest is thrown so JetStream redelivers (and dead-letters after the last delivery). Every
 * key derives from the video and job ids, so a redelivery overwrites the same objects.
 *
 * Captions are read before the video is imported or transcoded: a bad VTT fails in seconds.
 */
export class IngestWorker {
  constructor(
    private readonly bus: Messaging,
    private readonly storage: ObjectStorage,
    private readonly tools: IngestMediaTools,
    private readonly importer: MediaImporter,
    private readonly logger: Logger,
    private readonly options: IngestWorkerOptions,
  ) {}

  async start(): Promise<void> {
    const consumer = ingestConsumer(this.options);
    await this.bus.provision([Streams.media, Streams.videos], [consumer]);
    this.bus.watchMaxDeliveries(consumer);
    await this.bus.consume({ consumer, schema: mediaIngestCommandSchema, concurrency: this.options.concurrency, handler: (m) => this.handle(m) });
  }

  async handle(m: InboundMessage<MediaIngestCommand>): Promise<void> {
    const cmd = m.data;
    const log = this.logger.child({ jobId: cmd.jobId, videoId: cmd.videoId, source: cmd.source.kind, attempt: m.deliveryCount });
    const progress = new IngestProgressReporter(this.bus, cmd, log);
    const work = await mkdtemp(join(this.options.workDir ?? tmpdir(), 'wordcut-ingest-'));
    log.info('ingest started');
    try {
      const completed = await this.ingest(cmd, progress, work);
      await progress.flush();
      await this.bus.publish(Subjects.videoIngestCompleted, completed, { msgId: `${cmd.jobId}:ingest:completed` });
      log.info({ playbackKey: completed.playbackKey, durationSec: completed.durationSec, proxy: completed.playbackKey !== completed.originalKey }, 'ingest completed');
    } catch (err) {
      await progress.flush();
      const failure = classifyIngestError(err);
      if (!failure) {
        log.warn({ err }, 'ingest failed, will be retried');
        throw err;
      }
      await this.discardOutputs(cmd, log);
      const failed: VideoIngestFailedEvent = {
        jobId: cmd.jobId,
        videoId: cmd.videoId,
        error: failure.message,
        code: failure.code,
        worker: this.options.workerId,
        at: new Date().toISOString(),
      };
      await this.bus.publish(Subjects.videoIngestFailed, failed, { msgId: `${cmd.jobId}:ingest:failed` });
      log.warn({ code: failure.code, error: failure.message, cause: (failure.cause as Error | undefined)?.message, ...(isHostileRefusal(failure.code) ? { report: true } : {}) }, 'ingest failed');
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  /**
   * A failed ingest leaves nothing behind but what the video came with: its built transcript,
   * proxy and peaks go, and so do the copies a provider import made (an upload's originals stay,
   * so a retry can run again).
   */
  private async discardOutputs(cmd: MediaIngestCommand, log: Logger): Promise<void> {
    const keys = ingestKeys(cmd);
    const doomed = [keys.transcriptKey, keys.proxyKey, keys.masterKey, keys.waveformKey, keys.energyKey, keys.frameGridKey, keys.transcribedWordsKey];
    if (cmd.source.kind === 'provider') doomed.push(keys.videoKey, ...[keys.vttKey, keys.wordByWordKey].filter((k): k is string => k !== null));
    await Promise.all(doomed.map((k) => this.storage.delete(k))).catch((err: unknown) => log.warn({ err }, 'could not remove the outputs of a failed ingest'));
  }

  private async ingest(cmd: MediaIngestCommand, progress: IngestProgressReporter, work: string): Promise<VideoIngestCompletedEvent> {
    const { source } = cmd;
    const keys = ingestKeys(cmd);
    const uncaptioned = !keys.vttKey && !keys.wordByWordKey;
    if (uncaptioned && !this.options.transcription) throw new IngestFailure('NO_CAPTIONS', IngestMessages.NO_CAPTIONS);
    const plan = stagePlan(source.kind === 'provider', uncaptioned);

    // 1. Captions -> transcript (cheap, and the most common user error); without captions, it is heard after the probe.
    let transcript: IngestTranscript | null = null;
    if (!uncaptioned) transcript = await this.captionsTranscript(cmd, keys, progress, plan.captions);

    // 2. The video into the bucket.
    if (source.kind === 'provider') {
      progress.stage(plan.importFrom, 'Importing video');
      await this.importer.fetchToStorage(source.videoUrl, keys.videoKey, {
        contentType: 'video/mp4',
        onProgress: (loaded, total) => {
          if (total) progress.update(plan.importFrom + ((plan.importTo - plan.importFrom) * Math.min(loaded, total)) / total, 'Importing video');
        },
      });
    }

    // 3. What is it?
    progress.stage(plan.probe, 'Checking video');
    const head = await this.storage.head(keys.videoKey);
    if (!head) throw new IngestFailure('NOT_FOUND', IngestMessages.VIDEO_NOT_FOUND);
    const urlTtl = Math.max(this.options.probeTimeoutMs, this.options.transcodeTimeoutMs, this.options.waveformTimeoutMs);
    const url = await presignFor(this.storage, keys.videoKey, urlTtl);
    let probe = await this.tools.probe(url, { timeoutMs: this.options.probeTimeoutMs });
    let video = primaryVideoStream(probe);
    if (!video) throw new IngestFailure('NO_VIDEO', IngestMessages.NO_VIDEO);
    // MKV or WebM: an MP4 master (streams copied where MP4 takes them) is what everything after reads
    let originalKey = keys.videoKey;
    let localMaster: string | null = null;
    let proxyFrom = plan.proxyFrom;
    if (MATROSKA_FORMAT.test(probe.formatName)) {
      const message = 'Converting the recording to MP4';
      progress.stage(plan.masterFrom, message);
      localMaster = join(work, 'master.mp4');
      await this.tools.makeMaster(mediaInput(url, 'matroska'), probe, localMaster, {
        durationSec: probe.durationSec ?? video.durationSec,
        timeoutMs: this.options.transcodeTimeoutMs,
        onProgress: (p) => {
          if (p.percent !== null) progress.update(plan.masterFrom + ((plan.masterTo - plan.masterFrom) * p.percent) / 100, message);
        },
      });
      await this.storage.upload(keys.masterKey, createReadStream(localMaster), { contentType: 'video/mp4' });
      originalKey = keys.masterKey;
      probe = await this.tools.probe(localMaster, { timeoutMs: this.options.probeTimeoutMs });
      video = primaryVideoStream(probe);
      if (!video) throw new IngestFailure('NO_VIDEO', IngestMessages.NO_VIDEO);
      proxyFrom = plan.masterTo;
    }
    // beside the rest of the ingest: a slow or failed warm-up never holds it up
    if (this.options.onVideoFound) void this.options.onVideoFound(originalKey).catch((err: unknown) => this.logger.warn({ err, videoId: cmd.videoId }, 'could not keep the original for renders'));
    const hasAudio = primaryAudioStream(probe) !== undefined;
    if (!transcript) {
      // an MKV or WebM has its MP4 master here by now
      const media = { input: mediaInput(localMaster ?? url), durationSec: probe.durationSec ?? video.durationSec ?? 0, hasAudio, work };
      transcript = await this.transcribe(cmd, keys, media, progress, [proxyFrom, plan.transcribeTo]);
      proxyFrom = plan.transcribeTo;
    }
    // a variable frame rate: where each frame starts, so edits are cut on the source's own frames
    const grid = await this.tools.frameGrid(localMaster ?? url, { timeoutMs: this.options.probeTimeoutMs });
    if (grid) {
      await this.storage.upload(keys.frameGridKey, Buffer.from(encodeFrameGrid(grid)), { contentType: 'application/octet-stream' });
      video.variableFrameRate = true;
    }

    // 4. A browser proxy when Chromium cannot play the original.
    let playbackKey = originalKey;
    let playbackInput = localMaster ?? url;
    let dims = displayDimensions(video);
    const playback = browserPlayback(probe);
    if (!playback.playable) {
      const message = 'Preparing video for the browser';
      progress.stage(proxyFrom, message);
      const out = join(work, 'proxy.mp4');
      await this.tools.transcodeForBrowser(localMaster ?? url, out, {
        durationSec: probe.durationSec ?? video.durationSec,
        timeoutMs: this.options.transcodeTimeoutMs,
        onProgress: (p) => {
          if (p.percent !== null) progress.update(proxyFrom + ((plan.proxyTo - proxyFrom) * p.percent) / 100, message);
        },
      });
      dims = displayDimensions(primaryVideoStream(await this.tools.probe(out, { timeoutMs: this.options.probeTimeoutMs })));
      await this.storage.upload(keys.proxyKey, createReadStream(out), { contentType: 'video/mp4' });
      playbackKey = keys.proxyKey;
      playbackInput = out;
    }

    // 5. The waveform of what the browser will play, and from the same decode its frame energy (pause detection).
    let waveformKey: string | null = null;
    let audioDurationSec: number | null = null;
    if (hasAudio) {
      progress.stage(plan.waveform, 'Building waveform');
      try {
        const { durationSec, peaks, energy } = await this.tools.computePeaks(playbackInput, {
          peaksPerSecond: WAVEFORM_STORED_PEAKS_PER_SECOND,
          timeoutMs: this.options.waveformTimeoutMs,
        });
        await this.storage.upload(keys.waveformKey, Buffer.from(encodeWaveform(durationSec, peaks)), { contentType: 'application/octet-stream' });
        const levels = { durationSec, framesPerSecond: ENERGY_FRAMES_PER_SECOND, levels: energy };
        await this.storage.upload(keys.energyKey, Buffer.from(encodeEnergy(levels)), { contentType: 'application/octet-stream' });
        waveformKey = keys.waveformKey;
        audioDurationSec = durationSec;
      } catch (err) {
        if (!(err instanceof NoAudioError)) throw err;
      }
    }

    return {
      jobId: cmd.jobId,
      videoId: cmd.videoId,
      originalKey,
      playbackKey,
      transcriptKey: keys.transcriptKey,
      waveformKey,
      probe,
      durationSec: Math.max(0, probe.durationSec ?? video.durationSec ?? audioDurationSec ?? 0),
      width: dims.width,
      height: dims.height,
      // an audio stream ffmpeg cannot find when decoding (NoAudioError) counts as none
      hasAudio: waveformKey !== null,
      sizeBytes: head.sizeBytes,
      languageCode: transcript.languageCode,
      worker: this.options.workerId,
      at: new Date().toISOString(),
    };
  }

  /** The transcript from the captions the video came with (a provider's are imported first); stored. */
  private async captionsTranscript(cmd: MediaIngestCommand, keys: IngestKeys, progress: IngestProgressReporter, at: number): Promise<IngestTranscript> {
    progress.stage(at, 'Reading captions');
    const { source } = cmd;
    if (source.kind === 'provider') {
      if (source.vttUrl && keys.vttKey) await this.importer.fetchToStorage(source.vttUrl, keys.vttKey, { maxBytes: CAPTIONS_MAX_BYTES, contentType: 'text/vtt' });
      if (source.wordBywordUrl && keys.wordByWordKey) {
        await this.importer.fetchToStorage(source.wordBywordUrl, keys.wordByWordKey, { maxBytes: CAPTIONS_MAX_BYTES, contentType: 'application/json' });
      }
    }
    const captions: CaptionTexts = {};
    if (keys.wordByWordKey) captions.wordByWord = await this.readCaptions(keys.wordByWordKey);
    if (keys.vttKey) captions.vtt = await this.readCaptions(keys.vttKey);
    const transcript = buildIngestTranscript(captions, cmd.languageHint);
    await this.storage.upload(keys.transcriptKey, Buffer.from(JSON.stringify(transcript)), { contentType: 'application/json' });
    return transcript;
  }

  /** The transcript of a video without captions, from the transcription service; stored. */
  private async transcribe(
    cmd: MediaIngestCommand,
    keys: IngestKeys,
    media: { input: FfmpegInput; durationSec: number; hasAudio: boolean; work: string },
    progress: IngestProgressReporter,
    [from, to]: [number, number],
  ): Promise<IngestTranscript> {
    progress.stage(from, TRANSCRIBING);
    const transcript = await transcribeForIngest({
      storage: this.storage,
      tools: this.tools,
      transcription: this.options.transcription!,
      input: media.input,
      durationSec: media.durationSec,
      hasAudio: media.hasAudio,
      wordsKey: keys.transcribedWordsKey,
      workDir: media.work,
      ffmpegTimeoutMs: this.options.transcodeTimeoutMs,
      ...(cmd.languageHint ? { languageHint: cmd.languageHint } : {}),
      onProgress: (f) => progress.update(from + (to - from) * f, TRANSCRIBING),
    });
    await this.storage.upload(keys.transcriptKey, Buffer.from(JSON.stringify(transcript)), { contentType: 'application/json' });
    return transcript;
  }

  /** A caption file from the bucket as text (size-limited); missing => IngestFailure. */
  private async readCaptions(key: string): Promise<string> {
    let stream;
    try {
      stream = await this.storage.getStream(key);
    } catch (err) {
      if (err instanceof ObjectNotFoundError) throw new IngestFailure('NOT_FOUND', IngestMessages.CAPTIONS_NOT_FOUND, { cause: err });
      throw err;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > CAPTIONS_MAX_BYTES) {
        stream.body.destroy();
        throw new IngestFailure('CAPTIONS_TOO_LARGE', `The subtitle file is larger than ${CAPTIONS_MAX_BYTES / 1024 / 1024} MB.`);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}
