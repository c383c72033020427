import {
  decodeWaveform,
  ErrorCode,
  MAX_VTT_BYTES,
  resampleWaveform,
  rpcMediaProbeReplySchema,
  rpcMediaWaveformReplySchema,
  StorageKeys,
  Subjects,
  UPLOAD_VIDEO_FIELD,
  UPLOAD_VTT_FIELD,
  VTT_METHOD_TRANSCRIPTION,
  VTT_METHOD_UPLOAD,
  WAVEFORM_MAX_POINTS,
  type IngestSource,
  type ProbeResult,
  type ProviderSessionResponse,
  type VttStatus,
  type Waveform,
} from '@wordcut/contracts';
import type { Messaging } from '@wordcut/messaging';
import { AppError, type Logger } from '@wordcut/platform';
import { readObjectBytes, type ByteRange, type ObjectStorage, type ObjectStream } from '@wordcut/storage';
import { buildTranscriptFromCaptions, CAPTION_FORMAT_NAMES, detectCaptionFormat, TranscriptBuildError } from '@wordcut/transcript';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DataSource } from 'typeorm';
import type { GatewayTokens } from '../auth/gateway-tokens';
import { limitAddress } from '../auth/client-address';
import type { Identity } from '../auth/identity';
import type { GatewayConfig } from '../config';
import { videoNotFound } from '../http';
import type { ActiveJobs, RateLimitStore } from '../limits/limits';
import { receiveFiles } from '../upload';
import { IngestCoordinator } from './ingest';
import type { NewVideo, VideoRow, VideoStore } from './video-store';

/** Another person's session, said as if it did not exist. */
export const SESSION_NOT_FOUND = 'This session has no video in WordCut.';

/** A video with the stream and subtitles URLs signed for its owner. */
export interface VideoView {
  row: VideoRow;
  streamUrl: string;
  subtitlesUrl: string;
}

/** The current media of a video, as the stream route serves it. */
export interface PlayableMedia {
  videoId: string;
  key: string;
  sizeBytes: number;
  etag: string;
}

/** File name without its extension, for a video's default title. */
function titleFrom(name: string): string {
  return name.replace(/\.[a-z0-9]{1,5}$/i, '') || 'Untitled video';
}

/**
 * Videos of their owner: in by upload or by a provider session, viewed, patched, their failed
 * transcript retried, their waveform built and their media found for the stream.
 * Owner of schema `library` (ADR 0007).
 */
export class VideosService {
  /** The video's words changed (a transcript edit): burned captions are out of date. */
  async wordsChanged(videoId: string): Promise<void> {
    await this.videos.markCaptionsStale(videoId);
  }

  constructor(
    private readonly ds: DataSource,
    private readonly config: GatewayConfig,
    private readonly bus: Messaging,
    private readonly storage: ObjectStorage,
    private readonly logger: Logger,
    private readonly videos: VideoStore,
    private readonly ingest: IngestCoordinator,
    private readonly tokens: GatewayTokens,
    private readonly rateLimits: RateLimitStore,
    private readonly activeJobs: ActiveJobs,
  ) {}

  vttStatus(): VttStatus {
    return { configured: true, method: VTT_METHOD_UPLOAD, legacyUploadEnabled: this.config.LEGACY_UPLOAD_ENABLED, transcription: this.transcription };
  }

  /** A speech-to-text endpoint is set up: a video may come without captions. */
  private get transcription(): boolean {
    return this.config.TRANSCRIPTION_URL !== undefined;
  }

  /** A video of `userId`'s; anyone else's answers 404 like a missing one. */
  async owned(id: string, userId: string): Promise<VideoRow> {
    const row = await this.videos.getOwned(id, userId);
    if (!row) throw videoNotFound(id);
    return row;
  }

