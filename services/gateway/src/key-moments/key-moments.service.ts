import { randomUUID } from 'node:crypto';
import {
  ErrorCode,
  JOB_ID_PREFIX,
  jobRequestedSubject,
  keyMomentsFoundEventSchema,
  keyMomentsJobResultSchema,
  StorageKeys,
  Streams,
  Subjects,
  type ExportKeyMomentRequest,
  type ExportKeyMomentResponse,
  type JobCompletedEvent,
  type JobRequestedEvent,
  type KeyMoment,
  type KeyMomentsFoundEvent,
  type KeyMomentsJobInput,
  type KeyMomentsPending,
  type KeyMomentsResponse,
  Consumers,
} from '@wordcut/contracts';
import { clampZoom, outputDuration, reframeFromCrop, reframeGeometry, type Reframe } from '@wordcut/edit-list';
import { KEY_MOMENT_RULES_VERSION } from '@wordcut/keymoments';
import type { ConsumerDef, InboundMessage, Messaging } from '@wordcut/messaging';
import { AppError, type Logger } from '@wordcut/platform';
import { readObjectBytes, type ObjectStorage } from '@wordcut/storage';
import { clampWords } from '@wordcut/transcript';
import type { ClipsService } from '../clips/clips.service';
import { currentEditList, type EditService, type EditVideoRow } from '../edits/edits.service';
import type { KeyMomentStore } from './key-moment-store';
import type { KeyMomentsLlm } from './key-moments-llm';
import type { TranscriptStore } from '../transcripts/transcript-store';

export const KEY_MOMENTS_CONSUMER: ConsumerDef = Consumers.gatewayKeyMoments;

/** How often a waiting request looks for the job's moments, and asks for the job's status. */
const POLL_MS = 150;
const STATUS_EVERY_MS = 1000;

/**
 * Key moments (docs/KEYMOMENTS.md). With a language model configured, it is asked first, in the
 * request. Otherwise (and whenever it fails) the analysis runs as a job of the media workers
 * (`keymoments_<uuid>`: progress, cancel, Active Jobs like every job): the words go to storage, the
 * worker reads the media's energy and scene changes and finds the moments, and this service stores
 * them per video edit version and transcript version when the worker announces them. The request
 * that started the job waits for it up to `KEY_MOMENTS_WAIT_MS` and answers the moments; a longer
 * job is answered 202 with its id, and the moments are read with the GET when it completes.
 */
export class KeyMomentsService {
  /** what changes the answer besides the versions: the rules, and the model when one is configured */
  private readonly params: string;
  /** analyses this process started and still waits for, by video and version: a repeat joins the running job */
  private readonly running = new Map<string, string>();

  constructor(
    private readonly bus: Messaging,
    private readonly storage: ObjectStorage,
    private readonly logger: Logger,
    private readonly transcripts: TranscriptStore,
    private readonly edits: EditService,
    private readonly clips: ClipsService,
    private readonly store: KeyMomentStore,
    private readonly llm: KeyMomentsLlm | null = null,
    private readonly waitMs = 20000,
  ) {
    this.params = `rules=${KEY_MOMENT_RULES_VERSION};model=${llm ? llm.model : 'local'}`;
  }

  async start(): Promise<void> {
    await this.bus.provision([Streams.videos], [KEY_MOMENTS_CONSUMER]);
    await this.bus.consume({ consumer: KEY_MOMENTS_CONSUMER, schema: keyMomentsFoundEventSchema, concurrency: 2, handler: (m) => this.onFound(m) });
  }

