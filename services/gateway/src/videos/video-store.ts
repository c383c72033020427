/**
 * Over 400 lines: one store per table, and library.videos carries the video's whole lifecycle.
 *
 * The one store of library.videos (create, ingest states, provider sessions,
 * ownership, retention, the dashboard's listing): every statement on that table lives here.
 */
import type { EditList } from '@wordcut/edit-list';
import {
  VTT_METHOD_UPLOAD,
  type AnalyticsVideoQuery,
  type VideoSort,
  type IngestSource,
  type ProbeResult,
  type UploadStatus,
  type VideoIngestCompletedEvent,
  type VideoStatus,
} from '@wordcut/contracts';
import type { DataSource, EntityManager } from 'typeorm';

/** A row of library.videos as the store reads it. */
export interface VideoRow {
  id: string;
  title: string;
  original_name: string;
  filename: string;
  processed_filename: string | null;
  last_processed_at: Date | null;
  status: VideoStatus;
  vtt_progress: number;
  vtt_method: string;
  vtt_error: string | null;
  video_changed: boolean;
  vtt_changed: boolean;
  word_byword_changed: boolean;
  language_code: string;
  duration: number | null;
  width: number | null;
  height: number | null;
  has_audio: boolean | null;
  file_size: string | null;
  media_version: string;
  original_key: string | null;
  playback_key: string | null;
  vtt_key: string | null;
  word_byword_key: string | null;
  waveform_key: string | null;
  probe: ProbeResult | null;
  ingest_job_id: string | null;
  ingest_source: IngestSource | null;
  owner_id: string | null;
  provider_session_id: string | null;
  provider_video_id: string | null;
  provider_is_clone: boolean;
  provider_main_video_upload_status: UploadStatus;
  provider_vtt_upload_status: UploadStatus;
  created_at: Date;
  updated_at: Date;
  /** set while a deletion is in progress (or left for the sweeper to finish) */
  deleting_at?: Date | null;
  transcript_id?: string | null;
  /** the edit version shown (null until the first render or revert) */
  current_version?: number | null;
  /** the media version the provider's library holds (null: its own original, nothing uploaded) */
  provider_media_version?: string | null;
  /** the transcript version whose captions the provider holds (null: none uploaded) */
  provider_captions_version?: number | null;
  /** the version of the video's transcript (joined), for what the provider holds */
  transcript_version?: number | null;
  /** burned captions were drawn from other words than the transcript has now */
  captions_stale?: boolean;
}

export interface NewVideo {
  id: string;
  title: string;
  originalName: string;
  filename: string;
  languageCode: string;
  ingestJobId: string;
  ingestSource: IngestSource;
  originalKey?: string;
  vttKey?: string | null;
  /** how its transcript is made (default: from the uploaded captions) */
  vttMethod?: string;
  fileSize?: number;
  probe?: ProbeResult;
  ownerId?: string;
  providerSessionId?: string;
  providerVideoId?: string;
  providerIsClone?: boolean;
}

/** The operator list's orders (ties broken by id, so pages never overlap). */
const OPERATOR_SORTS: Record<VideoSort, string> = {
  newest: 'v.created_at DESC, v.id DESC',
  oldest: 'v.created_at ASC, v.id ASC',
  'name-asc': 'lower(v.original_name) ASC, v.id ASC',
  'name-desc': 'lower(v.original_name) DESC, v.id DESC',
  'size-desc': 'v.file_size DESC NULLS LAST, v.id DESC',
  'size-asc': 'v.file_size ASC NULLS LAST, v.id ASC',
};

export type OperatorVideoQuery = Pick<AnalyticsVideoQuery, 'search' | 'userId' | 'status' | 'sortBy' | 'page' | 'limit'>;
export interface OperatorVideoRow {
  id: string;
  original_name: string;
  title: string;
  owner_id: string | null;
  created_at: Date;
  duration: number | null;
  file_size: string | null;
  status: VideoStatus;
}

