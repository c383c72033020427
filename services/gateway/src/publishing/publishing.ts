import {
  ExportStream,
  ExportSubjects,
  exportItemUploadedEventSchema,
  exportRequestSchema,
  quotaUsageSchema,
  rpcExportCreateReplySchema,
  rpcExportSourcesRequestSchema,
  rpcExportStatusReplySchema,
  StorageKeys,
  type CloneResponse,
  type ExportCaller,
  type ExportCreated,
  type ExportItemUploadedEvent,
  type ExportJobStatus,
  type ExportRefusal,
  type QuotaUsage,
  type RefreshTokenResponse,
  type ResetResponse,
  type RpcExportSourcesReply,
  type RpcExportSourcesRequest,
  Consumers,
} from '@wordcut/contracts';
import { applyMutes, unappliedMutes } from '@wordcut/edit-list';
import type { ConsumerDef, InboundMessage, Messaging } from '@wordcut/messaging';
import { AppError, type Logger } from '@wordcut/platform';
import type { ObjectStorage } from '@wordcut/storage';
import { ProviderError, type ProviderClient, type VerifiedProviderToken } from '@wordcut/provider';
import { quotaUsageFrom } from '@wordcut/publishing';
import { clampWords, wordsToVtt, wordsToWordByWord } from '@wordcut/transcript';
import { z } from 'zod';
import { BUSY_MESSAGE, currentEditList, type EditService, type EditVideoRow } from '../edits/edits.service';
import type { GatewayConfig } from '../config';
import type { ClipStore } from '../clips/clip-store';
import type { RenderStore } from '../edits/render-store';
import type { TranscriptStore } from '../transcripts/transcript-store';
import { toApiVideo } from '../videos/video-api';
import type { VideoStore } from '../videos/video-store';
import type { SessionAuth } from '../session-auth';
import { bodyIssues, tooManyEntries } from '../http';
import { exportError } from './export-error';

export const PUBLISHING_CONSUMERS = {
  items: Consumers.gatewayExportItems,
} as const satisfies Record<string, ConsumerDef>;

/** Mutes closer than this (seconds) to an applied mute count as applied (frame snapping moves edges). */
const MUTE_MATCH_TOLERANCE = 0.05;

const refusalError = (r: ExportRefusal): AppError =>
  exportError(r.status, r.error, r.message, { details: r.details, retryAfter: r.retryAfter, upgradeUrl: r.upgradeUrl, jobId: r.jobId });

const resetBodySchema = z.object({ videoId: z.string().uuid().optional() }).passthrough();
const cloneBodySchema = z.object({ videoId: z.string().uuid({ message: 'videoId must be a video id' }) });

/**
 * The gateway's side of publishing (docs/PUBLISHING.md): it verifies the session token of every
 * call, checks the video belongs to the token's session, and hands export jobs to the export
 * service over NATS request/reply; quota, idempotency and uploads live there. When an export is
 * created it starts the render of the mutes the video lacks (the export waits for that render's
 * end); it answers the export service's question "what do I upload" and records what reached the
 * provider on the video and its clips.
 */
export class PublishingService {
  constructor(
    private readonly config: Pick<GatewayConfig, 'RPC_TIMEOUT_MS' | 'EXPORT_RPC_TIMEOUT_MS'>,
    private readonly bus: Messaging,
    private readonly storage: ObjectStorage,
    private readonly logger: Logger,
    private readonly videos: VideoStore,
    private readonly transcripts: TranscriptStore,
    private readonly clips: ClipStore,
    private readonly renders: RenderStore,
    private readonly edits: EditService,
    private readonly auth: SessionAuth,
    private readonly provider: ProviderClient,
  ) {}

  async start(): Promise<void> {
    await this.bus.provision([ExportStream], [PUBLISHING_CONSUMERS.items]);
    this.bus.serve(ExportSubjects.rpcSources, rpcExportSourcesRequestSchema, (r) => this.exportSources(r));
    await this.bus.consume({
      consumer: PUBLISHING_CONSUMERS.items,
      schema: exportItemUploadedEventSchema,
      handler: (m: InboundMessage<ExportItemUploadedEvent>) => this.onItemUploaded(m.data),
    });
  }

