import {
  mediaRenderCommandSchema,
  Streams,
  Subjects,
  type JobFailedEvent,
  type JobProgressEvent,
  type MediaRenderCommand,
  type RenderSummary,
  type VideoRenderCompletedEvent,
  Consumers,
  withDelivery,
} from '@wordcut/contracts';
import { DEFAULT_CAPTION_LOOK, buildAssScript, buildCaptionCues, machineCpus, MediaProbeError, planReframe, renderEdit, type DiskCache, type RenderMediaInfo } from '@wordcut/ffmpeg';
import { PermanentError, type ConsumerDef, type InboundMessage, type Messaging } from '@wordcut/messaging';
import type { Logger } from '@wordcut/platform';
import { ObjectNotFoundError, type ObjectStorage, type UploadResult } from '@wordcut/storage';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isHostileRefusal } from './ingest-failure';
import { RunningJobs, wasCancelled } from './job-runs';
import { RenderSources } from './render-sources';

export interface RenderWorkerOptions {
  workerId: string;
  concurrency: number;
  ackWaitMs: number;
  maxDeliver: number;
  /** per-ffmpeg limit */
  renderTimeoutMs: number;
  /** where sources and pieces are written (default: the OS temp dir) */
  workDir?: string;
  /** CPUs per render (default: the machine's, shared by the renders one process runs at once) */
  pieceConcurrency?: number;
  /** test hook: wait this long (cancellable) before rendering, so tests can kill or cancel mid-job */
  faultDelayMs?: number;
  /** originals, their media info and rendered pieces kept for the next render (none: no reuse) */
  cache?: DiskCache | null;
}

export const renderConsumer = (o: Pick<RenderWorkerOptions, 'ackWaitMs' | 'maxDeliver'>): ConsumerDef => withDelivery(Consumers.mediaRender, o);

/** Progress (0..100) of the stages of a render job; the gateway's update of the transcript is the last step. */
const STAGES = { download: 2, renderFrom: 8, renderTo: 88, upload: 90, done: 97 } as const;


/**
 * Renders versions of videos and clips (`media.render`, a JetStream work queue shared by every
 * media worker process: start more processes to render more at once). For each job it downloads
 * the original, renders the edit (libs/ffmpeg renderEdit: smart render when the source allows),
 * uploads the result under a key derived from the job id (a redelivered job overwrites, never
 * duplicates), and publishes videoRenderCompleted for the gateway, which applies it and
 * completes the job. Progress comes from ffmpeg; in-progress acks keep a live job from being
 * redelivered. Cancel (`jobs.cancel.<id>`) kills ffmpeg and removes partial outputs. A failure
 * on the last delivery is reported as the job's error before the message is dead-lettered.
 */
export class RenderWorker {
  private readonly jobs: RunningJobs;
  private readonly sources: RenderSources;

  constructor(
    private readonly bus: Messaging,
    private readonly storage: ObjectStorage,
    private readonly logger: Logger,
    private readonly options: RenderWorkerOptions,
  ) {
    this.jobs = new RunningJobs(bus, logger);
    this.sources = new RenderSources(storage, options.cache ?? null);
  }