  /**
   * An upload (multipart: `video` + `vtt` captions, the captions optional where transcription is
   * set up) read from `body`. Both stream into storage under generated keys; the captions and the
   * video's content (ffprobe by a media worker) are checked before anything is recorded; any
   * refusal removes both objects.
   */
  async upload(body: IncomingMessage, userId: string, clientIp: string | undefined): Promise<VideoRow> {
    if (!this.config.LEGACY_UPLOAD_ENABLED) throw new AppError(403, ErrorCode.Forbidden, 'Uploading is disabled here: open your video from the provider instead.');
    const tooMany = 'You have uploaded too many videos in the last hour. Please try again later.';
    await this.rateLimits.hit(`upload:user:${userId}`, this.config.UPLOADS_PER_HOUR_PER_USER, 3600, tooMany);
    await this.rateLimits.hit(`upload:ip:${limitAddress(clientIp)}`, this.config.UPLOADS_PER_HOUR_PER_IP, 3600, tooMany);
    const videoId = randomUUID();
    const objectId = randomUUID();
    const keys = { video: StorageKeys.originalVideo(videoId, objectId), vtt: StorageKeys.originalVtt(videoId, objectId) };
    const files = await receiveFiles(body, this.storage, {
      [UPLOAD_VIDEO_FIELD]: { key: keys.video, maxBytes: this.config.UPLOAD_MAX_BYTES, label: 'video' },
      [UPLOAD_VTT_FIELD]: { key: keys.vtt, maxBytes: MAX_VTT_BYTES, label: 'subtitle file', optional: this.transcription },
    });
    const discard = () => Promise.all([this.storage.delete(keys.video), this.storage.delete(keys.vtt)]).catch(() => undefined);
    try {
      const captions = files[UPLOAD_VTT_FIELD] ? keys.vtt : null;
      if (captions) await this.checkVtt(captions);
      const probe = await this.probeUpload(keys.video);
      const video = files[UPLOAD_VIDEO_FIELD]!;
      const jobId = IngestCoordinator.newJobId();
      const source = { kind: 'upload' as const, videoKey: keys.video, vttKey: captions };
      const row = await this.createOwned({
        id: videoId,
        ownerId: userId,
        title: titleFrom(video.originalName),
        originalName: video.originalName,
        filename: video.originalName,
        languageCode: this.config.DEFAULT_LANGUAGE,
        ingestJobId: jobId,
        ingestSource: source,
        originalKey: keys.video,
        vttKey: captions,
        ...(captions ? {} : { vttMethod: VTT_METHOD_TRANSCRIPTION }),
        fileSize: video.sizeBytes,
        probe,
      });
      await this.requestIngest(jobId, videoId, source, this.config.DEFAULT_LANGUAGE);
      this.logger.info({ videoId, jobId, sizeBytes: video.sizeBytes }, 'video uploaded');
      return row;
    } catch (err) {
      await discard();
      throw err;
    }
  }

  /**
   * The video of the caller's provider session (its token verified by the identity guard): the
   * first entry creates it and starts importing the media the token names, any later entry with
   * the same session gets the same video. Someone else's session answers 404 like a missing one.
   */
  async openProviderSession(caller: Identity): Promise<ProviderSessionResponse> {
    const claims = caller.provider;
    // a WordCut session cannot open a provider video
    if (!claims) throw new AppError(401, ErrorCode.Unauthorized, 'Authentication required: send the session token from the provider as a bearer token.');
    const existing = await this.videos.getBySession(claims.sessionId, caller.userId);
    if (existing) return { success: true, video: { id: existing.id, title: existing.title }, existing: true };

    const videoUrl = claims.media?.videoUrl;
    if (!videoUrl) throw new AppError(422, ErrorCode.ValidationFailed, 'The session names no video to import (media.videoUrl is missing).');
    const uncaptioned = !claims.media?.vttUrl && !claims.media?.wordBywordUrl;
    if (uncaptioned && !this.transcription) {
      throw new AppError(422, ErrorCode.ValidationFailed, 'The session names no captions to build the transcript from (media.vttUrl or media.wordBywordUrl), and transcription is not set up here.');
    }
    const source: IngestSource = { kind: 'provider', videoUrl, vttUrl: claims.media?.vttUrl, wordBywordUrl: claims.media?.wordBywordUrl };
    const jobId = IngestCoordinator.newJobId();
    const title = claims.title?.trim() || `Video ${claims.videoId}`;
    const opened = await this.createForSession({
      id: randomUUID(),
      title,
      originalName: title,
      filename: `${claims.videoId}.mp4`,
      languageCode: claims.languageCode ?? this.config.DEFAULT_LANGUAGE,
      ingestJobId: jobId,
      ingestSource: source,
      ownerId: caller.userId,
      providerSessionId: claims.sessionId,
      providerVideoId: claims.videoId,
      providerIsClone: claims.isClone ?? false,
      ...(uncaptioned ? { vttMethod: VTT_METHOD_TRANSCRIPTION } : {}),
    });
    if (!opened) throw new AppError(404, ErrorCode.NotFound, SESSION_NOT_FOUND);
    const { video, created } = opened;
    if (created) {
      await this.requestIngest(jobId, video.id, source, claims.languageCode);
      this.logger.info({ videoId: video.id, sessionId: claims.sessionId, jobId }, 'provider session opened');
    }
    return { success: true, video: { id: video.id, title: video.title }, existing: !created };
  }