const SELECT_VIDEO = `SELECT v.*, t.id AS transcript_id, t.version AS transcript_version FROM library.videos v LEFT JOIN library.transcripts t ON t.video_id = v.id`;

/**
 * Video records and their lifecycle (uploaded → processing → completed | failed). Every
 * transition is a guarded UPDATE naming the ingest job it belongs to, so a late or repeated
 * event of an older ingest can never move a video backwards.
 */
export class VideoStore {
  constructor(private readonly ds: DataSource) {}

  async create(v: NewVideo, m: EntityManager | DataSource = this.ds): Promise<VideoRow> {
    await m.query(
      `INSERT INTO library.videos (id, title, original_name, filename, status, vtt_method, language_code, ingest_job_id, ingest_source,
         original_key, vtt_key, file_size, probe, owner_id, provider_session_id, provider_video_id, provider_is_clone)
       VALUES ($1,$2,$3,$4,'uploaded',$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16)`,
      [
        v.id,
        v.title,
        v.originalName,
        v.filename,
        v.vttMethod ?? VTT_METHOD_UPLOAD,
        v.languageCode,
        v.ingestJobId,
        JSON.stringify(v.ingestSource),
        v.originalKey ?? null,
        v.vttKey ?? null,
        v.fileSize ?? null,
        v.probe ? JSON.stringify(v.probe) : null,
        v.ownerId ?? null,
        v.providerSessionId ?? null,
        v.providerVideoId ?? null,
        v.providerIsClone ?? false,
      ],
    );
    return (await this.get(v.id, m))!;
  }

  /** The video holding a provider session: the row when `ownerId` owns it, null when someone else does, undefined when none does. */
  async sessionVideo(sessionId: string, ownerId: string): Promise<VideoRow | null | undefined> {
    const rows = (await this.ds.query(`${SELECT_VIDEO} WHERE v.provider_session_id = $1`, [sessionId])) as VideoRow[];
    if (!rows[0]) return undefined;
    return rows[0].owner_id === ownerId ? rows[0] : null;
  }

  async get(id: string, m: EntityManager | DataSource = this.ds): Promise<VideoRow | null> {
    const rows = (await m.query(`${SELECT_VIDEO} WHERE v.id = $1`, [id])) as VideoRow[];
    return rows[0] ?? null;
  }

  /** The video when `ownerId` owns it; null for a missing video and for anyone else's alike. */
  async getOwned(id: string, ownerId: string, m: EntityManager | DataSource = this.ds): Promise<VideoRow | null> {
    // a video being deleted is gone for its owner already
    const rows = (await m.query(`${SELECT_VIDEO} WHERE v.id = $1 AND v.owner_id = $2 AND v.deleting_at IS NULL`, [id, ownerId])) as VideoRow[];
    return rows[0] ?? null;
  }

  /** Videos of an owner whose ingest is running (for the running-jobs limit). */
  async countIngestingForOwner(m: EntityManager, ownerId: string): Promise<number> {
    const rows = (await m.query(`SELECT count(*) AS n FROM library.videos WHERE owner_id = $1 AND status IN ('uploaded','processing')`, [ownerId])) as { n: string }[];
    return Number(rows[0]!.n);
  }

  /** Records that the owner opened the video (at most once an hour): retention counts from here. */
  async touch(id: string): Promise<void> {
    await this.ds.query(`UPDATE library.videos SET accessed_at = now() WHERE id = $1 AND accessed_at < now() - interval '1 hour'`, [id]);
  }

  /** Videos nobody opened since `before` (oldest first), for the retention sweep. */
  async untouchedSince(before: Date, limit: number): Promise<VideoRow[]> {
    return (await this.ds.query(`${SELECT_VIDEO} WHERE v.accessed_at < $1 ORDER BY v.accessed_at LIMIT $2`, [before, limit])) as VideoRow[];
  }