  /** The moments of the current version of one of `ownerId`'s videos: stored, found now, or (202) still being found. */
  async find(videoId: string, ownerId: string): Promise<KeyMomentsResponse | KeyMomentsPending> {
    const row = await this.edits.editableVideo(videoId, ownerId);
    const stored = await this.store.current(row.id, ownerId, this.params);
    if (stored) return stored;
    const transcript = await this.transcripts.getByVideo(row.id);
    if (!transcript) throw new AppError(409, ErrorCode.Conflict, 'The video has no transcript yet.');
    const duration = outputDuration(currentEditList(row));
    const words = clampWords(transcript.words, duration).map((w) => ({ text: w.text, start: w.start, end: w.end }));
    if (words.length === 0) return { moments: [], analysedAt: new Date().toISOString(), source: 'local' };
    const fromModel = this.llm ? await this.llm.find(words, row.id) : null;
    if (fromModel) {
      const moments: KeyMoment[] = fromModel.map(({ firstWord: _first, lastWord: _last, ...m }) => ({ id: randomUUID(), ...m }));
      this.logger.info({ videoId: row.id, editVersion: row.edit_version, words: words.length, moments: moments.length, source: 'llm' }, 'key moments found');
      if (moments.length === 0) return { moments, analysedAt: new Date().toISOString(), source: 'llm' };
      return this.store.put(row.id, row.edit_version, transcript.version, this.params, moments, 'llm');
    }
    const version = `${row.id}:${row.edit_version}:${transcript.version}`;
    const jobId = this.running.get(version) ?? (await this.requestJob(row, ownerId, transcript.version, words));
    this.running.set(version, jobId);
    try {
      return await this.waitFor(jobId, row.id, ownerId);
    } finally {
      this.running.delete(version);
    }
  }

  /** Starts the analysis job: the words into storage, then the request. */
  private async requestJob(row: EditVideoRow, ownerId: string, transcriptVersion: number, words: Array<{ text: string; start: number; end: number }>): Promise<string> {
    const jobId = `${JOB_ID_PREFIX.keymoments}${randomUUID()}`;
    const wordsKey = StorageKeys.keyMomentsWords(row.id, jobId);
    await this.storage.upload(wordsKey, Buffer.from(JSON.stringify({ words })), { contentType: 'application/json' });
    const mediaKey = row.playback_key ?? row.original_key;
    const input: KeyMomentsJobInput = {
      videoId: row.id,
      userId: ownerId,
      mediaKey,
      hasAudio: row.has_audio !== false,
      energyKey: StorageKeys.energy(row.id, row.media_version),
      scenesKey: StorageKeys.scenes(row.id, row.media_version),
      wordsKey,
      resultKey: StorageKeys.keyMomentsResult(row.id, jobId),
      editVersion: row.edit_version,
      transcriptVersion,
      params: this.params,
      summary: `Find key moments in ${words.length} words`,
    };
    const event: JobRequestedEvent = { jobId, kind: 'keymoments', input, requestedAt: new Date().toISOString() };
    try {
      await this.bus.publish(jobRequestedSubject(jobId), event, { msgId: `${jobId}:requested` });
    } catch (err) {
      await this.storage.delete(wordsKey).catch(() => undefined);
      this.logger.error({ err, jobId }, 'could not publish a key moments job');
      throw new AppError(503, ErrorCode.ServiceUnavailable, 'Key moments cannot be found right now. Please try again.');
    }
    this.logger.info({ jobId, videoId: row.id, words: words.length }, 'key moments job requested');
    return jobId;
  }

