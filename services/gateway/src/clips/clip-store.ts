import type { DataSource, EntityManager } from 'typeorm';

export type ClipStatus = 'pending' | 'processing' | 'completed' | 'failed';
export type ClipUploadStatus = 'none' | 'pending' | 'uploading' | 'uploaded' | 'failed';

export interface ClipRow {
  id: string;
  video_id: string;
  name: string;
  start_time: number;
  end_time: number;
  aspect_ratio: string;
  reframe: unknown;
  status: ClipStatus;
  job_id: string;
  output_key: string;
  vtt_key: string;
  error: string | null;
  created_at: Date;
  provider_upload_status?: string;
  provider_video_id?: string | null;
}

export interface NewClip {
  id: string;
  videoId: string;
  name: string;
  startTime: number;
  endTime: number;
  aspectRatio: string;
  reframe: unknown;
  jobId: string;
  outputKey: string;
  vttKey: string;
}

/** Clips of videos (`library.clips`): the only code that runs SQL on that table. */
export class ClipStore {
  constructor(private readonly ds: DataSource) {}

  /** Clips per video (a deletion preview, the operator list). */
  async countByVideo(videoIds: string[]): Promise<Map<string, number>> {
    const rows = (await this.ds.query(`SELECT video_id, count(*)::int AS n FROM library.clips WHERE video_id = ANY($1::uuid[]) GROUP BY video_id`, [videoIds])) as { video_id: string; n: number }[];
    return new Map(rows.map((r) => [r.video_id, r.n]));
  }

  async create(c: NewClip): Promise<void> {
    await this.ds.query(
      `INSERT INTO library.clips (id, video_id, name, start_time, end_time, aspect_ratio, reframe, status, job_id, output_key, vtt_key)
       VALUES ($1,$2,$3,$4,$5,$6,$7,'pending',$8,$9,$10)`,
      [c.id, c.videoId, c.name, c.startTime, c.endTime, c.aspectRatio, JSON.stringify(c.reframe), c.jobId, c.outputKey, c.vttKey],
    );
  }

  /** A video's clips, newest first. */
  async listForVideo(videoId: string): Promise<ClipRow[]> {
    return (await this.ds.query(`SELECT * FROM library.clips WHERE video_id = $1 ORDER BY created_at DESC`, [videoId])) as ClipRow[];
  }

  /** The clips of `ids` that belong to the video (others are left out). */
  async ofVideo(videoId: string, ids: readonly string[]): Promise<ClipRow[]> {
    if (ids.length === 0) return [];
    return (await this.ds.query(`SELECT * FROM library.clips WHERE video_id = $1 AND id = ANY($2::uuid[])`, [videoId, ids])) as ClipRow[];
  }

  /** A clip of one of `ownerId`'s videos; null for a missing clip and for anyone else's alike. */
  async getOwned(id: string, ownerId: string): Promise<ClipRow | null> {
    const rows = (await this.ds.query(`SELECT c.* FROM library.clips c JOIN library.videos v ON v.id = c.video_id WHERE c.id = $1 AND v.owner_id = $2`, [
      id,
      ownerId,
    ])) as ClipRow[];
    return rows[0] ?? null;
  }

  async delete(id: string): Promise<void> {
    await this.ds.query(`DELETE FROM library.clips WHERE id = $1`, [id]);
  }

  /** The objects of a video's clips. */
  async objectsOfVideo(videoId: string): Promise<Array<{ output_key: string; vtt_key: string }>> {
    return (await this.ds.query(`SELECT output_key, vtt_key FROM library.clips WHERE video_id = $1`, [videoId])) as Array<{ output_key: string; vtt_key: string }>;
  }

  /** Every clip of a video goes (revert), inside the caller's transaction. */
  async deleteForVideo(m: EntityManager, videoId: string): Promise<void> {
    await m.query(`DELETE FROM library.clips WHERE video_id = $1`, [videoId]);
  }

  /** The clip a render made is done. */
  async completeForJob(jobId: string): Promise<void> {
    await this.ds.query(`UPDATE library.clips SET status = 'completed', error = NULL, updated_at = now() WHERE job_id = $1 AND status IN ('pending','processing')`, [jobId]);
  }

  /** A clip whose render failed or was cancelled. */
  async fail(id: string, error: string): Promise<void> {
    await this.ds.query(`UPDATE library.clips SET status = 'failed', error = $2, updated_at = now() WHERE id = $1 AND status IN ('pending','processing')`, [id, error]);
  }

  /** Publishing: the clips of an export are on their way. */
  async markUploading(videoId: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.ds.query(`UPDATE library.clips SET provider_upload_status = 'uploading' WHERE video_id = $1 AND id = ANY($2::uuid[])`, [videoId, ids]);
  }

  /** Publishing: what the provider said of one clip's upload. */
  async setUploadStatus(id: string, videoId: string, status: ClipUploadStatus, providerVideoId: string | null | undefined): Promise<void> {
    await this.ds.query(
      `UPDATE library.clips SET provider_upload_status = $3, provider_video_id = COALESCE($4, provider_video_id), updated_at = now() WHERE id = $1 AND video_id = $2`,
      [id, videoId, status, providerVideoId ?? null],
    );
  }

  /** A clone is a new video at the provider: none of the clips is there yet. */
  async resetUploads(m: EntityManager, videoId: string): Promise<void> {
    await m.query(`UPDATE library.clips SET provider_upload_status = 'none', provider_video_id = NULL, updated_at = now() WHERE video_id = $1`, [videoId]);
  }
}