  /** The video of a provider session when `ownerId` owns it; null for a missing one and for anyone else's alike. */
  async getBySession(sessionId: string, ownerId: string): Promise<VideoRow | null> {
    const rows = (await this.ds.query(`${SELECT_VIDEO} WHERE v.provider_session_id = $1 AND v.owner_id = $2`, [sessionId, ownerId])) as VideoRow[];
    return rows[0] ?? null;
  }


  /** The ingest `jobId` now owns the video: status processing, progress 0, no error. */
  async startIngest(id: string, jobId: string, source: IngestSource): Promise<boolean> {
    const [, updated] = (await this.ds.query(
      `UPDATE library.videos SET status = 'processing', vtt_progress = 0, vtt_error = NULL, ingest_job_id = $2, ingest_source = $3, updated_at = now()
        WHERE id = $1 AND status IN ('uploaded','failed') RETURNING id`,
      [id, jobId, JSON.stringify(source)],
    )) as [unknown[], number];
    return updated > 0;
  }

  async ingestProgress(id: string, jobId: string, progress: number): Promise<boolean> {
    const [, updated] = (await this.ds.query(
      `UPDATE library.videos SET status = 'processing', vtt_progress = GREATEST(vtt_progress, $3), updated_at = now()
        WHERE id = $1 AND ingest_job_id = $2 AND status IN ('uploaded','processing') RETURNING id`,
      [id, jobId, Math.min(99, Math.max(0, progress))],
    )) as [unknown[], number];
    return updated > 0;
  }

  async ingestFailed(id: string, jobId: string, error: string): Promise<boolean> {
    const [, updated] = (await this.ds.query(
      `UPDATE library.videos SET status = 'failed', vtt_error = $3, updated_at = now()
        WHERE id = $1 AND ingest_job_id = $2 AND status IN ('uploaded','processing') RETURNING id`,
      [id, jobId, error],
    )) as [unknown[], number];
    return updated > 0;
  }

  /** Applies a completed ingest inside the caller's transaction; false when the event is stale or repeated. */
  async ingestCompleted(m: EntityManager, e: VideoIngestCompletedEvent): Promise<boolean> {
    const [, updated] = (await m.query(
      `UPDATE library.videos SET status = 'completed', vtt_progress = 100, vtt_error = NULL,
          original_key = $3, playback_key = $4, waveform_key = $5, probe = $6, duration = $7, width = $8, height = $9,
          has_audio = $10, file_size = $11, language_code = $12, media_version = 'original', updated_at = now()
        WHERE id = $1 AND ingest_job_id = $2 AND status IN ('uploaded','processing') RETURNING id`,
      [e.videoId, e.jobId, e.originalKey, e.playbackKey, e.waveformKey, JSON.stringify(e.probe), e.durationSec, e.width, e.height, e.hasAudio, e.sizeBytes, e.languageCode],
    )) as [unknown[], number];
    return updated > 0;
  }

  /** PATCH /api/videos/{id}: the changed flags (reset on revert) and the title. */
  async patch(id: string, p: { vttChanged?: false; wordBywordChanged?: false; title?: string }): Promise<VideoRow | null> {
    const rows = (await this.ds.query(
      `UPDATE library.videos SET
          vtt_changed = COALESCE($2, vtt_changed),
          word_byword_changed = COALESCE($3, word_byword_changed),
          title = COALESCE($4, title),
          updated_at = now()
        WHERE id = $1 RETURNING id`,
      [id, p.vttChanged ?? null, p.wordBywordChanged ?? null, p.title ?? null],
    )) as unknown[];
    return rows.length ? this.get(id) : null;
  }