  /** The job's moments once stored (or none when it found none), its failure, or 202 after the wait. */
  private async waitFor(jobId: string, videoId: string, ownerId: string): Promise<KeyMomentsResponse | KeyMomentsPending> {
    const until = Date.now() + this.waitMs;
    let nextStatus = Date.now() + STATUS_EVERY_MS;
    for (;;) {
      const stored = await this.store.current(videoId, ownerId, this.params);
      if (stored) return stored;
      if (Date.now() >= nextStatus || Date.now() >= until) {
        nextStatus = Date.now() + STATUS_EVERY_MS;
        const status = await this.edits.jobStatus(jobId).catch(() => null);
        if (status?.status === 'completed') return (await this.store.current(videoId, ownerId, this.params)) ?? { moments: [], analysedAt: new Date().toISOString(), source: 'local' };
        if (status?.status === 'error') throw new AppError(503, ErrorCode.ServiceUnavailable, status.error ?? 'Failed to analyze video');
        if (status?.status === 'cancelled') throw new AppError(409, ErrorCode.Conflict, 'The analysis was cancelled.');
      }
      if (Date.now() >= until) return { jobId, status: 'processing', moments: [] };
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  /** A job's moments: stored for their version (none found: nothing stored), then the job is completed. */
  async onFound(m: InboundMessage<KeyMomentsFoundEvent>): Promise<void> {
    const e = m.data;
    const bytes = await readObjectBytes(this.storage, e.resultKey);
    let count = 0;
    if (bytes && (await this.edits.getVideo(e.videoId))) {
      const result = keyMomentsJobResultSchema.parse(JSON.parse(Buffer.from(bytes).toString('utf8')));
      const moments: KeyMoment[] = result.moments.map((moment) => ({ id: randomUUID(), ...moment }));
      count = moments.length;
      if (count > 0) await this.store.put(e.videoId, e.editVersion, e.transcriptVersion, e.params, moments, 'local');
      this.logger.info({ jobId: e.jobId, videoId: e.videoId, moments: count, sceneChanges: result.sceneChanges, withAudio: result.withAudio }, 'key moments stored');
    }
    await Promise.all([e.resultKey, StorageKeys.keyMomentsWords(e.videoId, e.jobId)].map((key) => this.storage.delete(key).catch(() => undefined)));
    const done: JobCompletedEvent = { jobId: e.jobId, result: { videoId: e.videoId, moments: count }, worker: e.worker, at: new Date().toISOString() };
    await this.bus.publish(Subjects.jobCompleted, done, { msgId: `${e.jobId}:completed` });
  }

  /** The stored moments of the current version of one of `ownerId`'s videos (none: an empty list). */
  async stored(videoId: string, ownerId: string): Promise<KeyMomentsResponse> {
    const row = await this.edits.ownedVideo(videoId, ownerId);
    const stored = await this.store.current(row.id, ownerId, this.params);
    return stored ?? { moments: [], analysedAt: null, source: null };
  }

  /**
   * A moment of one of `ownerId`'s videos becomes a clip of the video, through the clip path, named
   * by its title and framed as asked: the zoom held to 1..2.5 and the pan so the window stays on the
   * frame (the same geometry the preview draws with). The moment must be of the current version.
   */
  async exportMoment(momentId: string, ownerId: string, request: ExportKeyMomentRequest): Promise<ExportKeyMomentResponse> {
    const found = await this.store.owned(momentId, ownerId);
    if (!found) throw new AppError(404, ErrorCode.NotFound, `There is no key moment with id '${momentId}'.`);
    const row = await this.edits.editableVideo(found.videoId, ownerId);
    if (row.edit_version !== found.editVersion) {
      throw new AppError(409, ErrorCode.Conflict, 'The video has changed since this moment was found. Find key moments again.');
    }
    const srcW = row.width ?? 0;
    const srcH = row.height ?? 0;
    if (!(srcW > 0 && srcH > 0)) throw new AppError(409, ErrorCode.Conflict, 'The video has no known picture size yet, so it cannot be reframed.');
    const ratio = request.aspectRatio;
    const asked: Reframe = request.reframe
      ? { ...request.reframe, scale: clampZoom(request.reframe.scale) }
      : request.crop
        ? reframeFromCrop(srcW, srcH, ratio, request.crop)
        : { offsetX: 0, offsetY: 0, scale: 1 };
    const geometry = reframeGeometry(srcW, srcH, ratio, asked);
    const { moment } = found;
    const clip = await this.clips.create(
      { videoId: row.id, name: moment.title.slice(0, 200) || 'Key moment', startTime: moment.startTime, endTime: moment.endTime, aspectRatio: ratio, captions: false, reframe: geometry.reframe },
      ownerId,
    );
    this.logger.info({ videoId: row.id, momentId, clipId: clip.id, ratio, mode: geometry.mode, reframe: geometry.reframe }, 'key moment exported');
    return { ...clip, momentId, mode: geometry.mode, width: geometry.width, height: geometry.height, reframe: geometry.reframe, upscale: geometry.upscale };
  }
}