  /** The video with URLs signed for its owner (a `<video>` element cannot send a bearer header); counts as an access. */
  async view(id: string, userId: string): Promise<VideoView> {
    const row = await this.owned(id, userId);
    await this.videos.touch(row.id);
    const [streamUrl, subtitlesUrl] = await Promise.all([
      this.tokens.signMediaPath(`/api/videos/${row.id}/stream/processed`, userId),
      this.tokens.signMediaPath(`/api/videos/${row.id}/subtitles`, userId),
    ]);
    return { row, streamUrl, subtitlesUrl };
  }

  /** The changed flags (reset on revert) and the title. */
  async patch(id: string, userId: string, p: { vttChanged?: false; wordBywordChanged?: false; title?: string }): Promise<VideoRow> {
    await this.owned(id, userId);
    const row = await this.videos.patch(id, p);
    if (!row) throw videoNotFound(id);
    return row;
  }

  /** Retries a failed transcript build with the same inputs. */
  async retryTranscript(id: string, userId: string): Promise<VideoRow> {
    const row = await this.owned(id, userId);
    if (row.status !== 'failed') {
      throw new AppError(409, ErrorCode.Conflict, row.status === 'completed' ? 'This video already has its transcript.' : 'The transcript is already being built.');
    }
    if (!row.ingest_source) throw new AppError(409, ErrorCode.Conflict, 'This video has nothing to build a transcript from. Upload it again.');
    const jobId = IngestCoordinator.newJobId();
    if (!(await this.videos.startIngest(row.id, jobId, row.ingest_source))) throw new AppError(409, ErrorCode.Conflict, 'The transcript is already being built.');
    await this.ingest.request(jobId, row.id, row.ingest_source, row.language_code);
    return (await this.videos.get(row.id))!;
  }

  /** Stored peaks of the current media resampled to `points`; built by a media worker the first time. */
  async waveform(id: string, userId: string, points: number): Promise<Waveform> {
    const row = await this.owned(id, userId);
    if (!Number.isInteger(points) || points < 1 || points > WAVEFORM_MAX_POINTS) {
      throw new AppError(400, ErrorCode.ValidationFailed, `points must be a whole number from 1 to ${WAVEFORM_MAX_POINTS}.`);
    }
    if (row.status !== 'completed') throw new AppError(409, ErrorCode.Conflict, 'The waveform is not ready yet: the video is still being processed.');
    if (row.has_audio === false) throw new AppError(422, 'NO_AUDIO', 'This video has no audio track, so it has no waveform.');
    const key = row.waveform_key ?? StorageKeys.waveform(row.id, row.media_version);
    const mediaKey = row.playback_key ?? row.original_key;
    let cached = true;
    let bytes = await readObjectBytes(this.storage, key);
    if (!bytes) {
      if (!mediaKey) throw new AppError(409, ErrorCode.Conflict, 'The video has no media yet.');
      cached = false;
      const reply = await this.bus
        .request(
          Subjects.rpcMediaWaveform,
          // the frame energy for pause detection comes from the same decode
          { objectKey: mediaKey, waveformKey: key, energyKey: StorageKeys.energy(row.id, row.media_version) },
          rpcMediaWaveformReplySchema,
          this.config.WAVEFORM_BUILD_TIMEOUT_MS,
        )
        .catch((err: unknown) => {
          this.logger.error({ err, videoId: row.id }, 'waveform build request failed');
          throw new AppError(503, ErrorCode.ServiceUnavailable, 'The waveform cannot be built right now. Please try again.');
        });
      if (!reply.ok) throw new AppError(422, reply.code, reply.message);
      await this.videos.setWaveformKey(row.id, row.media_version, key);
      bytes = await readObjectBytes(this.storage, key);
      if (!bytes) throw new AppError(503, ErrorCode.ServiceUnavailable, 'The waveform cannot be read right now. Please try again.');
    }
    const { durationSec, peaks } = decodeWaveform(bytes);
    return { peaks: resampleWaveform(peaks, points), duration: durationSec, cached };
  }