  private caller(claims: VerifiedProviderToken, token: string): ExportCaller {
    const m = claims.media;
    return {
      userId: claims.ownerId,
      plan: claims.plan,
      sessionId: claims.sessionId,
      providerVideoId: claims.videoId,
      token,
      uploadUrls: { video: m?.uploadUrlVideo, vtt: m?.uploadUrlVtt, wordByword: m?.uploadUrlWordByword },
    };
  }

  private async ownedVideo(videoId: string, claims: VerifiedProviderToken): Promise<EditVideoRow> {
    const row = await this.edits.getVideo(videoId);
    if (!row || row.owner_id !== claims.ownerId) throw exportError(404, 'not_found', `There is no video with id '${videoId}'.`);
    return row;
  }

  /**
   * The video of a session token: 404 when it does not exist or belongs to someone else (alike),
   * 403 when it is the caller's own video but another session's.
   */
  private async sessionVideo(videoId: string, claims: VerifiedProviderToken): Promise<EditVideoRow> {
    const row = await this.ownedVideo(videoId, claims);
    if (row.provider_session_id !== claims.sessionId) {
      throw exportError(403, 'forbidden', 'This session token is not for this video. Please reload the page from the provider.');
    }
    return row;
  }

  // ---------------------------------------------------------------- token refresh and quota

  async refreshToken(token: string | null): Promise<RefreshTokenResponse> {
    await this.auth.verifyForExport(token, 'JWT token required');
    let fresh: { token: string };
    try {
      fresh = await this.provider.refreshToken(token!);
    } catch (err) {
      throw this.providerFailure(err, 'token_refresh_failed', 'Failed to refresh authentication. Please reload the page.');
    }
    const claims = await this.auth.verifyForExport(fresh.token, 'JWT token required');
    const m = claims.media;
    return {
      newToken: fresh.token,
      newUploadUrls: { video: m?.uploadUrlVideo, vtt: m?.uploadUrlVtt, wordByword: m?.uploadUrlWordByword },
      newDownloadUrls: { video: m?.videoUrl, vtt: m?.vttUrl, wordByword: m?.wordBywordUrl },
      plan: claims.plan,
      usage: await this.usage(claims),
      ...(claims.languageCode ? { languageCode: claims.languageCode } : {}),
    };
  }

  async quota(token: string | null): Promise<QuotaUsage> {
    return this.usage(await this.auth.verifyForExport(token, 'JWT token required'));
  }

  /** The server's count of the user's exports; the token's snapshot only when the export service cannot answer. */
  private async usage(claims: VerifiedProviderToken): Promise<QuotaUsage> {
    try {
      return await this.bus.request(ExportSubjects.rpcQuota, { userId: claims.ownerId, plan: claims.plan }, quotaUsageSchema, this.config.RPC_TIMEOUT_MS);
    } catch (err) {
      this.logger.warn({ err }, 'export quota unavailable; answering the token snapshot');
      return quotaUsageFrom(claims.plan, claims.usageSnapshot, new Date());
    }
  }

  // ---------------------------------------------------------------- clone

  async clone(token: string | null, body: unknown): Promise<CloneResponse> {
    const claims = await this.auth.verifyForExport(token, 'No authentication token');
    const parsed = cloneBodySchema.safeParse(body);
    if (!parsed.success) throw exportError(400, 'invalid_request', 'Clone failed: Video ID not available');
    const row = await this.sessionVideo(parsed.data.videoId, claims);
    if (row.provider_is_clone || claims.isClone) throw exportError(409, 'already_clone', 'This video is already a clone');
    let cloned: { token: string };
    try {
      cloned = await this.provider.cloneVideo(token!);
    } catch (err) {
      throw this.providerFailure(err, 'clone_failed', 'Clone request failed');
    }
    const next = await this.auth.verifyForExport(cloned.token, 'No authentication token');
    const relinked = await this.videos.relinkToClone(row.id, { fromSession: claims.sessionId, sessionId: next.sessionId, providerVideoId: next.videoId }, (tx) =>
      this.clips.resetUploads(tx, row.id),
    );
    if (!relinked) throw exportError(409, 'clone_failed', 'The video changed while cloning. Please try again.');
    this.logger.info({ videoId: row.id, from: claims.sessionId, to: next.sessionId }, 'video cloned at the provider');
    return { token: cloned.token, sessionId: next.sessionId, providerVideoId: next.videoId };
  }

