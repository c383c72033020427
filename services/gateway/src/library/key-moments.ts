import { randomUUID } from 'node:crypto';
import { decodeEnergy, ErrorCode, rpcMediaScenesReplySchema, sceneChangesSchema, StorageKeys, Subjects, type ExportKeyMomentRequest, type ExportKeyMomentResponse, type KeyMoment, type KeyMomentsResponse, type KeyMomentSource } from '@wordcut/contracts';
import { clampZoom, outputDuration, reframeFromCrop, reframeGeometry, type Reframe } from '@wordcut/edit-list';
import { findKeyMoments, KEY_MOMENT_RULES_VERSION, type EnergyLevels } from '@wordcut/keymoments';
import { AppError } from '@wordcut/platform';
import { readObjectBytes } from '@wordcut/storage';
import { clampWords } from '@wordcut/transcript';
import { createClip } from './clips';
import { currentEditList, type EditService, type EditVideoRow } from './edits';
import type { KeyMomentStore } from './key-moment-store';
import type { KeyMomentsLlm } from './key-moments-llm';
import type { LibraryDeps } from './videos.controller';


/**
 * Key moments (docs/KEYMOMENTS.md): asks the configured language model, if any, else (and whenever
 * it fails) runs the pure analyser of @wordcut/keymoments on the current transcript and the stored
 * frame-energy series of the current media, and keeps the moments per video edit version and
 * transcript version. It runs here, in the request: the local analysis takes well under a second
 * for long talks.
 */
export class KeyMomentsService {
  /** what changes the answer besides the versions: the rules, and the model when one is configured */
  private readonly params: string;

  constructor(
    private readonly library: LibraryDeps,
    private readonly edits: EditService,
    private readonly store: KeyMomentStore,
    private readonly llm: KeyMomentsLlm | null = null,
  ) {
    this.params = `rules=${KEY_MOMENT_RULES_VERSION};model=${llm ? llm.model : 'local'}`;
  }

  /** The moments of the current version of one of `ownerId`'s videos: stored, or found now and stored. */
  async find(videoId: string, ownerId: string): Promise<KeyMomentsResponse> {
    const row = await this.edits.editableVideo(videoId, ownerId);
    const stored = await this.store.current(row.id, ownerId, this.params);
    if (stored) return stored;
    const transcript = await this.library.transcripts.getByVideo(row.id);
    if (!transcript) throw new AppError(409, ErrorCode.Conflict, 'The video has no transcript yet.');
    const duration = outputDuration(currentEditList(row));
    const words = clampWords(transcript.words, duration).map((w) => ({ text: w.text, start: w.start, end: w.end }));
    const t0 = performance.now();
    const fromModel = this.llm && words.length > 0 ? await this.llm.find(words, row.id) : null;
    const source: KeyMomentSource = fromModel ? 'llm' : 'local';
    const [energy, scenes] = fromModel ? [null, null] : await Promise.all([row.has_audio === false ? null : this.energyOf(row), this.scenesOf(row)]);
    const found = fromModel ?? findKeyMoments({ words, energy, scenes });
    const ms = Math.round(performance.now() - t0);
    const moments: KeyMoment[] = found.map(({ firstWord: _first, lastWord: _last, ...m }) => ({ id: randomUUID(), ...m }));
    this.library.logger.info({ videoId: row.id, editVersion: row.edit_version, words: words.length, moments: moments.length, source, withAudio: energy !== null, sceneChanges: scenes?.length ?? null, ms }, 'key moments found');
    if (moments.length === 0) return { moments, analysedAt: new Date().toISOString(), source };
    return this.store.put(row.id, row.edit_version, transcript.version, this.params, moments, source);
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
    const clip = await createClip(
      this.library,
      this.edits,
      { videoId: row.id, name: moment.title.slice(0, 200) || 'Key moment', startTime: moment.startTime, endTime: moment.endTime, aspectRatio: ratio, reframe: geometry.reframe },
      ownerId,
    );
    this.library.logger.info({ videoId: row.id, momentId, clipId: clip.id, ratio, mode: geometry.mode, reframe: geometry.reframe }, 'key moment exported');
    return { ...clip, momentId, mode: geometry.mode, width: geometry.width, height: geometry.height, reframe: geometry.reframe, upscale: geometry.upscale };
  }

  /** The stored frame-energy series of the video's current media, or null (none stored yet: the transcript alone decides). */
  private async energyOf(row: EditVideoRow): Promise<EnergyLevels | null> {
    const bytes = await readObjectBytes(this.library.storage, StorageKeys.energy(row.id, row.media_version));
    return bytes ? decodeEnergy(bytes) : null;
  }

  /**
   * The scene changes of the video's current media: stored, or found now by a media worker and
   * stored. null when they cannot be had (no media, no worker answering): the moments are found
   * without the picture then.
   */
  private async scenesOf(row: EditVideoRow): Promise<number[] | null> {
    const key = StorageKeys.scenes(row.id, row.media_version);
    const read = async () => {
      const bytes = await readObjectBytes(this.library.storage, key);
      return bytes ? sceneChangesSchema.parse(JSON.parse(Buffer.from(bytes).toString('utf8'))).times : null;
    };
    const stored = await read();
    if (stored) return stored;
    const mediaKey = row.playback_key ?? row.original_key;
    if (!mediaKey) return null;
    try {
      const reply = await this.library.bus.request(Subjects.rpcMediaScenes, { objectKey: mediaKey, scenesKey: key }, rpcMediaScenesReplySchema, this.library.config.WAVEFORM_BUILD_TIMEOUT_MS);
      if (!reply.ok) {
        this.library.logger.info({ videoId: row.id, code: reply.code }, 'key moments: no scene changes for this media');
        return null;
      }
      return await read();
    } catch (err) {
      this.library.logger.warn({ err, videoId: row.id }, 'key moments: scene detection did not answer; the picture is left out');
      return null;
    }
  }
}