  /** The current media (processed render, else the browser-playable copy of the original): its key, size and ETag. */
  async playableMedia(id: string, userId: string): Promise<PlayableMedia> {
    const row = await this.owned(id, userId);
    const key = row.playback_key ?? (row.status === 'completed' ? row.original_key : null);
    if (!key) throw new AppError(409, ErrorCode.Conflict, 'The video is not ready to play yet.');
    const head = await this.storage.head(key);
    if (!head) throw new AppError(404, ErrorCode.NotFound, 'The media of this video is missing.');
    return { videoId: row.id, key, sizeBytes: head.sizeBytes, etag: head.etag ?? `"${row.media_version}-${head.sizeBytes}"` };
  }

  /** Reads the media `playableMedia` named, whole or one byte range of it. */
  openMedia(media: PlayableMedia, range?: ByteRange): Promise<ObjectStream> {
    return range ? this.storage.getStream(media.key, range) : this.storage.getStream(media.key);
  }

  /** Creates a video whose ingest starts now, when its owner has room for one more running job (else 429). */
  private async createOwned(v: NewVideo & { ownerId: string }): Promise<VideoRow> {
    return this.ds.transaction(async (tx) => {
      await this.activeJobs.reserve(tx, v.ownerId);
      return this.videos.create(v, tx);
    });
  }

  /**
   * Creates the video of a provider session, or returns the one that session already has
   * (two concurrent entries with one session make one video: the unique index decides). Null
   * when the session's video belongs to someone else.
   */
  private async createForSession(v: NewVideo & { providerSessionId: string; ownerId: string }): Promise<{ video: VideoRow; created: boolean } | null> {
    const existing = await this.videos.sessionVideo(v.providerSessionId, v.ownerId);
    if (existing !== undefined) return existing && { video: existing, created: false };
    try {
      return { video: await this.createOwned(v), created: true };
    } catch (err) {
      // the other entry inserted first: answer its video
      if ((err as { code?: string }).code === '23505') {
        const video = await this.videos.sessionVideo(v.providerSessionId, v.ownerId);
        if (video !== undefined) return video && { video, created: false };
      }
      throw err;
    }
  }

  /** Asks for the ingest of a just-created video; a video whose ingest cannot be asked for is removed. */
  private async requestIngest(jobId: string, videoId: string, source: IngestSource, languageCode: string | undefined): Promise<void> {
    try {
      await this.ingest.request(jobId, videoId, source, languageCode);
    } catch (err) {
      await this.videos.delete(videoId).catch(() => undefined);
      throw err;
    }
  }

  /**
   * The caption file becomes a transcript before anything is recorded: not a caption format we
   * read (WebVTT, SubRip, Whisper/WhisperX or word JSON, told apart by content), no usable cue, or
   * more words than a transcript may hold answer 422 with the reason.
   */
  private async checkVtt(key: string): Promise<void> {
    const text = Buffer.from((await readObjectBytes(this.storage, key)) ?? new Uint8Array()).toString('utf8');
    if (!detectCaptionFormat(text)) {
      throw new AppError(
        422,
        'VTT_INVALID',
        `The subtitle file is not one we can read: it must be ${CAPTION_FORMAT_NAMES}. A WebVTT file must start with 'WEBVTT'. Ensure the VTT file has proper WEBVTT format with valid timestamps.`,
      );
    }
    try {
      buildTranscriptFromCaptions(text);
    } catch (err) {
      if (err instanceof TranscriptBuildError) throw new AppError(422, err.code, err.message, { line: err.line });
      throw err;
    }
  }

  /** ffprobe by a media worker: the declared type is never trusted. */
  private async probeUpload(key: string): Promise<ProbeResult> {
    const reply = await this.bus
      .request(Subjects.rpcMediaProbe, { objectKey: key }, rpcMediaProbeReplySchema, this.config.UPLOAD_PROBE_TIMEOUT_MS)
      .catch((err: unknown) => {
        this.logger.error({ err, key }, 'upload probe request failed');
        throw new AppError(503, ErrorCode.ServiceUnavailable, 'The video cannot be checked right now. Please try again in a moment.');
      });
    if (!reply.ok) throw new AppError(415, ErrorCode.UnsupportedMedia, reply.message, { reason: reply.code });
    if (!reply.result.streams.some((s) => s.codecType === 'video')) {
      throw new AppError(415, ErrorCode.UnsupportedMedia, 'The file has no video track. Please select an MP4 video file.', { reason: 'NO_VIDEO' });
    }
    return reply.result;
  }
}