  // ---------------------------------------------------------------- export jobs

  async createExport(authorization: string | null, body: unknown): Promise<ExportCreated> {
    const override = typeof (body as { token?: unknown } | null)?.token === 'string' ? (body as { token: string }).token : null;
    const token = override ?? authorization;
    const claims = await this.auth.verifyForExport(token, 'JWT token required for export. Please refresh the page.');
    const parsed = exportRequestSchema.safeParse(body);
    if (!parsed.success) {
      const over = tooManyEntries(bodyIssues(parsed.error.issues));
      if (over) this.logger.warn({ report: true, userId: claims.ownerId, list: over.path.join('.'), limit: over.maximum }, 'request refused: a list over its limit');
      throw exportError(400, 'invalid_request', parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
    }
    const request = parsed.data;
    // someone else's video is as unknown as a missing one, whatever the session says
    await this.ownedVideo(request.videoId, claims);
    if (request.sessionId !== claims.sessionId) {
      throw exportError(403, 'forbidden', 'Export delayed - Video data is updating, please try again in a moment');
    }
    const row = await this.sessionVideo(request.videoId, claims);
    const clipIds = request.clips.map((c) => c.clipId);
    const clips = await this.clips.ofVideo(row.id, clipIds);
    const missing = clipIds.filter((id) => !clips.some((c) => c.id === id));
    if (missing.length) throw exportError(422, 'invalid_request', `Clip ${missing[0]} does not belong to this video (it may have been deleted). Please reload.`);
    const unfinished = clips.find((c) => c.status !== 'completed');
    if (unfinished) throw exportError(409, 'invalid_request', `Clip "${unfinished.name}" is not ready to publish (${unfinished.status}).`);
    // mutes the video lacks start rendering now, and the job waits for that render's end; a render
    // refused now (busy, a job limit) is met again, and reported, when the job runs
    const render = request.saveMainVideo
      ? await this.muteRender(row, request.mainVideoEdits.muteSegments, claims.ownerId).catch((err: unknown) => {
          if (err instanceof AppError) return null;
          throw err;
        })
      : null;
    const reply = await this.askExport(
      ExportSubjects.rpcCreate,
      {
        caller: this.caller(claims, token!),
        request,
        names: { mainVideo: row.title || row.original_name, clips: Object.fromEntries(clips.map((c) => [c.id, c.name])) },
        renderJobId: render && 'renderJobId' in render ? render.renderJobId : null,
      },
      rpcExportCreateReplySchema,
      this.config.EXPORT_RPC_TIMEOUT_MS,
      (err) => {
        this.logger.error({ err }, 'export create request failed');
        return exportError(503, 'export_failed', 'Failed to create export job', { details: 'The export service did not answer. Please try again in a moment.' });
      },
    );
    if (!reply.replayed) await this.markUploading(row.id, request.saveMainVideo, request.saveVtt, clipIds);
    return reply.created;
  }

  async exportStatus(authorization: string | null, jobId: string): Promise<ExportJobStatus> {
    const unanswered = () => exportError(503, 'status_fetch_failed', 'Failed to fetch job status');
    return (await this.askAboutJob(authorization, jobId, 'status', rpcExportStatusReplySchema, this.config.RPC_TIMEOUT_MS, unanswered)).status;
  }

  async retryExport(authorization: string | null, jobId: string): Promise<ExportCreated> {
    const unanswered = () => exportError(503, 'retry_failed', 'Failed to retry export job');
    return (await this.askAboutJob(authorization, jobId, 'retry', rpcExportCreateReplySchema, this.config.EXPORT_RPC_TIMEOUT_MS, unanswered)).created;
  }

  /** rpc.export.status / rpc.export.retry for one of the caller's export jobs (the export token names the caller). */
  private async askAboutJob<R extends { ok: true } | { ok: false; refusal: ExportRefusal }>(
    authorization: string | null,
    jobId: string,
    what: 'status' | 'retry',
    schema: z.ZodType<R>,
    timeoutMs: number,
    unanswered: () => AppError,
  ): Promise<Extract<R, { ok: true }>> {
    const claims = await this.auth.verifyForExport(authorization, 'Job ID and token required', 'invalid_request');
    const subject = what === 'status' ? ExportSubjects.rpcStatus : ExportSubjects.rpcRetry;
    return this.askExport(subject, { jobId, caller: this.caller(claims, authorization!) }, schema, timeoutMs, (err) => {
      this.logger.warn({ err, jobId }, `export ${what} request failed`);
      return unanswered();
    });
  }

  /**
   * A request to the export service: its answer, or its refusal thrown as the export error it
   * describes; when it does not answer, the error `unanswered` makes (and logs) is thrown.
   */
  private async askExport<R extends { ok: true } | { ok: false; refusal: ExportRefusal }>(
    subject: string,
    payload: unknown,
    schema: z.ZodType<R>,
    timeoutMs: number,
    unanswered: (err: unknown) => AppError,
  ): Promise<Extract<R, { ok: true }>> {
    let reply: R;
    try {
      reply = await this.bus.request(subject, payload, schema, timeoutMs);
    } catch (err) {
      throw unanswered(err);
    }
    if (!reply.ok) throw refusalError((reply as Extract<R, { ok: false }>).refusal);
    return reply as Extract<R, { ok: true }>;
  }

  private async markUploading(videoId: string, main: boolean, vtt: boolean, clipIds: string[]): Promise<void> {
    await this.videos.markUploading(videoId, main, vtt);
    await this.clips.markUploading(videoId, clipIds);
  }

  /** export -> gateway: an item reached the provider (or failed): the record the dialog offers from. */
  async onItemUploaded(e: ExportItemUploadedEvent): Promise<void> {
    if (e.type === 'clip') {
      if (!e.clipId) return;
      await this.clips.setUploadStatus(e.clipId, e.videoId, e.status, e.providerVideoId);
      return;
    }
    await this.videos.setUploadStatus(e.videoId, e.type, e.status);
    if (e.status !== 'uploaded') return;
    // what the provider's library holds now, so a later revert knows to offer the original
    if (e.type === 'main_video') await this.videos.setProviderMedia(e.videoId);
    else if (e.type === 'vtt') {
      const transcript = await this.transcripts.getByVideo(e.videoId);
      if (transcript) await this.videos.setProviderCaptions(e.videoId, transcript.version);
    }
  }

  /**
   * The render that applies the mute segments the current version lacks (each at its level;
   * silence without one): the running video render if there is one, else a new one; null when
   * every segment is applied already.
   */
  private async muteRender(row: EditVideoRow, segments: RpcExportSourcesRequest['muteSegments'], userId: string): Promise<{ renderJobId: string } | { refused: string } | null> {
    if (segments.length === 0) return null;
    const wanted = segments.map((s) => ({ start: s.start, end: s.end, level: s.level ?? 'silence' }));
    const missing = unappliedMutes(currentEditList(row), wanted, MUTE_MATCH_TOLERANCE);
    if (missing.length === 0) return null;
    const active = await this.renders.activeVideoRender(row.id);
    if (active) return { renderJobId: active };
    const base = currentEditList(row);
    try {
      return { renderJobId: await this.edits.requestRender(row, 'mute', userId, base, applyMutes(base, missing), `${missing.length} muted region(s) for publishing`) };
    } catch (err) {
      if (err instanceof AppError && err.message === BUSY_MESSAGE) return { refused: BUSY_MESSAGE };
      throw err;
    }
  }

  /**
   * rpc.library.export-sources: the objects an export uploads, once the mute segments are applied
   * (else the render to wait for); captions are written from the current transcript for this export.
   */
  async exportSources(r: RpcExportSourcesRequest): Promise<RpcExportSourcesReply> {
    const row = await this.edits.getVideo(r.videoId);
    if (!row || !row.original_key) return { state: 'refused', message: 'The video no longer exists.' };
    const render = r.mainVideo ? await this.muteRender(row, r.muteSegments, r.userId) : null;
    if (render && 'refused' in render) return { state: 'refused', message: render.refused };
    if (render) return { state: 'rendering', renderJobId: render.renderJobId };
    const title = row.title || row.original_name;
    const mainVideo = r.mainVideo
      ? { key: row.processed_filename && row.playback_key ? row.playback_key : row.original_key, contentType: 'video/mp4', name: title }
      : null;
    let vtt = null;
    let wordByword = null;
    if (r.vtt) {
      const transcript = await this.transcripts.getByVideo(row.id);
      if (!transcript) return { state: 'refused', message: 'The video has no transcript to publish as subtitles.' };
      const words = row.duration ? clampWords(transcript.words, row.duration) : transcript.words;
      const vttKey = StorageKeys.exportVtt(row.id, r.exportJobId);
      const wordsKey = StorageKeys.exportWordByWord(row.id, r.exportJobId);
      await this.storage.upload(vttKey, Buffer.from(wordsToVtt(words, { languageCode: transcript.languageCode })), { contentType: 'text/vtt' });
      await this.storage.upload(wordsKey, Buffer.from(JSON.stringify(wordsToWordByWord(words, transcript.languageCode))), { contentType: 'application/json' });
      vtt = { key: vttKey, contentType: 'text/vtt', name: `${title}.vtt` };
      wordByword = { key: wordsKey, contentType: 'application/json', name: `${title}.words.json` };
    }
    const clipRows = await this.clips.ofVideo(row.id, r.clipIds);
    const notReady = r.clipIds.find((id) => clipRows.find((c) => c.id === id)?.status !== 'completed');
    if (notReady) return { state: 'refused', message: `Clip ${notReady} is no longer available (deleted or not finished).` };
    return {
      state: 'ready',
      mainVideo,
      vtt,
      wordByword,
      clips: clipRows.map((c) => ({ clipId: c.id, key: c.output_key, contentType: 'video/mp4', name: c.name })),
    };
  }

  // ---------------------------------------------------------------- reset (revert to original)

  async reset(authorization: string | null, sessionId: string, body: unknown): Promise<ResetResponse> {
    const claims = await this.auth.verifyForExport(authorization, 'JWT token required');
    const parsed = resetBodySchema.safeParse(body ?? {});
    if (!parsed.success) throw exportError(400, 'invalid_request', 'videoId must be a video id');
    const bySession = await this.videos.getBySession(sessionId, claims.ownerId);
    if (!bySession) throw exportError(404, 'not_found', 'This session has no video in WordCut.');
    if (claims.sessionId !== sessionId) throw exportError(403, 'forbidden', 'This session token is for another session.');
    if (parsed.data.videoId && parsed.data.videoId !== bySession.id) throw exportError(403, 'forbidden', 'This session token is not for this video.');
    const row = (await this.edits.getVideo(bySession.id))!;
    const filesUpdated = {
      video: row.processed_filename !== null || row.edit_list !== null,
      transcript: row.vtt_changed || row.word_byword_changed,
    };
    const version = await this.edits.revertToOriginal(row.id, claims.ownerId);
    await this.videos.resetUploads(row.id);
    const after = toApiVideo((await this.edits.getVideo(row.id))!);
    // the provider keeps what was published until the original is published again
    const providerHasEdits = after.providerMediaStale === true || after.providerCaptionsStale === true;
    this.logger.info({ videoId: row.id, sessionId, filesUpdated, providerHasEdits }, 'session reset to the original');
    const message = providerHasEdits
      ? 'The video and its transcript are back to the original in WordCut. The provider still has what you published: publish to put the original back there.'
      : filesUpdated.video || filesUpdated.transcript
        ? 'The video and its transcript are back to the original.'
        : 'Nothing to reset: the video was already the original.';
    return { success: true, filesUpdated, message, providerHasEdits, version };
  }

  private providerFailure(err: unknown, code: string, message: string): AppError {
    if (err instanceof ProviderError) {
      this.logger.warn({ err, status: err.status, code: err.code }, `provider call failed (${code})`);
      if (err.code === 'unauthorized' || err.status === 401) return exportError(401, 'unauthorized', `${message} The provider refused the session token.`);
      if (err.status === 409) return exportError(409, code, err.message || message);
      return exportError(502, code, message, { details: err.message, ...(err.retryAfterSec ? { retryAfter: err.retryAfterSec } : {}) });
    }
    this.logger.error({ err }, `provider call failed (${code})`);
    return exportError(502, code, message, { details: (err as Error).message });
  }
}