  /**
   * A clone at the provider: the video now belongs to the clone's session and nothing of it is
   * uploaded there yet. `alsoInside` runs in the same transaction (the clips' upload statuses).
   * False when the video left `fromSession` meanwhile.
   */
  async relinkToClone(id: string, to: { fromSession: string; sessionId: string; providerVideoId: string }, alsoInside: (m: EntityManager) => Promise<void>): Promise<boolean> {
    return this.ds.transaction(async (tx) => {
      const [, updated] = (await tx.query(
        `UPDATE library.videos SET provider_session_id = $2, provider_video_id = $3, provider_is_clone = true,
            provider_main_video_upload_status = 'none', provider_vtt_upload_status = 'none', updated_at = now()
          WHERE id = $1 AND provider_session_id = $4`,
        [id, to.sessionId, to.providerVideoId, to.fromSession],
      )) as [unknown, number];
      if (updated !== 1) return false;
      await alsoInside(tx);
      return true;
    });
  }

  /** Publishing: the main video and/or its captions are on their way to the provider. */
  async markUploading(id: string, mainVideo: boolean, captions: boolean): Promise<void> {
    await this.ds.query(
      `UPDATE library.videos SET
          provider_main_video_upload_status = CASE WHEN $2 THEN 'uploading' ELSE provider_main_video_upload_status END,
          provider_vtt_upload_status = CASE WHEN $3 THEN 'uploading' ELSE provider_vtt_upload_status END
        WHERE id = $1`,
      [id, mainVideo, captions],
    );
  }

  /**
   * Publishing: what the provider said of the main video's or the captions' upload. A failed
   * word-by-word upload marks the captions failed; a successful one never hides a failed VTT.
   */
  async setUploadStatus(id: string, item: 'main_video' | 'vtt' | 'word_by_word', status: string): Promise<void> {
    const column = item === 'main_video' ? 'provider_main_video_upload_status' : 'provider_vtt_upload_status';
    const guard = item === 'word_by_word' && status === 'uploaded' ? ` AND ${column} <> 'failed'` : '';
    await this.ds.query(`UPDATE library.videos SET ${column} = $2, updated_at = now() WHERE id = $1${guard}`, [id, status]);
  }

  /** The words changed: captions burned into the current media no longer match them. */
  async markCaptionsStale(id: string): Promise<void> {
    await this.ds.query(`UPDATE library.videos SET captions_stale = true WHERE id = $1 AND (edit_list->>'burnCaptions') = 'true' AND NOT captions_stale`, [id]);
  }

  /** The provider's library now holds the current media (an upload of the main video finished). */
  async setProviderMedia(id: string): Promise<void> {
    await this.ds.query(`UPDATE library.videos SET provider_media_version = media_version, updated_at = now() WHERE id = $1`, [id]);
  }

  /** The provider's library now holds the captions of transcript version `version`. */
  async setProviderCaptions(id: string, version: number): Promise<void> {
    await this.ds.query(`UPDATE library.videos SET provider_captions_version = $2, updated_at = now() WHERE id = $1`, [id, version]);
  }

  /** After a revert nothing of the video is at the provider as it is now. */
  async resetUploads(id: string): Promise<void> {
    await this.ds.query(`UPDATE library.videos SET provider_main_video_upload_status = 'none', provider_vtt_upload_status = 'none', updated_at = now() WHERE id = $1`, [id]);
  }

  /** A render became the current version (inside the caller's transaction): new edit list, media and captions. */
  async applyRender(
    m: EntityManager,
    id: string,
    r: { editList: EditList; playbackKey: string; processedFilename: string; durationSec: number; summary: Record<string, unknown> },
  ): Promise<void> {
    await m.query(
      `UPDATE library.videos SET edit_list = $2, edit_version = edit_version + 1,
          source_playback_key = COALESCE(source_playback_key, playback_key),
          playback_key = $3, media_version = $4, processed_filename = $4, last_processed_at = now(),
          video_changed = true, vtt_changed = true, word_byword_changed = true,
          provider_main_video_upload_status = 'none', provider_vtt_upload_status = 'none',
          duration = $5, waveform_key = NULL, render_summary = $6, captions_stale = false, updated_at = now()
        WHERE id = $1`,
      [id, JSON.stringify(r.editList), r.playbackKey, r.processedFilename, r.durationSec, JSON.stringify(r.summary)],
    );
  }

