import {
  decodeEnergy,
  encodeEnergy,
  ENERGY_FRAMES_PER_SECOND,
  keyMomentsJobWordsSchema,
  mediaKeyMomentsCommandSchema,
  sceneChangesSchema,
  Streams,
  Subjects,
  type JobFailedEvent,
  type KeyMomentsFoundEvent,
  type KeyMomentsJobResult,
  type MediaKeyMomentsCommand,
  type SceneChanges,
  Consumers,
  withDelivery,
} from '@wordcut/contracts';
import { NoAudioError, type IngestMediaTools } from '@wordcut/ffmpeg';
import { findKeyMoments, type EnergyLevels } from '@wordcut/keymoments';
import { PermanentError, type ConsumerDef, type InboundMessage, type Messaging } from '@wordcut/messaging';
import type { Logger } from '@wordcut/platform';
import { readObjectBytes, type ObjectStorage } from '@wordcut/storage';
import { RunningJobs, wasCancelled } from './job-runs';
import { presignFor } from './presign';
import { abortableDelay, JobProgressReporter } from './render.worker';

export interface KeyMomentsWorkerOptions {
  workerId: string;
  concurrency: number;
  ackWaitMs: number;
  maxDeliver: number;
  /** limit of each ffmpeg run (energy, scenes) */
  mediaTimeoutMs: number;
  /** test hook: wait this long (cancellable) before analysing, so tests can cancel mid-job */
  faultDelayMs?: number;
}

export const keyMomentsConsumer = (o: Pick<KeyMomentsWorkerOptions, 'ackWaitMs' | 'maxDeliver'>): ConsumerDef => withDelivery(Consumers.mediaKeyMoments, o);


/**
 * Finds the key moments of a video version (`media.keymoments`, docs/KEYMOMENTS.md): the words the
 * gateway left in storage, the media's frame energy and scene changes (read when stored, else made
 * from the media and stored for the next time), then @wordcut/keymoments. The moments are written
 * at the job's result key and announced to the gateway, which stores them and completes the job.
 * Progress per stage; cancel (`jobs.cancel.<id>`) stops it between stages and kills ffmpeg.
 */
export class KeyMomentsWorker {
  private readonly jobs: RunningJobs;

  constructor(
    private readonly bus: Messaging,
    private readonly storage: ObjectStorage,
    private readonly tools: IngestMediaTools,
    private readonly logger: Logger,
    private readonly options: KeyMomentsWorkerOptions,
  ) {
    this.jobs = new RunningJobs(bus, logger);
  }

  async start(): Promise<void> {
    const consumer = keyMomentsConsumer(this.options);
    await this.bus.provision([Streams.media, Streams.videos, Streams.jobs], [consumer]);
    this.bus.watchMaxDeliveries(consumer);
    this.jobs.listen();
    await this.bus.consume({ consumer, schema: mediaKeyMomentsCommandSchema, concurrency: this.options.concurrency, handler: (m) => this.handle(m) });
  }

