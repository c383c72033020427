import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import {
  decodeWaveform,
  ErrorCode,
  MAX_VTT_BYTES,
  resampleWaveform,
  rpcMediaProbeReplySchema,
  rpcMediaWaveformReplySchema,
  StorageKeys,
  Subjects,
  transcriptPatchSchema,
  UPLOAD_VIDEO_FIELD,
  UPLOAD_VTT_FIELD,
  videoPatchSchema,
  VTT_METHOD_UPLOAD,
  WAVEFORM_DEFAULT_POINTS,
  WAVEFORM_MAX_POINTS,
  type ProbeResult,
  type Transcript,
  type Video,
  type VttStatus,
  type Waveform,
} from '@wordcut/contracts';
import type { Messaging } from '@wordcut/messaging';
import { AppError, type Logger } from '@wordcut/platform';
import { readObjectBytes, type ObjectStorage } from '@wordcut/storage';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { buildTranscriptFromVtt, clampWords, TranscriptBuildError, wordsToVtt } from '@wordcut/transcript';
import { GatewayTokens } from '../auth/gateway-tokens';
import { limitAddress } from '../auth/client-address';
import { Caller, Public, SignedMedia, type Identity } from '../auth/identity';
import { ActiveJobs, RateLimitStore } from '../limits/limits';
import type { GatewayConfig } from '../config';
import { GATEWAY_CONFIG, LOGGER, MESSAGING, OBJECT_STORAGE } from '../injection';
import { invalidBody, parseId } from '../http';
import { receiveFiles } from '../upload';
import { decideRange, etagMatches } from './http-range';
import { IngestCoordinator } from './ingest';
import { TranscriptStore, type TranscriptPatchSummary } from '../transcripts/transcript-store';
import { toApiVideo } from './video-api';
import { VideoStore, type VideoRow } from './video-store';


/** File name without its extension, for a video's default title. */
function titleFrom(name: string): string {
  return name.replace(/\.[a-z0-9]{1,5}$/i, '') || 'Untitled video';
}

/**
 * Videos in (upload), their lifecycle, transcript, waveform and media stream
 * Owner of schema `library` (ADR 0007).
 */