  /** The video's edit version, the row locked until the caller's transaction ends (a render's claim). */
  async lockEditVersion(m: EntityManager, id: string): Promise<number | null> {
    const rows = (await m.query(`SELECT edit_version FROM library.videos WHERE id = $1 FOR UPDATE`, [id])) as { edit_version: number }[];
    return rows[0]?.edit_version ?? null;
  }

  /** The video locked until the caller's transaction ends (versions change one at a time). */
  async lock(m: EntityManager, id: string): Promise<void> {
    await m.query(`SELECT 1 FROM library.videos WHERE id = $1 FOR UPDATE`, [id]);
  }

  /** Which edit version the video shows (inside the caller's transaction). */
  /** The words were replaced (a caption file brought later): version `seq` is shown; the captions differ from the provider's, burned ones are out of date. */
  async transcriptReplaced(m: EntityManager, id: string, seq: number): Promise<void> {
    await m.query(
      `UPDATE library.videos SET current_version = $2, vtt_changed = true, word_byword_changed = true,
          captions_stale = captions_stale OR COALESCE(edit_list->>'burnCaptions', '') = 'true', updated_at = now() WHERE id = $1`,
      [id, seq],
    );
  }

  async setCurrentVersion(m: EntityManager, id: string, seq: number): Promise<void> {
    await m.query(`UPDATE library.videos SET current_version = $2 WHERE id = $1`, [id, seq]);
  }

  /**
   * An earlier edit version becomes the current one (inside the caller's transaction): its edit
   * list, media and length; the captions differ from what the provider has, and the media too.
   */
  async applyVersion(
    m: EntityManager,
    id: string,
    v: {
      seq: number;
      editList: unknown;
      playbackKey: string | null;
      mediaVersion: string;
      processedFilename: string | null;
      durationSec: number | null;
      summary: unknown;
      /** its captions differ from the original's */
      captionsChanged: boolean;
      /** its burned captions show other words than its transcript */
      captionsStale: boolean;
    },
  ): Promise<void> {
    await m.query(
      `UPDATE library.videos SET edit_list = $2::jsonb, edit_version = edit_version + 1, current_version = $8,
          playback_key = COALESCE($3, source_playback_key, playback_key), media_version = $4, processed_filename = $5,
          last_processed_at = CASE WHEN $5::text IS NULL THEN NULL ELSE now() END,
          video_changed = ($2::jsonb IS NOT NULL), vtt_changed = $9, word_byword_changed = $9,
          provider_main_video_upload_status = 'none', provider_vtt_upload_status = 'none',
          duration = COALESCE($6, duration), waveform_key = NULL, render_summary = $7::jsonb, captions_stale = $10, updated_at = now()
        WHERE id = $1`,
      [id, v.editList === null ? null : JSON.stringify(v.editList), v.playbackKey, v.mediaVersion, v.processedFilename, v.durationSec, v.summary === null ? null : JSON.stringify(v.summary), v.seq, v.captionsChanged, v.captionsStale],
    );
  }

  /** Back to the original (inside the caller's transaction): no edit list, the original media, unchanged flags. */
  async revertToOriginal(m: EntityManager, id: string, sourceDurationSec: number | null): Promise<void> {
    await m.query(
      `UPDATE library.videos SET edit_list = NULL, edit_version = edit_version + 1,
          playback_key = COALESCE(source_playback_key, playback_key), media_version = 'original', processed_filename = NULL,
          last_processed_at = NULL, video_changed = false, vtt_changed = false, word_byword_changed = false,
          duration = COALESCE($2, duration), waveform_key = NULL, render_summary = NULL, captions_stale = false, updated_at = now()
        WHERE id = $1`,
      [id, sourceDurationSec],
    );
  }