  /**
   * Keeps an original and its media info in the local cache ahead of its first render (ingest
   * calls it): that render then downloads and probes nothing. A no-op without a cache.
   */
  async warm(key: string): Promise<void> {
    if (!this.options.cache) return;
    const work = await mkdtemp(join(this.options.workDir ?? tmpdir(), 'wordcut-warm-'));
    try {
      await this.sources.fetch(key, work, new AbortController().signal);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  async start(): Promise<void> {
    const consumer = renderConsumer(this.options);
    await this.bus.provision([Streams.media, Streams.videos, Streams.jobs], [consumer]);
    this.bus.watchMaxDeliveries(consumer);
    this.jobs.listen();
    await this.bus.consume({ consumer, schema: mediaRenderCommandSchema, concurrency: this.options.concurrency, handler: (m) => this.handle(m) });
  }

  /** Jobs currently rendering in this process. */
  get activeJobs(): string[] {
    return this.jobs.ids;
  }

  async handle(m: InboundMessage<MediaRenderCommand>): Promise<void> {
    const cmd = m.data;
    const log = this.logger.child({ jobId: cmd.jobId, videoId: cmd.videoId, kind: cmd.kind, attempt: m.deliveryCount });
    if (await this.jobs.cancelledBefore(cmd.jobId)) {
      log.info('render skipped: the job was cancelled');
      return;
    }
    const ac = await this.jobs.begin(cmd.jobId, this.options.workerId, m.deliveryCount);
    const progress = new JobProgressReporter(this.bus, cmd.jobId, log);
    const work = await mkdtemp(join(this.options.workDir ?? tmpdir(), 'wordcut-render-'));
    let uploaded = false;
    try {
      progress.report(STAGES.download, 'Downloading original');
      if (this.options.faultDelayMs) await abortableDelay(this.options.faultDelayMs, ac.signal);
      const t0 = Date.now();
      const { path: source, sourceId, info, cached } = await this.sources.fetch(cmd.inputKey, work, ac.signal);
      const fetchMs = Date.now() - t0;
      const output = join(work, 'output.mp4');
      const { videoFilter, assScript } = this.renderOptions(cmd, info);
      // A full re-encode goes to storage while ffmpeg writes it (minutes); a smart render writes
      // its file in one quick pass, then goes up in one PUT (cheaper for the store than parts).
      const written = deferred();
      let uploading: Promise<UploadResult> | null = null;
      const rendering = renderEdit({
        input: source,
        output,
        workDir: work,
        info,
        segments: cmd.segments,
        volumes: cmd.volumes,
        videoFilter,
        assScript,
        signal: ac.signal,
        timeoutMs: this.options.renderTimeoutMs,
        // each render at once gets its share of the machine's CPUs
        concurrency: this.options.pieceConcurrency ?? Math.max(1, Math.floor(machineCpus() / this.options.concurrency)),
        cache: this.options.cache ? { store: this.options.cache, sourceId } : undefined,
        // a full re-encode writes front to back with its index last: it goes to storage while it is written
        faststart: false,
        onPath: (path) => {
          if (path !== 'reencode') return;
          uploading = this.storage.uploadGrowingFile(cmd.outputKey, output, { finished: written.promise, contentType: 'video/mp4', signal: ac.signal });
          uploading.catch(() => undefined);
        },
        onProgress: (p, stage) => progress.report(STAGES.renderFrom + ((STAGES.renderTo - STAGES.renderFrom) * p) / 100, stage === 'Done' ? 'Rendering' : stage),
      });
      rendering.then(written.resolve, written.reject);
      const result = await rendering;
      m.working();
      progress.report(STAGES.upload, 'Saving video');
      const t1 = Date.now();
      const { sizeBytes } = await (uploading ?? this.storage.uploadFile(cmd.outputKey, output, { contentType: 'video/mp4', signal: ac.signal }));
      const uploadWaitMs = Date.now() - t1;
      uploaded = true;
      if (ac.signal.aborted) throw ac.signal.reason;
      progress.report(STAGES.done, cmd.kind === 'clip' ? 'Finishing clip' : 'Updating transcript');
      await progress.flush();
      const summary: RenderSummary = {
        path: result.path,
        fallbackReason: result.fallbackReason,
        audio: result.audio,
        audioFallbackReason: result.audioFallbackReason,
        ...(result.audioSplice ? { audioSplice: result.audioSplice } : {}),
        encodedShare: result.encodedShare,
        outputDurationSec: result.outputDurationSec,
        sizeBytes,
        renderMs: result.durationMs,
        fetchMs,
        uploadWaitMs,
        ...(result.pieces ? { pieces: result.pieces } : {}),
        sourceCached: cached,
      };
      const done: VideoRenderCompletedEvent = {
        jobId: cmd.jobId,
        videoId: cmd.videoId,
        kind: cmd.kind,
        outputKey: cmd.outputKey,
        summary,
        worker: this.options.workerId,
        at: new Date().toISOString(),
      };
      await this.bus.publish(Subjects.videoRenderCompleted, done, { msgId: `${cmd.jobId}:render:completed` });
      log.info(
        {
          path: result.path,
          fallbackReason: result.fallbackReason,
          encodedShare: result.encodedShare,
          fetchMs,
          renderMs: result.durationMs,
          uploadWaitMs,
          sourceCached: cached,
          pieces: result.pieces,
        },
        'render completed',
      );
    } catch (err) {
      await progress.flush();
      if (wasCancelled(ac)) {
        if (uploaded) await this.storage.delete(cmd.outputKey).catch((e: unknown) => log.warn({ err: e }, 'could not remove the output of a cancelled render'));
        log.info('render cancelled; partial outputs removed');
        return;
      }
      // An original refused by its media check (ADR 0012) stays refused on a retry.
      const permanent = err instanceof PermanentError || err instanceof ObjectNotFoundError || (err instanceof MediaProbeError && err.code !== 'UNREADABLE');
      if (permanent || m.deliveryCount >= this.options.maxDeliver) {
        const failed: JobFailedEvent = {
          jobId: cmd.jobId,
          error: failureMessage(err),
          code: err instanceof ObjectNotFoundError ? 'NOT_FOUND' : 'RENDER_FAILED',
          worker: this.options.workerId,
          at: new Date().toISOString(),
        };
        await this.bus.publish(Subjects.jobFailed, failed, { msgId: `${cmd.jobId}:failed` });
        if (err instanceof MediaProbeError && isHostileRefusal(err.code)) log.warn({ err, report: true }, 'render refused: the original is outside the reader\'s bounds');
        else log.error({ err }, 'render failed for good');
        if (permanent) return;
      } else log.warn({ err }, 'render failed, will be retried');
      throw err;
    } finally {
      this.jobs.end(cmd.jobId);
      await rm(work, { recursive: true, force: true });
    }
  }

  /** The reframe filter and caption script of a job, sized for its output frame. */
  private renderOptions(cmd: MediaRenderCommand, info: RenderMediaInfo): { videoFilter: string | null; assScript: string | null } {
    const v = info.video;
    if (!v) throw new PermanentError('The video has no picture to render.', 'NO_VIDEO');
    const upright = v.rotation === 90 || v.rotation === 270;
    const srcW = upright ? v.height : v.width;
    const srcH = upright ? v.width : v.height;
    const plan = cmd.reframe ? planReframe(srcW, srcH, cmd.reframe.aspectRatio, cmd.reframe) : null;
    // Original keeps the native frame unless zoomed or panned
    const reframe = plan && plan.mode !== 'original' ? plan : null;
    const width = reframe?.width ?? srcW;
    const height = reframe?.height ?? srcH;
    const assScript = cmd.captions && cmd.captions.length > 0 ? buildAssScript(buildCaptionCues(cmd.captions), width, height, undefined, cmd.captionStyle ?? DEFAULT_CAPTION_LOOK) : null;
    return { videoFilter: reframe?.filter ?? null, assScript };
  }
}

export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    }, { once: true });
  });
}