@Controller('api')
export class VideosController {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(MESSAGING) private readonly bus: Messaging,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(VideoStore) private readonly videos: VideoStore,
    @Inject(TranscriptStore) private readonly transcripts: TranscriptStore,
    @Inject(IngestCoordinator) private readonly ingest: IngestCoordinator,
    @Inject(GatewayTokens) private readonly tokens: GatewayTokens,
    @Inject(RateLimitStore) private readonly rateLimits: RateLimitStore,
    @Inject(ActiveJobs) private readonly activeJobs: ActiveJobs,
  ) {}

  /** Public: the upload page asks before anyone has a session. */
  @Public()
  @Get('vtt/status')
  vttStatus(): VttStatus {
    return { configured: true, method: VTT_METHOD_UPLOAD, legacyUploadEnabled: this.config.LEGACY_UPLOAD_ENABLED };
  }

  /**
   * POST /api/videos/upload (multipart: `video` MP4 + `vtt` WebVTT). Both stream into storage
   * under generated keys; the VTT's signature and the video's content (ffprobe by a media worker)
   * are checked before anything is recorded; any refusal removes both objects.
   */
  @Post('videos/upload')
  @HttpCode(201)
  async upload(@Req() req: Request, @Res({ passthrough: true }) res: Response, @Caller() caller: Identity): Promise<Video> {
    if (!this.config.LEGACY_UPLOAD_ENABLED) throw new AppError(403, ErrorCode.Forbidden, 'Uploading is disabled here: open your video from the provider instead.');
    const tooMany = 'You have uploaded too many videos in the last hour. Please try again later.';
    await this.rateLimits.hit(`upload:user:${caller.userId}`, this.config.UPLOADS_PER_HOUR_PER_USER, 3600, tooMany);
    await this.rateLimits.hit(`upload:ip:${limitAddress(req.ip)}`, this.config.UPLOADS_PER_HOUR_PER_IP, 3600, tooMany);
    const videoId = randomUUID();
    const objectId = randomUUID();
    const keys = { video: StorageKeys.originalVideo(videoId, objectId), vtt: StorageKeys.originalVtt(videoId, objectId) };
    const files = await receiveFiles(req, this.storage, {
      [UPLOAD_VIDEO_FIELD]: { key: keys.video, maxBytes: this.config.UPLOAD_MAX_BYTES, label: 'video' },
      [UPLOAD_VTT_FIELD]: { key: keys.vtt, maxBytes: MAX_VTT_BYTES, label: 'subtitle file' },
    }).catch((err: unknown) => {
      // the client may still be sending a huge body: close rather than read it all
      if (err instanceof AppError && err.statusCode === 413) res.setHeader('Connection', 'close');
      throw err;
    });
    const discard = () => Promise.all([this.storage.delete(keys.video), this.storage.delete(keys.vtt)]).catch(() => undefined);
    try {
      await this.checkVtt(keys.vtt);
      const probe = await this.probeUpload(keys.video);
      const video = files[UPLOAD_VIDEO_FIELD]!;
      const jobId = IngestCoordinator.newJobId();
      const source = { kind: 'upload' as const, videoKey: keys.video, vttKey: keys.vtt };
      const row = await this.videos.createOwned({
        id: videoId,
        ownerId: caller.userId,
        title: titleFrom(video.originalName),
        originalName: video.originalName,
        filename: video.originalName,
        languageCode: this.config.DEFAULT_LANGUAGE,
        ingestJobId: jobId,
        ingestSource: source,
        originalKey: keys.video,
        vttKey: keys.vtt,
        fileSize: video.sizeBytes,
        probe,
      }, this.activeJobs);
      try {
        await this.ingest.request(jobId, videoId, source, this.config.DEFAULT_LANGUAGE);
      } catch (err) {
        await this.videos.delete(videoId).catch(() => undefined);
        throw err;
      }
      this.logger.info({ videoId, jobId, sizeBytes: video.sizeBytes }, 'video uploaded');
      res.setHeader('Location', `/api/videos/${videoId}`);
      return toApiVideo(row);
    } catch (err) {
      await discard();
      throw err;
    }
  }

  /** The video, with a stream URL signed for its owner (a `<video>` element cannot send a bearer header). */
  @Get('videos/:id')
  async get(@Param('id') id: string, @Caller() caller: Identity): Promise<Video> {
    const row = await this.row(id, caller);
    await this.videos.touch(row.id);
    const [stream, subtitles] = await Promise.all([
      this.tokens.signMediaPath(`/api/videos/${row.id}/stream/processed`, caller.userId),
      this.tokens.signMediaPath(`/api/videos/${row.id}/subtitles`, caller.userId),
    ]);
    return { ...toApiVideo(row), streamUrl: stream, subtitlesUrl: subtitles };
  }

  /**
   * GET /api/videos/{id}/subtitles?v= : the current transcript as WebVTT, on the current media's
   * timeline, for the player's captions track (signed like the stream; `v` only busts caches).
   */
  @Get('videos/:id/subtitles')
  @SignedMedia()
  async subtitles(@Param('id') id: string, @Res() res: Response, @Caller() caller: Identity): Promise<void> {
    const row = await this.row(id, caller);
    const transcript = await this.transcripts.getByVideo(row.id);
    if (!transcript) throw new AppError(404, ErrorCode.NotFound, 'This video has no subtitles yet.');
    const words = row.duration ? clampWords(transcript.words, row.duration) : transcript.words;
    res.setHeader('Content-Type', 'text/vtt; charset=utf-8');
    // word edits change the text without a new media version: always revalidate
    res.setHeader('Cache-Control', 'private, no-cache');
    res.status(200).send(wordsToVtt(words, { languageCode: transcript.languageCode }));
  }

  @Patch('videos/:id')
  async patch(@Param('id') id: string, @Body() body: unknown, @Caller() caller: Identity): Promise<Video> {
    const p = videoPatchSchema.safeParse(body ?? {});
    if (!p.success) throw new AppError(400, ErrorCode.ValidationFailed, p.error.issues.map((i) => i.message).join('; '));
    await this.row(id, caller);
    const row = await this.videos.patch(parseId(id), p.data);
    if (!row) throw new AppError(404, ErrorCode.NotFound, `There is no video with id '${id}'.`);
    return toApiVideo(row);
  }

  /** Retries a failed transcript build with the same inputs. */
  @Post('videos/:id/transcribe')
  @HttpCode(202)
  async transcribe(@Param('id') id: string, @Caller() caller: Identity): Promise<Video> {
    const row = await this.row(id, caller);
    if (row.status !== 'failed') {
      throw new AppError(409, ErrorCode.Conflict, row.status === 'completed' ? 'This video already has its transcript.' : 'The transcript is already being built.');
    }
    if (!row.ingest_source) throw new AppError(409, ErrorCode.Conflict, 'This video has nothing to build a transcript from. Upload it again.');
    const jobId = IngestCoordinator.newJobId();
    if (!(await this.videos.startIngest(row.id, jobId, row.ingest_source))) throw new AppError(409, ErrorCode.Conflict, 'The transcript is already being built.');
    await this.ingest.request(jobId, row.id, row.ingest_source, row.language_code);
    return toApiVideo((await this.videos.get(row.id))!);
  }

  /** GET the transcript: sent as the serialised answer the store keeps per version. */
  @Get('videos/:id/transcript')
  async transcript(@Param('id') id: string, @Caller() caller: Identity, @Res({ passthrough: true }) res: Response): Promise<string> {
    const row = await this.row(id, caller);
    const t = await this.transcripts.getJsonByVideo(row.id);
    if (t === null) {
      if (row.status === 'failed') throw new AppError(404, ErrorCode.NotFound, `This video has no transcript: ${row.vtt_error ?? 'its transcript could not be built.'}`);
      throw new AppError(404, ErrorCode.NotFound, row.status === 'completed' ? 'This video has no transcript.' : 'The transcript is still being built.');
    }
    res.type('application/json');
    return t;
  }

  /**
   * PATCH /api/transcripts/{id}: full replacement or word deltas, conditional on `version` (body)
   * or `If-Match`. Answers the whole transcript, or with `Prefer: return=minimal` only its new
   * version and filler words (what an editor that applied the change optimistically needs).
   */
  @Patch('transcripts/:id')
  async patchTranscript(
    @Param('id') id: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Headers('prefer') prefer: string | undefined,
    @Caller() caller: Identity,
  ): Promise<Transcript | TranscriptPatchSummary> {
    parseId(id, 'transcript');
    const p = transcriptPatchSchema.safeParse(body ?? {});
    if (!p.success) throw invalidBody(p.error.issues, 'Send words (full replacement) or wordDeltas: ');
    let expected = p.data.version;
    if (ifMatch !== undefined) {
      const v = Number(ifMatch.replace(/^W\//, '').replace(/"/g, '').trim());
      if (!Number.isInteger(v) || v < 1) throw new AppError(400, ErrorCode.ValidationFailed, 'If-Match must carry the transcript version, e.g. "3".');
      expected = v;
    }
    const summary = await this.transcripts.patch(id, p.data, expected, caller.userId);
    if (prefer && /return=minimal/i.test(prefer)) return summary;
    return (await this.transcripts.get(id))!;
  }

  /** GET /api/videos/{id}/waveform?v=&points= : stored peaks of the current media, resampled. */
  @Get('videos/:id/waveform')
  async waveform(@Param('id') id: string, @Query('points') pointsQ: string | undefined, @Res({ passthrough: true }) res: Response, @Caller() caller: Identity): Promise<Waveform> {
    const row = await this.row(id, caller);
    const points = pointsQ === undefined ? WAVEFORM_DEFAULT_POINTS : Number(pointsQ);
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
    res.setHeader('Cache-Control', 'private, max-age=300');
    return { peaks: resampleWaveform(peaks, points), duration: durationSec, cached };
  }

  /**
   * GET /api/videos/{id}/stream/processed?t= : the current media (processed render, else the
   * browser-playable copy of the original), with one HTTP range per request, ETag and
   * conditional requests. `t` only busts caches; the answer is always the current media.
   */
  @Get('videos/:id/stream/processed')
  @SignedMedia()
  async stream(@Param('id') id: string, @Req() req: Request, @Res() res: Response, @Caller() caller: Identity): Promise<void> {
    const row = await this.row(id, caller);
    const key = row.playback_key ?? (row.status === 'completed' ? row.original_key : null);
    if (!key) throw new AppError(409, ErrorCode.Conflict, 'The video is not ready to play yet.');
    const head = await this.storage.head(key);
    if (!head) throw new AppError(404, ErrorCode.NotFound, 'The media of this video is missing.');
    const etag = head.etag ?? `"${row.media_version}-${head.sizeBytes}"`;
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', `private, max-age=${this.config.STREAM_CACHE_SECONDS}`);
    res.setHeader('Content-Type', 'video/mp4');
    if (etagMatches(req.headers['if-none-match'], etag)) {
      res.status(304).end();
      return;
    }
    const ifRange = req.headers['if-range'];
    const rangeHeader = ifRange && ifRange !== etag ? undefined : req.headers.range;
    const decision = decideRange(rangeHeader, head.sizeBytes);
    if (decision.kind === 'unsatisfiable') {
      res.setHeader('Content-Range', `bytes */${head.sizeBytes}`);
      throw new AppError(416, 'RANGE_NOT_SATISFIABLE', decision.reason);
    }
    const obj =
      decision.kind === 'partial'
        ? await this.storage.getStream(key, { start: decision.start, end: decision.end })
        : await this.storage.getStream(key);
    if (decision.kind === 'partial') {
      res.status(206);
      res.setHeader('Content-Range', `bytes ${decision.start}-${decision.end}/${head.sizeBytes}`);
      res.setHeader('Content-Length', String(decision.end - decision.start + 1));
    } else {
      res.status(200);
      res.setHeader('Content-Length', String(head.sizeBytes));
    }
    if (req.method === 'HEAD') {
      obj.body.destroy();
      res.end();
      return;
    }
    // a viewer that seeks closes its connection: that is not an error worth a log line
    await pipeline(obj.body, res).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ERR_STREAM_PREMATURE_CLOSE') this.logger.warn({ err, videoId: row.id }, 'stream interrupted');
    });
  }

  /** A video of the caller's; anyone else's answers 404 like a missing one. */
  private async row(id: string, caller: Identity): Promise<VideoRow> {
    const row = await this.videos.getOwned(parseId(id), caller.userId);
    if (!row) throw new AppError(404, ErrorCode.NotFound, `There is no video with id '${id}'.`);
    return row;
  }

  /**
   * The subtitle file becomes a transcript before anything is recorded: not WebVTT, no usable cue,
   * or more words than a transcript may hold answer 422 with the reason.
   */
  private async checkVtt(key: string): Promise<void> {
    const text = await readObjectBytes(this.storage, key);
    const vtt = Buffer.from(text ?? new Uint8Array()).toString('utf8');
    if (!/^\uFEFF?WEBVTT($|[ \t\r\n])/.test(vtt)) {
      throw new AppError(422, 'VTT_INVALID', "The subtitle file is not WebVTT: it must start with 'WEBVTT'. Ensure the VTT file has proper WEBVTT format with valid timestamps.");
    }
    try {
      buildTranscriptFromVtt(vtt);
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