  async handle(m: InboundMessage<MediaKeyMomentsCommand>): Promise<void> {
    const cmd = m.data;
    const log = this.logger.child({ jobId: cmd.jobId, videoId: cmd.videoId, attempt: m.deliveryCount });
    if (await this.jobs.cancelledBefore(cmd.jobId)) {
      await this.discardWords(cmd, log);
      log.info('key moments skipped: the job was cancelled');
      return;
    }
    const ac = await this.jobs.begin(cmd.jobId, this.options.workerId, m.deliveryCount);
    const progress = new JobProgressReporter(this.bus, cmd.jobId, log);
    const step = () => {
      if (ac.signal.aborted) throw ac.signal.reason;
      m.working();
    };
    try {
      progress.report(5, 'Reading the transcript');
      if (this.options.faultDelayMs) await abortableDelay(this.options.faultDelayMs, ac.signal);
      const wordsBytes = await readObjectBytes(this.storage, cmd.wordsKey);
      if (!wordsBytes) throw new PermanentError('The transcript of this analysis is no longer available.', 'NOT_FOUND');
      const { words } = keyMomentsJobWordsSchema.parse(JSON.parse(Buffer.from(wordsBytes).toString('utf8')));
      step();
      progress.report(20, 'Listening to the speaker');
      const energy = cmd.hasAudio ? await this.energyOf(cmd, ac.signal) : null;
      step();
      progress.report(50, 'Looking at the picture');
      const scenes = await this.scenesOf(cmd, ac.signal, log);
      step();
      progress.report(80, 'Finding the moments');
      const found = findKeyMoments({ words, energy, scenes });
      step();
      const result: KeyMomentsJobResult = {
        moments: found.map(({ firstWord: _first, lastWord: _last, ...moment }) => moment),
        sceneChanges: scenes?.length ?? null,
        withAudio: energy !== null,
      };
      await this.storage.upload(cmd.resultKey, Buffer.from(JSON.stringify(result)), { contentType: 'application/json' });
      progress.report(95, 'Saving the moments');
      await progress.flush();
      const done: KeyMomentsFoundEvent = {
        jobId: cmd.jobId,
        videoId: cmd.videoId,
        resultKey: cmd.resultKey,
        editVersion: cmd.editVersion,
        transcriptVersion: cmd.transcriptVersion,
        params: cmd.params,
        worker: this.options.workerId,
        at: new Date().toISOString(),
      };
      await this.bus.publish(Subjects.videoKeyMomentsFound, done, { msgId: `${cmd.jobId}:keymoments:found` });
      log.info({ words: words.length, moments: result.moments.length, sceneChanges: result.sceneChanges, withAudio: result.withAudio }, 'key moments found');
    } catch (err) {
      await progress.flush();
      if (wasCancelled(ac)) {
        await this.discardWords(cmd, log);
        log.info('key moments cancelled');
        return;
      }
      const permanent = err instanceof PermanentError;
      if (permanent || m.deliveryCount >= this.options.maxDeliver) {
        const message = err instanceof Error ? err.message : String(err);
        const failed: JobFailedEvent = { jobId: cmd.jobId, error: `Key moments could not be found: ${message.slice(0, 500)}`, code: 'KEYMOMENTS_FAILED', worker: this.options.workerId, at: new Date().toISOString() };
        await this.bus.publish(Subjects.jobFailed, failed, { msgId: `${cmd.jobId}:failed` });
        await this.discardWords(cmd, log);
        log.error({ err }, 'key moments failed for good');
        if (permanent) return;
      } else log.warn({ err }, 'key moments failed, will be retried');
      throw err;
    } finally {
      this.jobs.end(cmd.jobId);
    }
  }

  /** A job that ends without moments leaves no words behind (a completed one's are removed by the gateway). */
  private async discardWords(cmd: MediaKeyMomentsCommand, log: Logger): Promise<void> {
    await this.storage.delete(cmd.wordsKey).catch((err: unknown) => log.warn({ err }, 'could not remove the words of a key moments job'));
  }

  /** The stored frame energy of the media, or made from it (and stored); null without audio or media. */
  private async energyOf(cmd: MediaKeyMomentsCommand, signal: AbortSignal): Promise<EnergyLevels | null> {
    const stored = await readObjectBytes(this.storage, cmd.energyKey);
    if (stored) return decodeEnergy(stored);
    if (!cmd.mediaKey) return null;
    try {
      const url = await presignFor(this.storage, cmd.mediaKey, this.options.mediaTimeoutMs);
      const { durationSec, energy } = await this.tools.computePeaks(url, { peaksPerSecond: 1, timeoutMs: this.options.mediaTimeoutMs, signal });
      const levels = { durationSec, framesPerSecond: ENERGY_FRAMES_PER_SECOND, levels: energy };
      await this.storage.upload(cmd.energyKey, Buffer.from(encodeEnergy(levels)), { contentType: 'application/octet-stream' });
      return levels;
    } catch (err) {
      if (err instanceof NoAudioError) return null;
      throw err;
    }
  }

  /** The stored scene changes of the media, or found (and stored); null without media. */
  private async scenesOf(cmd: MediaKeyMomentsCommand, signal: AbortSignal, log: Logger): Promise<number[] | null> {
    const stored = await readObjectBytes(this.storage, cmd.scenesKey);
    if (stored) return sceneChangesSchema.parse(JSON.parse(Buffer.from(stored).toString('utf8'))).times;
    if (!cmd.mediaKey) return null;
    const url = await presignFor(this.storage, cmd.mediaKey, this.options.mediaTimeoutMs);
    const times = await this.tools.detectSceneChanges(url, { timeoutMs: this.options.mediaTimeoutMs, signal });
    const scenes: SceneChanges = { version: 1, method: 'keyframes', times };
    await this.storage.upload(cmd.scenesKey, Buffer.from(JSON.stringify(scenes)), { contentType: 'application/json' });
    log.debug({ changes: times.length }, 'scene changes stored');
    return times;
  }
}