function failureMessage(err: unknown): string {
  if (err instanceof ObjectNotFoundError) return 'The original video is no longer available.';
  const msg = err instanceof Error ? err.message : String(err);
  return `Rendering failed: ${msg.slice(0, 500)}`;
}

/** Publishes jobs.events.progress at most once a second (and on every new stage), with an ETA from the rate so far. */
export class JobProgressReporter {
  private readonly startedAt = Date.now();
  private last = -1;
  private lastAt = 0;
  private lastMessage = '';
  private n = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly bus: Messaging,
    private readonly jobId: string,
    private readonly logger: Logger,
  ) {}

  report(progress: number, message: string): void {
    const value = Math.round(Math.min(100, Math.max(0, progress, this.last)) * 10) / 10;
    const now = Date.now();
    if (message === this.lastMessage && (Math.floor(value) <= Math.floor(this.last) || now - this.lastAt < 1000)) return;
    this.last = value;
    this.lastAt = now;
    this.lastMessage = message;
    const elapsed = (now - this.startedAt) / 1000;
    const eta = value >= 5 && value < 100 ? Math.round((elapsed * (100 - value)) / value) : null;
    const n = ++this.n;
    const event: JobProgressEvent = { jobId: this.jobId, progress: value, message, estimatedTimeRemaining: eta, at: new Date().toISOString() };
    this.queue = this.queue.then(() =>
      this.bus.publish(Subjects.jobProgress, event, { msgId: `${this.jobId}:progress:${n}:${now}` }).then(
        () => undefined,
        (err: unknown) => this.logger.warn({ err }, 'could not publish job progress'),
      ),
    );
  }

  flush(): Promise<void> {
    return this.queue;
  }
}

/** A promise with its settle functions (its rejection is handled where it is awaited). */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