  /** One page of every video for the operator (videos being deleted are left out), and the total. */
  async listForOperator(q: OperatorVideoQuery): Promise<{ rows: OperatorVideoRow[]; total: number }> {
    const where = ['v.deleting_at IS NULL'];
    const params: unknown[] = [];
    if (q.search) {
      params.push(`%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where.push(`(v.original_name ILIKE $${params.length} OR v.title ILIKE $${params.length} OR v.id::text ILIKE $${params.length})`);
    }
    if (q.userId === 'unknown') where.push(`(v.owner_id IS NULL OR v.owner_id = '')`);
    else if (q.userId !== 'all') {
      params.push(q.userId);
      where.push(`v.owner_id = $${params.length}`);
    }
    if (q.status !== 'all') {
      params.push(q.status);
      where.push(`v.status = $${params.length}`);
    }
    const filter = where.join(' AND ');
    const [{ n }] = (await this.ds.query(`SELECT count(*)::int AS n FROM library.videos v WHERE ${filter}`, params)) as [{ n: number }];
    params.push(q.limit, (q.page - 1) * q.limit);
    const rows = (await this.ds.query(
      `SELECT v.id, v.original_name, v.title, v.owner_id, v.created_at, v.duration, v.file_size, v.status
       FROM library.videos v WHERE ${filter} ORDER BY ${OPERATOR_SORTS[q.sortBy]} LIMIT $${params.length - 1} OFFSET $${params.length}`,
      params,
    )) as OperatorVideoRow[];
    return { rows, total: n };
  }

  /** Owners with the most videos, for the operator's user filter. */
  async ownersForOperator(limit: number): Promise<string[]> {
    const rows = (await this.ds.query(
      `SELECT owner_id FROM library.videos WHERE owner_id IS NOT NULL AND owner_id <> '' AND deleting_at IS NULL GROUP BY owner_id ORDER BY count(*) DESC, owner_id LIMIT $1`,
      [limit],
    )) as { owner_id: string }[];
    return rows.map((r) => r.owner_id);
  }

  /** The videos with these ids (being deleted or not), locked against new renders until `m`'s transaction ends. */
  async lockForDeletion(m: EntityManager, ids: string[]): Promise<VideoRow[]> {
    return (await m.query(`SELECT v.* FROM library.videos v WHERE v.id = ANY($1::uuid[]) ORDER BY v.id FOR UPDATE`, [ids])) as VideoRow[];
  }

  /** Marks videos as being deleted (kept if already marked): hidden from owners and lists, finished by the sweeper. */
  async markDeleting(m: EntityManager | DataSource, ids: string[]): Promise<void> {
    await m.query(`UPDATE library.videos SET deleting_at = coalesce(deleting_at, now()) WHERE id = ANY($1::uuid[])`, [ids]);
  }

  async unmarkDeleting(ids: string[]): Promise<void> {
    await this.ds.query(`UPDATE library.videos SET deleting_at = NULL WHERE id = ANY($1::uuid[])`, [ids]);
  }

  /** Videos whose deletion has not finished (oldest mark first), for the sweeper. */
  async markedForDeletion(limit: number, markedBefore: Date = new Date()): Promise<VideoRow[]> {
    return (await this.ds.query(`${SELECT_VIDEO} WHERE v.deleting_at IS NOT NULL AND v.deleting_at <= $1 ORDER BY v.deleting_at LIMIT $2`, [markedBefore, limit])) as VideoRow[];
  }

  /** Removes a video's records (its transcript and words cascade). Objects are the caller's. */
  async delete(id: string): Promise<void> {
    await this.ds.query(`DELETE FROM library.videos WHERE id = $1`, [id]);
  }

  async setWaveformKey(id: string, mediaVersion: string, key: string): Promise<void> {
    await this.ds.query(`UPDATE library.videos SET waveform_key = $3 WHERE id = $1 AND media_version = $2`, [id, mediaVersion, key]);
  }
}
